// Redis restarted empty after generations were accepted (a private Redis and a private
// PostgreSQL, so neither the shared servers nor other test files' rows are touched): the worker
// notices the loss by its marker key, queues the lost jobs again from their rows at once, and
// every accepted generation finishes and is charged once; imported items are rendered.
import {
  catalogueRepository,
  creditsRepository,
  generationJobsRepository,
  wlEntitiesRepository,
} from '@catalogue/db';
import { addFair, enqueue, generateJobId, redisMarkerKey, type Worker } from '@catalogue/queue';
import {
  eventually,
  makeEshop,
  startPrivatePostgres,
  startPrivateRedis,
  testConfig,
  type DisposablePostgres,
  type DisposableRedis,
} from '@catalogue/testing';
import { settleJob } from '../../credit-service/src/services/settlement.service';
import { buildDeps, closeDeps, type Deps } from '../src/deps';
import { startWorkers, watchRedisLoss } from '../src/handlers';

const CONTEXT = {
  name: 'Trail Runner 2',
  short_description: 'A light trail shoe with a grippy sole. It drains water fast.',
  old_description: '<p>Made for wet mountain paths.</p><p>Weighs 280 g per shoe.</p>',
  parameter: 'Weight: 280 g\nDrop: 6 mm\nUpper: recycled mesh',
};
const JOBS = 6;
const RESERVED = 40;
const TOP_UP = 1_000;

let pg: DisposablePostgres;
let redis: DisposableRedis;
let deps: Deps;
const stops: Array<() => void> = [];
let workers: Worker[] = [];

beforeAll(async () => {
  [pg, redis] = await Promise.all([startPrivatePostgres(), startPrivateRedis()]);
  deps = buildDeps(testConfig({ DATABASE_URL: pg.url, REDIS_URL: redis.url }));
}, 60_000);

afterAll(async () => {
  for (const stop of stops) stop();
  await Promise.all(workers.map((worker) => worker.close()));
  await closeDeps(deps);
  await Promise.all([pg.stop(), redis.stop()]);
});

/** What the white-label generate endpoint does: the row and its reservation, then the queue job. */
async function accept(eshopId: number, n: number): Promise<number> {
  const design = await deps.db('designs').where({ key: 'product-classic' }).first<{ id: number }>('id');
  const job = await deps.db.transaction(async (trx) => {
    const entityId = `WIPE-${n}`;
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
      context: CONTEXT,
      estimatedCost: RESERVED,
    });
    expect((await creditsRepository.reserve(trx, eshopId, created.id, RESERVED)).ok).toBe(true);
    return created;
  });
  await enqueue(
    deps.queues,
    'generate',
    { eshop_id: eshopId, job_id: job.id },
    { jobId: generateJobId(job.id) },
  );
  return job.id;
}

test('when Redis is wiped after generations and an import were accepted, then each is queued again within seconds, every generation finishes and is charged once, and the items are rendered', async () => {
  // Arrange: the worker watches its marker; the jobs are accepted and queued, none started yet.
  stops.push(watchRedisLoss(deps, 500));
  const marker = redisMarkerKey(deps.config.redis.queuePrefix);
  await eventually(async () => expect(await deps.redis.get(marker)).not.toBeNull(), 10_000);
  const { eshop } = await makeEshop(deps.db);
  await deps.db.transaction((trx) => creditsRepository.topUp(trx, eshop.id, TOP_UP, 'test top-up'));
  const ids: number[] = [];
  for (let n = 0; n < JOBS; n++) ids.push(await accept(eshop.id, n));
  expect(await deps.queues.generate.count()).toBe(JOBS);
  // An import committed with its render job queued, as the catalogue API leaves it.
  const items = ['WIPE-A', 'WIPE-B', 'WIPE-C'];
  await deps.db.transaction((trx) =>
    catalogueRepository.upsert(
      trx,
      'product',
      eshop.id,
      items.map((externalId) => ({
        externalId,
        isVisible: true,
        status: 'generate' as const,
        fields: { name: { default: `Lamp ${externalId}` } },
      })),
    ),
  );
  await addFair(deps.queues['render-content'], 'render-content', [
    { data: { eshop_id: eshop.id, entity_type: 'product', external_ids: items } },
  ]);

  // Act: Redis restarts empty; the workers then run (the sweeper's idle deadlines are minutes).
  await redis.restart();
  const wiped = Date.now();
  workers = startWorkers(deps, ['generate', 'render-content', 'sweep-stale-work']);

  // Assert: the lost jobs are queued again long before any deadline, and every one finishes.
  await eventually(async () => {
    const rows = await deps.db('generation_jobs').whereIn('id', ids).pluck('status');
    expect(rows).toEqual(Array.from({ length: JOBS }, () => 'done'));
  }, 60_000);
  await eventually(async () => {
    const statuses = await deps.db('products').where({ eshop_id: eshop.id }).pluck('status');
    expect(statuses).toEqual(['ready', 'ready', 'ready']);
  }, 60_000);
  expect(Date.now() - wiped).toBeLessThan(60_000);
  // The credit service's part: each queued settlement settled (a second time changes nothing).
  const settlements = await deps.queues['credit-settlement'].getJobs(['waiting', 'prioritized']);
  expect(settlements.map((job) => job.data.job_id).sort()).toEqual([...ids].sort());
  for (const job of settlements) await settleJob(deps.db, job.data);
  for (const job of settlements)
    expect(await settleJob(deps.db, job.data)).toMatchObject({ outcome: 'duplicate' });
  const charges = await deps
    .db('credit_ledger')
    .whereIn('job_id', ids)
    .where({ kind: 'charge' })
    .select('job_id', 'amount');
  expect(charges.map((row) => Number(row.job_id)).sort()).toEqual([...ids].sort());
  const charged = await deps.db('generation_jobs').whereIn('id', ids).sum({ total: 'charged_cost' }).first();
  expect(charges.reduce((sum, row) => sum - Number(row.amount), 0)).toBe(Number(charged!.total));
  expect(await creditsRepository.getAccount(deps.db, eshop.id)).toMatchObject({
    balance: TOP_UP - Number(charged!.total),
    reserved: 0,
  });
}, 120_000);

test('when the Redis connection comes back with its data, then items an import committed meanwhile without a render job are rendered within seconds', async () => {
  // Arrange: the import committed while the API could not reach Redis (its render job never queued).
  const { eshop } = await makeEshop(deps.db);
  const items = ['BACK-A', 'BACK-B'];
  await deps.db.transaction((trx) =>
    catalogueRepository.upsert(
      trx,
      'product',
      eshop.id,
      items.map((externalId) => ({
        externalId,
        isVisible: true,
        status: 'generate' as const,
        fields: { name: { default: `Lamp ${externalId}` } },
      })),
    ),
  );

  // Act: the worker's connection drops and comes back; the marker is still there.
  deps.redis.disconnect(true);

  // Assert
  await eventually(async () => {
    const statuses = await deps.db('products').where({ eshop_id: eshop.id }).pluck('status');
    expect(statuses).toEqual(['ready', 'ready']);
  }, 20_000);
}, 60_000);
