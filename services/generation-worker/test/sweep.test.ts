// The stale-work sweeper against the real database and Redis. Its deadlines are an hour here and
// the test makes its own rows two hours old, so rows of other test files (all younger) are never
// swept; the deps run on a queue prefix of their own, so the queued jobs can be inspected.
import {
  catalogueRepository,
  contentRepository,
  creditsRepository,
  eventsRepository,
  generationJobsRepository,
  wlEntitiesRepository,
  type GenerationJob,
} from '@catalogue/db';
import { enqueue, fairKey, generateJobId, type JobPayloads } from '@catalogue/queue';
import { UnrecoverableError, Worker } from 'bullmq';
import { eventually, makeEshop, testConfig } from '@catalogue/testing';
import { settleJob } from '../../credit-service/src/services/settlement.service';
import { buildDeps, closeDeps, sweepOptions, type Deps } from '../src/deps';
import { scheduleSweep, SWEEP_EVERY_MS } from '../src/handlers';
import { renderContentHandler } from '../src/handlers/render-content.handler';
import { ABANDONED_MESSAGE, sweepStaleWork, type SweepDeps } from '../src/services/sweep.service';

const PREFIX = `${process.env.TEST_QUEUE_PREFIX}-sweep`;
const HOUR_MS = 3_600_000;
const RESERVED = 12;

let deps: Deps;
let sweepDeps: SweepDeps;

beforeAll(() => {
  deps = buildDeps(testConfig({ QUEUE_PREFIX: PREFIX }));
  sweepDeps = {
    ...deps,
    sweep: {
      jobDeadlineMs: HOUR_MS,
      settlementGraceMs: HOUR_MS,
      itemDeadlineMs: HOUR_MS,
      batch: 500,
      eventRetentionDays: 30,
      revisionsKeep: 50,
      revisionRetentionDays: 90,
    },
  };
});
afterAll(async () => {
  await closeDeps(deps);
});

let counter = 0;
const nextId = (): string => `SWEEP-${process.pid}-${++counter}`;

async function shop(): Promise<number> {
  const { eshop } = await makeEshop(deps.db, { languages: ['default', 'cs'] });
  await deps.db.transaction((trx) => creditsRepository.topUp(trx, eshop.id, 100, 'test top-up'));
  return eshop.id;
}

/** A job row with its reservation, as the white-label generate endpoint leaves it. */
async function createJob(eshopId: number): Promise<GenerationJob> {
  const design = await deps.db('designs').where({ key: 'product-classic' }).first<{ id: number }>('id');
  return deps.db.transaction(async (trx) => {
    const entityId = nextId();
    await wlEntitiesRepository.upsert(trx, eshopId, {
      entityId,
      type: 'product',
      oldDescription: {},
      title: {},
    });
    const job = await generationJobsRepository.create(trx, eshopId, {
      entityType: 'product',
      entityId,
      designId: design.id,
      lang: 'default',
      context: { name: 'Trail shoe' },
      estimatedCost: RESERVED,
    });
    expect((await creditsRepository.reserve(trx, eshopId, job.id, RESERVED)).ok).toBe(true);
    return job;
  });
}

/** Moves rows' last change two hours back, past the sweeper's one-hour deadline. */
const TWO_HOURS_AGO = `now() - interval '2 hours'`;
const ageJob = (job: GenerationJob) =>
  deps
    .db('generation_jobs')
    .where({ id: job.id })
    .update({ updated_at: deps.db.raw(TWO_HOURS_AGO) });
const ageProducts = (eshopId: number, ids: string[]) =>
  deps
    .db('products')
    .where({ eshop_id: eshopId })
    .whereIn('external_id', ids)
    .update({ updated_at: deps.db.raw(TWO_HOURS_AGO) });

const reload = async (job: GenerationJob): Promise<GenerationJob> =>
  (await generationJobsRepository.find(deps.db, job.eshopId, job.id))!;

async function settlementsOf(jobId: number) {
  const jobs = await deps.queues['credit-settlement'].getJobs([
    'waiting',
    'prioritized',
    'delayed',
    'active',
    'completed',
  ]);
  return jobs.filter((j) => j?.data.job_id === jobId).map((j) => ({ id: j.id, data: j.data }));
}

async function renderJobsOf(eshopId: number) {
  const jobs = await deps.queues['render-content'].getJobs(['waiting', 'prioritized', 'delayed', 'active']);
  return jobs.filter((j) => j?.data.eshop_id === eshopId);
}

async function swept(kind: string): Promise<number> {
  const metric = await deps.sweepMetrics.swept.get();
  return metric.values.find((v) => v.labels.kind === kind)?.value ?? 0;
}

