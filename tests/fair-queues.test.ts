// Fair shares of the queues an eshop can fill: one eshop's backlog of 2,000 jobs, queued first,
// and another eshop's single job, queued through the real producer (the white-label generation
// start, the catalogue listing upload). A real generation worker, started after both, takes the
// single job among its first ones instead of after the backlog. Real PostgreSQL and Redis, on a
// queue prefix of this file's own.
import type { Job, Worker } from 'bullmq';
import { generationJobsRepository, listingRepository, wlEntitiesRepository } from '@catalogue/db';
import {
  closeWorkers,
  enqueueMany,
  fairIdsKey,
  fairKey,
  FAIR_QUEUES,
  type JobPayloads,
  type QueueName,
} from '@catalogue/queue';
import { eventually, makeEshop, testConfig } from '@catalogue/testing';
import {
  buildDeps as buildCatalogueDeps,
  closeDeps as closeCatalogueDeps,
  type Deps as CatalogueDeps,
} from '../services/catalogue-api/src/deps';
import { uploadListing } from '../services/catalogue-api/src/services/listing.service';
import {
  buildDeps as buildWhiteLabelDeps,
  closeDeps as closeWhiteLabelDeps,
  type Deps as WhiteLabelDeps,
} from '../services/white-label-api/src/deps';
import { startGeneration } from '../services/white-label-api/src/services/generate.service';
import {
  buildDeps as buildWorkerDeps,
  closeDeps as closeWorkerDeps,
  type Deps as WorkerDeps,
} from '../services/generation-worker/src/deps';
import { startWorkers } from '../services/generation-worker/src/handlers';
import { failGeneration } from '../services/generation-worker/src/services/generation-end';

const PREFIX = `${process.env.TEST_QUEUE_PREFIX}-fair`;
const BACKLOG = 2_000;
jest.setTimeout(120_000);
const CONCURRENCY = 2;

let catalogue: CatalogueDeps;
let whiteLabel: WhiteLabelDeps;
let worker: WorkerDeps;
let workers: Worker[] = [];

beforeAll(() => {
  const config = testConfig({ QUEUE_PREFIX: PREFIX, WORKER_CONCURRENCY: String(CONCURRENCY) });
  catalogue = buildCatalogueDeps(config);
  whiteLabel = buildWhiteLabelDeps(config);
  worker = buildWorkerDeps(config);
});
afterEach(async () => {
  await closeWorkers(workers);
  workers = [];
});
afterAll(async () => {
  const queues: QueueName[] = ['generate', 'listing-enrichment', 'credit-settlement'];
  for (const name of queues) {
    await worker.queues[name].obliterate({ force: true });
    await worker.redis.del(fairKey(PREFIX, name), fairIdsKey(PREFIX, name));
  }
  await closeWorkerDeps(worker);
  await closeWhiteLabelDeps(whiteLabel);
  await closeCatalogueDeps(catalogue);
});

/** Starts the real workers of one queue and records which eshop each job they take belongs to. */
function startRecording(queue: 'generate' | 'listing-enrichment'): number[] {
  const taken: number[] = [];
  workers = startWorkers(worker, [queue]);
  workers[0]!.on('active', (job: Job<{ eshop_id: number }>) => taken.push(job.data.eshop_id));
  return taken;
}

