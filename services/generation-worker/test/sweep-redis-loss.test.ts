// Redis restarted empty under the worker (a private Redis and a private PostgreSQL, so neither
// the shared servers nor other test files' rows are touched): the sweeper's schedule comes back
// by itself, and one sweep recovers every lost item and listing row, not one page of them,
// while work merely waiting in a backlog is left alone.
import {
  catalogueRepository,
  creditsRepository,
  generationJobsRepository,
  listingRepository,
  wlEntitiesRepository,
} from '@catalogue/db';
import { addFair, listingJobId } from '@catalogue/queue';
import {
  eventually,
  makeEshop,
  startPrivatePostgres,
  startPrivateRedis,
  testConfig,
  type DisposablePostgres,
  type DisposableRedis,
} from '@catalogue/testing';
import { buildDeps, closeDeps, type Deps } from '../src/deps';
import { keepSweepScheduled } from '../src/handlers';
import { queueSettlement } from '../src/services/generation-end';
import { sweepStaleWork, type SweepDeps } from '../src/services/sweep.service';

const HOUR_MS = 3_600_000;
const TWO_HOURS_AGO = `now() - interval '2 hours'`;

let pg: DisposablePostgres;
let redis: DisposableRedis;
let deps: Deps;
/** Pages of 2 rows, so a handful of rows needs several pages. */
let sweepDeps: SweepDeps;

beforeAll(async () => {
  [pg, redis] = await Promise.all([startPrivatePostgres(), startPrivateRedis()]);
  deps = buildDeps(testConfig({ DATABASE_URL: pg.url, REDIS_URL: redis.url }));
  sweepDeps = {
    ...deps,
    sweep: {
      jobDeadlineMs: HOUR_MS,
      settlementGraceMs: HOUR_MS,
      itemDeadlineMs: HOUR_MS,
      batch: 2,
      eventRetentionDays: 30,
      revisionsKeep: 50,
      revisionRetentionDays: 90,
    },
  };
}, 60_000);

afterAll(async () => {
  await closeDeps(deps);
  await Promise.all([pg.stop(), redis.stop()]);
});

let counter = 0;
const nextId = (): string => `LOSS-${++counter}`;

async function stuckProducts(eshopId: number, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, nextId);
  await deps.db.transaction((trx) =>
    catalogueRepository.upsert(
      trx,
      'product',
      eshopId,
      ids.map((id) => ({
        externalId: id,
        isVisible: true,
        status: 'generate' as const,
        fields: { name: { default: `Lamp ${id}` } },
      })),
    ),
  );
  await deps
    .db('products')
    .where({ eshop_id: eshopId })
    .update({ updated_at: deps.db.raw(TWO_HOURS_AGO) });
  return ids;
}

async function queuedRenders(eshopId: number): Promise<string[]> {
  const jobs = await deps.queues['render-content'].getJobs(['waiting', 'prioritized', 'delayed', 'active']);
  return jobs
    .filter((job) => job.data.eshop_id === eshopId)
    .flatMap((job) => job.data.external_ids)
    .sort();
}

test('when Redis restarts empty, then the sweeper schedule is declared again without a worker restart', async () => {
  const stop = keepSweepScheduled(deps);
  try {
    const schedulers = () => deps.queues['sweep-stale-work'].getJobSchedulers();
    await eventually(async () => expect(await schedulers()).toHaveLength(1), 10_000);

    await redis.restart();

    await eventually(async () => {
      expect(deps.redis.status).toBe('ready');
      expect(await schedulers()).toEqual([expect.objectContaining({ key: 'sweep-stale-work' })]);
    }, 15_000);
  } finally {
    stop();
  }
});

test('when Redis lost the render jobs of more items than one page, then one sweep queues them all', async () => {
  const { eshop } = await makeEshop(deps.db);
  const ids = await stuckProducts(eshop.id, 5);

  const result = await sweepStaleWork(sweepDeps);

  expect(result.items_requeued).toBe(5);
  expect(await queuedRenders(eshop.id)).toEqual([...ids].sort());
});

test('when items wait in a long backlog (their render job is still queued), then the sweep queues nothing more for them', async () => {
  const { eshop } = await makeEshop(deps.db);
  const ids = await stuckProducts(eshop.id, 3);
  await addFair(deps.queues['render-content'], 'render-content', [
    { data: { eshop_id: eshop.id, entity_type: 'product', external_ids: ids } },
  ]);

  await sweepStaleWork(sweepDeps);

  const jobs = await deps.queues['render-content'].getJobs(['waiting', 'prioritized']);
  expect(jobs.filter((job) => job.data.eshop_id === eshop.id)).toHaveLength(1);
});

test('when Redis lost the enrichment jobs of a listing upload, then the sweep queues each lost row once, and not a row whose job is waiting', async () => {
  const { eshop } = await makeEshop(deps.db);
  const rows = Array.from({ length: 3 }, () => ({ externalId: nextId(), field: {}, parameter: [] }));
  const { rowIds } = await deps.db.transaction((trx) =>
    listingRepository.createBatch(trx, eshop.id, 'json', rows),
  );
  await deps
    .db('listing_rows')
    .whereIn('id', rowIds)
    .update({ updated_at: deps.db.raw(TWO_HOURS_AGO) });
  const queue = deps.queues['listing-enrichment'];
  const waiting = rowIds[0]!;
  await addFair(queue, 'listing-enrichment', [
    { data: { eshop_id: eshop.id, batch_id: 0, row_id: waiting }, opts: { jobId: listingJobId(waiting) } },
  ]);

  const first = await sweepStaleWork(sweepDeps);
  const second = await sweepStaleWork(sweepDeps);

  expect(first.listing_rows_requeued).toBe(2);
  expect(second.listing_rows_requeued).toBe(0);
  const jobs = await queue.getJobs(['prioritized']);
  expect(jobs.map((job) => job.id).sort()).toEqual(rowIds.map(listingJobId).sort());
});