describe('sweeping abandoned generation jobs', () => {
  test('when a job row is idle past the deadline and Redis no longer knows its queue job, then it is queued again under its own id, once, and nothing is released', async () => {
    const eshopId = await shop();
    const job = await createJob(eshopId);
    await ageJob(job);
    const countedBefore = await swept('generation_job_requeued');

    const first = await sweepStaleWork(sweepDeps);
    const second = await sweepStaleWork(sweepDeps);

    expect(first.generation_jobs_requeued).toBeGreaterThanOrEqual(1);
    const queued = await deps.queues.generate.getJob(generateJobId(job.id));
    expect(queued?.data).toEqual({ eshop_id: eshopId, job_id: job.id });
    expect(await swept('generation_job_requeued')).toBe(countedBefore + 1);
    expect(second.generation_jobs_requeued).toBe(0);
    expect((await reload(job)).status).toBe('pending');
    expect(await settlementsOf(job.id)).toEqual([]);
    expect(await creditsRepository.getAccount(deps.db, eshopId)).toMatchObject({ reserved: RESERVED });
    await queued!.remove();
  });

  test('when a job row is idle past the deadline and BullMQ gave up on its queue job, then it is ended failed and its reservation is released exactly once', async () => {
    const eshopId = await shop();
    const job = await createJob(eshopId);
    await ageJob(job);
    // BullMQ's job of the row failed for good without the handler ending the row.
    const connection = deps.redis.duplicate();
    const worker = new Worker(
      'generate',
      async () => {
        throw new UnrecoverableError('stalled too often');
      },
      { connection, prefix: deps.config.redis.queuePrefix },
    );
    await enqueue(
      deps.queues,
      'generate',
      { eshop_id: eshopId, job_id: job.id },
      { jobId: generateJobId(job.id) },
    );
    await eventually(async () =>
      expect(await deps.queues.generate.getJobState(generateJobId(job.id))).toBe('failed'),
    );
    await worker.close();
    connection.disconnect();
    const countedBefore = await swept('generation_job');

    await sweepStaleWork(sweepDeps);
    await sweepStaleWork(sweepDeps);

    const ended = await reload(job);
    expect(ended).toMatchObject({ status: 'failed', errorMessage: ABANDONED_MESSAGE, chargedCost: 0 });
    const settlements = await settlementsOf(job.id);
    expect(settlements).toEqual([
      { id: `settle-${job.id}`, data: { eshop_id: eshopId, job_id: job.id, actual_cost: 0 } },
    ]);
    expect(await swept('generation_job')).toBe(countedBefore + 1);
    expect(await settleJob(deps.db, settlements[0]!.data)).toMatchObject({ outcome: 'settled' });
    expect(await settleJob(deps.db, settlements[0]!.data)).toMatchObject({ outcome: 'duplicate' });
    expect(await creditsRepository.getAccount(deps.db, eshopId)).toMatchObject({ balance: 100, reserved: 0 });
  });

  test('when a running job row is idle past the deadline but a live queue job still carries it, then it is left alone', async () => {
    const eshopId = await shop();
    const job = await createJob(eshopId);
    await generationJobsRepository.markRunning(deps.db, eshopId, job.id);
    await ageJob(job);
    const payload: JobPayloads['generate'] = { eshop_id: eshopId, job_id: job.id };
    const queued = await enqueue(deps.queues, 'generate', payload, { delay: 60_000 });

    await sweepStaleWork(sweepDeps);

    expect((await reload(job)).status).toBe('running');
    expect(await settlementsOf(job.id)).toEqual([]);
    await (await deps.queues.generate.getJob(queued!))!.remove();
  });

  test('when a job row has no queue job but is younger than the deadline, then it is left alone', async () => {
    const eshopId = await shop();
    const job = await createJob(eshopId);

    await sweepStaleWork(sweepDeps);

    expect((await reload(job)).status).toBe('pending');
    expect(await settlementsOf(job.id)).toEqual([]);
    expect(await creditsRepository.getAccount(deps.db, eshopId)).toMatchObject({ reserved: RESERVED });
  });
});

describe('sweeping items stuck in generate', () => {
  async function importProducts(eshopId: number, ids: string[]): Promise<void> {
    await deps.db.transaction((trx) =>
      catalogueRepository.upsert(
        trx,
        'product',
        eshopId,
        ids.map((id) => ({
          externalId: id,
          isVisible: true,
          status: 'generate' as const,
          fields: { name: { default: `Shoe ${id}` }, description: { default: '<p>Light and warm.</p>' } },
        })),
      ),
    );
  }

  const statusOf = async (eshopId: number, id: string): Promise<string> =>
    (await deps.db('products').where({ eshop_id: eshopId, external_id: id }).first('status'))!
      .status as string;

  test('when items have waited in generate past the deadline, then one render job per item is queued once and rendering makes them ready', async () => {
    const eshopId = await shop();
    const [first, second, fresh] = [nextId(), nextId(), nextId()];
    await importProducts(eshopId, [first, second, fresh]);
    await ageProducts(eshopId, [first, second]);
    const countedBefore = await swept('catalogue_item');

    await sweepStaleWork(sweepDeps);
    await sweepStaleWork(sweepDeps);

    const jobs = await renderJobsOf(eshopId);
    expect(jobs.map((j) => j.data.external_ids).sort()).toEqual([[first], [second]]);
    expect(jobs.every((j) => j.data.eshop_id === eshopId && j.data.entity_type === 'product')).toBe(true);
    expect(await swept('catalogue_item')).toBe(countedBefore + 2);
    for (const job of jobs) await renderContentHandler(deps)(job);
    expect(await statusOf(eshopId, first)).toBe('ready');
    expect(await statusOf(eshopId, second)).toBe('ready');
    expect(await statusOf(eshopId, fresh)).toBe('generate');
    const content = await contentRepository.find(deps.db, {
      eshopId,
      entityType: 'product',
      externalId: first,
    });
    expect(content?.html.cs).toContain(`Shoe ${first}`);
  });
});

