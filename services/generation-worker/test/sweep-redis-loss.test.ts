// Redis restarted empty under the worker (a private Redis and a private PostgreSQL, so neither
// the shared servers nor other test files' rows are touched): the sweeper's schedule comes back
// by itself, and one sweep recovers every lost item and listing row, not one page of them,
// while work merely waiting in a backlog is left alone.
import { catalogueRepository, listingRepository } from '@catalogue/db';
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
  await queue.add(
    'listing-enrichment',
    { eshop_id: eshop.id, batch_id: 0, row_id: waiting },
    {
      jobId: listingJobId(waiting),
    },
  );

  const first = await sweepStaleWork(sweepDeps);
  const second = await sweepStaleWork(sweepDeps);

  expect(first.listing_rows_requeued).toBe(2);
  expect(second.listing_rows_requeued).toBe(0);
  const jobs = await queue.getJobs(['waiting']);
  expect(jobs.map((job) => job.id).sort()).toEqual(rowIds.map(listingJobId).sort());
});