describe('queues an eshop can fill are shared fairly between eshops', () => {
  test('every queue of work someone waits for is fair (webhook deliveries keep their order instead)', () => {
    expect([...FAIR_QUEUES].sort()).toEqual(
      ['credit-settlement', 'generate', 'listing-enrichment', 'render-content'].sort(),
    );
  });

  test("when one eshop has 2,000 generations queued and another starts one, then the worker takes that one among its first jobs, and the backlog's settlements are queued once", async () => {
    const design = (
      (await catalogue.db('designs').where({ key: 'product-classic' }).first('id')) as { id: number }
    ).id;
    const big = (await makeEshop(catalogue.db, { credits: 1_000 })).eshop;
    const small = await makeEshop(catalogue.db, { credits: 1_000 });
    for (const { id, entity } of [
      { id: big.id, entity: 'BIG-1' },
      { id: small.eshop.id, entity: 'SMALL-1' },
    ]) {
      await wlEntitiesRepository.upsert(catalogue.db, id, {
        entityId: entity,
        type: 'product',
        oldDescription: {},
        title: {},
      });
    }
    // The big eshop's backlog, queued cheaply: 2,000 deliveries of one of its jobs that ended
    // already (each run settles it again, which settles once).
    const ended = await startGeneration(whiteLabel, {
      eshop: big,
      entityType: 'product',
      entityId: 'BIG-1',
      body: { design_id: design, name: 'Trail shoe' },
    });
    await failGeneration(worker, big.id, ended.id, {
      message: 'ended for the test',
      provider: null,
      usage: null,
    });
    const backlog: JobPayloads['generate'][] = Array.from({ length: BACKLOG }, () => ({
      eshop_id: big.id,
      job_id: ended.id,
    }));
    await enqueueMany(worker.queues, 'generate', backlog);

    // The small eshop's one generation, through the white-label start (job, reservation, queue).
    const single = await startGeneration(whiteLabel, {
      eshop: small.eshop,
      entityType: 'product',
      entityId: 'SMALL-1',
      body: { design_id: design, name: 'Rain jacket' },
    });

    const taken = startRecording('generate');
    await eventually(async () => {
      const job = await generationJobsRepository.find(worker.db, small.eshop.id, single.id);
      expect(job?.status).toBe('done');
    }, 60_000);

    // Round-robin: the small eshop's job went in the first round (its place is 1, like the
    // backlog's first job), not after the backlog (it was 2,001st without fairness).
    expect(taken.indexOf(small.eshop.id)).toBeGreaterThanOrEqual(0);
    expect(taken.indexOf(small.eshop.id)).toBeLessThan(CONCURRENCY + 1);
    // Credits: the single job reserved once and is settled once; the 2,000 runs of the ended
    // job queued its one settlement job, which holds one place in the settlement queue's line
    // (BullMQ ignored the other 1,999 adds of `settle-<id>`, and so did the places).
    // The settlement is queued just after the job's end commits (queueSettlement), so the job can
    // read `done` a moment before its settlement is in the queue (seen once in a fresh-clone CI).
    await eventually(async () => {
      const settlements = await worker.queues['credit-settlement'].getJobs(['prioritized', 'waiting']);
      expect(settlements.filter((j) => j.data.job_id === single.id)).toHaveLength(1);
    }, 10_000);
    await closeWorkers(workers);
    workers = [];
    expect(await worker.redis.hget(fairKey(PREFIX, 'credit-settlement'), String(big.id))).toBe('1');
    const ledger = await worker.db('credit_ledger').where({ job_id: single.id }).select('kind');
    expect(ledger.map((row: { kind: string }) => row.kind)).toEqual(['reservation']);
  });

  test('when one eshop has uploaded a 2,000-row listing and another uploads one row, then the worker takes that row among its first jobs', async () => {
    const big = (await makeEshop(catalogue.db)).eshop.id;
    const small = (await makeEshop(catalogue.db)).eshop.id;
    const rows = Array.from({ length: BACKLOG }, (_, i) => ({ code: `B${i}`, name: `Backlog item ${i}` }));
    await uploadListing(catalogue, big, 'json', rows);
    const one = await uploadListing(catalogue, small, 'json', [{ code: 'S1', name: 'Single item' }]);

    const taken = startRecording('listing-enrichment');
    await eventually(async () => {
      const [row] = await listingRepository.listRows(worker.db, small, one.data.batch_id, {
        page: 1,
        perPage: 1,
      });
      expect(row?.status).toBe('done');
    }, 60_000);

    expect(taken.indexOf(small)).toBeGreaterThanOrEqual(0);
    expect(taken.indexOf(small)).toBeLessThan(CONCURRENCY + 1);
  });
});