describe('scheduling the sweeper', () => {
  test('when several worker replicas start, then one schedule queues one sweep per period', async () => {
    const queue = deps.queues['sweep-stale-work'];

    await Promise.all([scheduleSweep(deps), scheduleSweep(deps), scheduleSweep(deps)]);

    const schedulers = await queue.getJobSchedulers();
    expect(schedulers).toEqual([expect.objectContaining({ key: 'sweep-stale-work', every: SWEEP_EVERY_MS })]);
    const pending = await queue.getJobs(['waiting', 'delayed', 'prioritized']);
    expect(pending).toHaveLength(1);
    await queue.removeJobScheduler('sweep-stale-work');
  });
});

describe('sweeper deadlines', () => {
  test('when the provider may take 4 attempts of 60 s, then a job is called abandoned only after all of them, the waits, the rate-limit waits and the research, plus 5 minutes', () => {
    const options = sweepOptions(
      testConfig({
        PROVIDER_TIMEOUT_MS: '60000',
        PROVIDER_MAX_ATTEMPTS: '4',
        PROVIDER_RATE_LIMIT_MAX_WAIT_MS: '600000',
      }),
    );

    const research = 10_000 * 5;
    expect(options.jobDeadlineMs).toBe(4 * 60_000 + 3 * 30_000 + 10 * 60_000 + research + 5 * 60_000);
    expect(options.itemDeadlineMs).toBe(5 * 60_000);
  });
});

describe('sweeping expired idempotency keys', () => {
  test('when keys are past their 24 hours, then a sweep deletes them and keeps the live ones', async () => {
    const { eshop } = await makeEshop(deps.db);
    const row = (key: string, expires: string) => ({
      eshop_id: eshop.id,
      key,
      fingerprint: 'f'.repeat(64),
      lock_id: '00000000-0000-4000-8000-000000000000',
      response_status: 200,
      response_body: '{}',
      response_content_type: 'application/json',
      locked_until: deps.db.raw(`now()`),
      expires_at: deps.db.raw(`now() + interval '${expires}'`),
    });
    await deps.db('idempotency_keys').insert([row('old', '-1 minute'), row('live', '1 hour')]);

    const result = await sweepStaleWork(sweepDeps);

    expect(result.idempotency_keys_expired).toBeGreaterThanOrEqual(1);
    expect(await deps.db('idempotency_keys').where({ eshop_id: eshop.id }).pluck('key')).toEqual(['live']);
  });
});

describe('sweeping events past their retention', () => {
  test('when events are older than the retention, then a sweep deletes them, keeps the younger ones and the numbering goes on', async () => {
    const { eshop } = await makeEshop(deps.db);
    const append = (externalId: string) =>
      deps.db.transaction((trx) =>
        eventsRepository.append(trx, eshop.id, [{ type: 'item.created', entityType: 'product', externalId }]),
      );
    for (const id of ['P1', 'P2', 'P3']) await append(id);
    await deps
      .db('events')
      .where({ eshop_id: eshop.id })
      .whereIn('seq', [1, 2])
      .update({ occurred_at: deps.db.raw("now() - interval '31 days'") });

    const result = await sweepStaleWork(sweepDeps);
    await append('P4');

    expect(result.events_expired).toBeGreaterThanOrEqual(2);
    expect(await deps.db('events').where({ eshop_id: eshop.id }).orderBy('seq').pluck('seq')).toEqual([3, 4]);
    expect(await eventsRepository.bounds(deps.db, eshop.id)).toEqual({ oldest: 3, newest: 4 });
  });
});

describe("sweeping the eshops' lines of the fair queues", () => {
  test('when a fair queue has no job waiting but its lines still count places, then a sweep forgets them', async () => {
    // A place whose job is gone (removed by hand, or taken by a worker that gave nothing back).
    // On `generate`, which this sweep does not fill: its generation (and listing) deadline is
    // beyond any row's age, so no row of the database, which other test files share, is queued.
    const queue = deps.queues.generate;
    await queue.drain(true);
    const counts = fairKey(PREFIX, 'generate');
    await deps.redis.hset(counts, '999999', '7');
    expect(await queue.getJobCounts('waiting', 'prioritized', 'delayed')).toEqual({
      waiting: 0,
      prioritized: 0,
      delayed: 0,
    });

    await sweepStaleWork({ ...sweepDeps, sweep: { ...sweepDeps.sweep, jobDeadlineMs: 1_000_000 * HOUR_MS } });

    expect(await deps.redis.hgetall(counts)).toEqual({});
  });
});