/** A generation job that reserved 12 credits and finished (`done` charging `cost`, or `failed`). */
async function finishedJob(
  eshopId: number,
  outcome: { status: 'done'; cost: number } | { status: 'failed' },
) {
  const design = await deps.db('designs').where({ key: 'product-classic' }).first<{ id: number }>('id');
  const job = await deps.db.transaction(async (trx) => {
    const entityId = nextId();
    await wlEntitiesRepository.upsert(trx, eshopId, {
      entityId,
      type: 'product',
      oldDescription: {},
      title: {},
    });
    const created = await generationJobsRepository.create(trx, eshopId, {
      entityType: 'product',
      entityId,
      designId: design!.id,
      lang: 'default',
      context: { name: 'Trail shoe' },
      estimatedCost: 12,
    });
    expect((await creditsRepository.reserve(trx, eshopId, created.id, 12)).ok).toBe(true);
    return created;
  });
  await deps.db.transaction((trx) =>
    generationJobsRepository.finish(
      trx,
      eshopId,
      job.id,
      outcome.status === 'done'
        ? { status: 'done', widgetsCreated: 1, chargedCost: outcome.cost, provider: 'test', usage: null }
        : { status: 'failed', errorMessage: 'provider failed', provider: 'test', usage: null },
    ),
  );
  // As the worker does next: the settlement goes to Redis, which is then wiped.
  await queueSettlement(deps, {
    eshop_id: eshopId,
    job_id: job.id,
    actual_cost: outcome.status === 'done' ? outcome.cost : 0,
  });
  await deps
    .db('generation_jobs')
    .where({ id: job.id })
    .update({ updated_at: deps.db.raw(TWO_HOURS_AGO) });
  return job;
}

const ledgerOf = (jobId: number) =>
  deps.db('credit_ledger').where({ job_id: jobId }).orderBy('id').select('kind', 'amount', 'reserved_delta');

async function sweptSettlements(): Promise<number> {
  const metric = await deps.sweepMetrics.swept.get();
  return metric.values.find((v) => v.labels.kind === 'settlement')?.value ?? 0;
}

test('when Redis is wiped between a job finishing and its settlement, then one sweep settles it from the job row, and a second sweep charges nothing more', async () => {
  const { eshop } = await makeEshop(deps.db);
  await deps.db.transaction((trx) => creditsRepository.topUp(trx, eshop.id, 100, 'test top-up'));
  const done = await finishedJob(eshop.id, { status: 'done', cost: 5 });
  const failed = await finishedJob(eshop.id, { status: 'failed' });
  expect(await deps.queues['credit-settlement'].getJobCounts('prioritized')).toEqual({ prioritized: 2 });
  await redis.restart();
  await eventually(
    async () =>
      expect(await deps.queues['credit-settlement'].getJobCounts('prioritized')).toEqual({ prioritized: 0 }),
    15_000,
  );
  expect(await creditsRepository.getAccount(deps.db, eshop.id)).toMatchObject({ balance: 100, reserved: 24 });
  const countedBefore = await sweptSettlements();

  const first = await sweepStaleWork(sweepDeps);
  const second = await sweepStaleWork(sweepDeps);

  expect(first.settlements_recovered).toBe(2);
  expect(second.settlements_recovered).toBe(0);
  expect(await sweptSettlements()).toBe(countedBefore + 2);
  expect(await ledgerOf(done.id)).toEqual([
    { kind: 'reservation', amount: 0, reserved_delta: 12 },
    { kind: 'charge', amount: -5, reserved_delta: -5 },
    { kind: 'release', amount: 0, reserved_delta: -7 },
  ]);
  expect(await ledgerOf(failed.id)).toEqual([
    { kind: 'reservation', amount: 0, reserved_delta: 12 },
    { kind: 'release', amount: 0, reserved_delta: -12 },
  ]);
  expect(await creditsRepository.getAccount(deps.db, eshop.id)).toMatchObject({ balance: 95, reserved: 0 });
  expect(
    await deps.db('generation_jobs').whereIn('id', [done.id, failed.id]).pluck('reservation_settled'),
  ).toEqual([true, true]);
});

test('when a finished job is still inside the grace period, then the sweep leaves it to its settlement job', async () => {
  const { eshop } = await makeEshop(deps.db);
  await deps.db.transaction((trx) => creditsRepository.topUp(trx, eshop.id, 100, 'test top-up'));
  const job = await finishedJob(eshop.id, { status: 'done', cost: 3 });
  await deps.db('generation_jobs').where({ id: job.id }).update({ updated_at: deps.db.fn.now() });

  const result = await sweepStaleWork(sweepDeps);

  expect(result.settlements_recovered).toBe(0);
  expect((await ledgerOf(job.id)).map((row) => row.kind)).toEqual(['reservation']);
});
