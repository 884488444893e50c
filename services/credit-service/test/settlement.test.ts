import { Registry } from 'prom-client';
import { creditsRepository, type Knex } from '@catalogue/db';
import { closeQueues, closeWorkers, createQueues, enqueue, type Queues, type Worker } from '@catalogue/queue';
import { eventually, makeEshop, makeGenerationJob, testConfig } from '@catalogue/testing';
import { buildDeps, closeDeps, type Deps } from '../src/deps';
import { settleJob } from '../src/services/settlement.service';
import { startWorkers } from '../src/workers';

async function reservedJob(db: Knex, eshopId: number, amount: number): Promise<number> {
  const jobId = await makeGenerationJob(db, eshopId);
  const result = await db.transaction((trx) => creditsRepository.reserve(trx, eshopId, jobId, amount));
  expect(result.ok).toBe(true);
  return jobId;
}

async function ledgerOf(db: Knex, eshopId: number, jobId: number) {
  return db('credit_ledger')
    .select('kind', 'amount', 'reserved_delta')
    .where({ eshop_id: eshopId, job_id: jobId })
    .orderBy('id');
}

describe('settleJob', () => {
  let deps: Deps;
  beforeAll(() => {
    deps = buildDeps(testConfig());
  });
  afterAll(() => closeDeps(deps));

  test('when a job cost less than it reserved, then the cost is charged and the rest released', async () => {
    const shop = await makeEshop(deps.db, { credits: 100 });
    const jobId = await reservedJob(deps.db, shop.eshop.id, 30);

    const result = await settleJob(deps.db, { eshop_id: shop.eshop.id, job_id: jobId, actual_cost: 12 });

    expect(result).toEqual({ outcome: 'settled', charged: 12, released: 18 });
    expect(await creditsRepository.getAccount(deps.db, shop.eshop.id)).toMatchObject({
      balance: 88,
      reserved: 0,
    });
    expect(await ledgerOf(deps.db, shop.eshop.id, jobId)).toEqual([
      { kind: 'reservation', amount: 0, reserved_delta: 30 },
      { kind: 'charge', amount: -12, reserved_delta: -12 },
      { kind: 'release', amount: 0, reserved_delta: -18 },
    ]);
  });

  test('when a job cost more than it reserved, then only the reservation is charged', async () => {
    const shop = await makeEshop(deps.db, { credits: 100 });
    const jobId = await reservedJob(deps.db, shop.eshop.id, 30);

    const result = await settleJob(deps.db, { eshop_id: shop.eshop.id, job_id: jobId, actual_cost: 45 });

    expect(result).toEqual({ outcome: 'settled', charged: 30, released: 0 });
    expect(await creditsRepository.getAccount(deps.db, shop.eshop.id)).toMatchObject({
      balance: 70,
      reserved: 0,
    });
  });

  test('when a job failed (actual cost 0), then its whole reservation is released', async () => {
    const shop = await makeEshop(deps.db, { credits: 40 });
    const jobId = await reservedJob(deps.db, shop.eshop.id, 25);

    const result = await settleJob(deps.db, { eshop_id: shop.eshop.id, job_id: jobId, actual_cost: 0 });

    expect(result).toEqual({ outcome: 'settled', charged: 0, released: 25 });
    expect(await creditsRepository.getAccount(deps.db, shop.eshop.id)).toEqual({
      eshopId: shop.eshop.id,
      balance: 40,
      reserved: 0,
      remaining: 40,
    });
  });

  test('when the same settlement is delivered twice, even at once, then it is charged once', async () => {
    const shop = await makeEshop(deps.db, { credits: 100 });
    const jobId = await reservedJob(deps.db, shop.eshop.id, 30);
    const payload = { eshop_id: shop.eshop.id, job_id: jobId, actual_cost: 20 };

    const results = await Promise.all([settleJob(deps.db, payload), settleJob(deps.db, payload)]);
    const again = await settleJob(deps.db, payload);

    expect(results.map((r) => r.outcome).sort()).toEqual(['duplicate', 'settled']);
    expect(again.outcome).toBe('duplicate');
    expect(await creditsRepository.getAccount(deps.db, shop.eshop.id)).toMatchObject({
      balance: 80,
      reserved: 0,
    });
    const charges = (await ledgerOf(deps.db, shop.eshop.id, jobId)).filter((r) => r.kind === 'charge');
    expect(charges).toHaveLength(1);
  });

  test('when a job of another eshop has that id, then settling it for this eshop changes nothing', async () => {
    const a = await makeEshop(deps.db, { credits: 100 });
    const b = await makeEshop(deps.db, { credits: 100 });
    const jobId = await reservedJob(deps.db, a.eshop.id, 30);

    const result = await settleJob(deps.db, { eshop_id: b.eshop.id, job_id: jobId, actual_cost: 30 });

    expect(result.outcome).toBe('no_reservation');
    expect(await creditsRepository.getAccount(deps.db, a.eshop.id)).toMatchObject({
      balance: 100,
      reserved: 30,
    });
    expect(await creditsRepository.getAccount(deps.db, b.eshop.id)).toMatchObject({
      balance: 100,
      reserved: 0,
    });
  });

  test.each([
    [{ eshop_id: 0, job_id: 1, actual_cost: 1 }, 'eshop_id must be a positive integer'],
    [{ eshop_id: 1, job_id: 1.5, actual_cost: 1 }, 'job_id must be a positive integer'],
    [{ eshop_id: 1, job_id: 1, actual_cost: -3 }, 'actual_cost must be a whole number ≥ 0'],
  ])('when the payload is malformed (%p), then it is refused', async (payload, message) => {
    await expect(settleJob(deps.db, payload)).rejects.toThrow(message);
  });
});

describe('credit-settlement consumer (real BullMQ)', () => {
  let deps: Deps;
  let queues: Queues;
  let workers: Worker[];

  beforeAll(() => {
    deps = buildDeps(testConfig({ QUEUE_PREFIX: `${process.env.TEST_QUEUE_PREFIX}:settlement` }));
    queues = createQueues(deps.redis, deps.config.redis.queuePrefix);
  });
  afterEach(async () => {
    if (workers) await closeWorkers(workers);
  });
  afterAll(async () => {
    await queues['credit-settlement'].obliterate({ force: true });
    await closeQueues(queues);
    await closeDeps(deps);
  });

  test('when a settlement is queued, then the worker charges it and the metrics count it', async () => {
    const shop = await makeEshop(deps.db, { credits: 100 });
    const jobId = await reservedJob(deps.db, shop.eshop.id, 30);
    workers = startWorkers(deps);

    await enqueue(queues, 'credit-settlement', { eshop_id: shop.eshop.id, job_id: jobId, actual_cost: 10 });

    await eventually(async () =>
      expect(await creditsRepository.getAccount(deps.db, shop.eshop.id)).toMatchObject({
        balance: 90,
        reserved: 0,
      }),
    );
    const metrics = await (deps.registry as Registry).metrics();
    expect(metrics).toMatch(/credits_charged_total [1-9]\d*/);
    expect(metrics).toMatch(/credit_settlements_total\{outcome="settled"\} [1-9]/);
    expect(metrics).toContain('credit_settlement_lag_seconds_count');
  });

  test('when a worker dies after committing but before the ack, then the redelivery does not charge again', async () => {
    const shop = await makeEshop(deps.db, { credits: 100 });
    const jobId = await reservedJob(deps.db, shop.eshop.id, 30);
    // The first attempt commits the settlement and then fails as a crash before the ack
    // would; BullMQ delivers the job again.
    let attempts = 0;
    const original = deps.db;
    workers = startWorkers({
      ...deps,
      db: new Proxy(original, {
        get(target, prop, receiver) {
          if (prop !== 'transaction') return Reflect.get(target, prop, receiver);
          return async (fn: (trx: Knex.Transaction) => Promise<unknown>) => {
            const result = await target.transaction(fn);
            attempts += 1;
            if (attempts === 1) throw new Error('worker died before acking');
            return result;
          };
        },
      }),
    });

    await enqueue(
      queues,
      'credit-settlement',
      { eshop_id: shop.eshop.id, job_id: jobId, actual_cost: 10 },
      { attempts: 3, backoff: { type: 'fixed', delay: 10 } },
    );

    await eventually(() => expect(attempts).toBe(2));
    await eventually(async () => {
      const completed = await queues['credit-settlement'].getCompleted();
      expect(completed.find((j) => j.data.job_id === jobId)?.returnvalue).toEqual({
        outcome: 'duplicate',
        charged: 0,
        released: 0,
      });
    });
    expect(await creditsRepository.getAccount(deps.db, shop.eshop.id)).toMatchObject({
      balance: 90,
      reserved: 0,
    });
    const charges = (await ledgerOf(deps.db, shop.eshop.id, jobId)).filter((r) => r.kind === 'charge');
    expect(charges).toEqual([{ kind: 'charge', amount: -10, reserved_delta: -10 }]);
  });
});
