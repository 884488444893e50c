// A start whose job cannot be queued (Redis gone after the commit) must not leave a pending job
// that nobody runs, blocks the entity and holds credits. Uses a private redis-server it can stop.
import { settleReservation } from '@catalogue/credits';
import { creditsRepository, generationJobsRepository, wlEntitiesRepository } from '@catalogue/db';
import { WHITE_LABEL_TOKEN_HEADER } from '@catalogue/http';
import {
  expectMatchesContract,
  makeEshop,
  serveApp,
  startPrivateRedis,
  testConfig,
  type DisposableRedis,
  type ServedApp,
} from '@catalogue/testing';
import { Redis } from 'ioredis';
import { createApp } from '../src/app';
import { buildDeps, closeDeps, type Deps } from '../src/deps';
import { BASE, designId, ORIGIN } from './generate-helpers';

describe('white-label-api: POST …/generate while Redis is down', () => {
  let redis: DisposableRedis;
  let deps: Deps;
  let server: ServedApp;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    deps = buildDeps(testConfig({ REDIS_URL: redis.url }));
    server = await serveApp(createApp(deps), deps.logger);
  });
  afterAll(async () => {
    await server.stop();
    // The service's own shutdown, with Redis still gone: it must return, not wait for a reconnect.
    await closeDeps(deps);
    await redis.stop();
  });

  /** An eshop with 100 credits and a registered product `entityId`. */
  async function eshopWithProduct(entityId: string) {
    const shop = await makeEshop(deps.db, { origins: [ORIGIN] });
    const eshopId = shop.eshop.id;
    await deps.db.transaction((trx) => creditsRepository.topUp(trx, eshopId, 100, 'test top-up'));
    await wlEntitiesRepository.upsert(deps.db, eshopId, {
      entityId,
      type: 'product',
      title: { default: 'Trail shoe' },
      oldDescription: {},
    });
    return { shop, eshopId };
  }

  /** The host's start of a generation of product `entityId` with the classic design. */
  async function start(token: string, entityId: string, headers: Record<string, string> = {}) {
    return fetch(`${server.url}${BASE}/content/${entityId}/type/product/generate`, {
      method: 'POST',
      headers: {
        [WHITE_LABEL_TOKEN_HEADER]: token,
        Origin: ORIGIN,
        'Content-Type': 'application/json',
        ...headers,
      },
      body: JSON.stringify({ design_id: await designId(deps.db, 'product-classic') }),
    });
  }

  // First, while Redis is up: it stalls Redis rather than stopping it.
  test('when another process takes the job up while its queueing fails, then the start answers that job and keeps its reservation, so a retry is not needed', async () => {
    // Arrange
    const { shop, eshopId } = await eshopWithProduct('Q0');
    // Redis stalls: the start's add (a write script) waits until the start gives up on it.
    const admin = new Redis(redis.url);
    await admin.call('CLIENT', 'PAUSE', '15000', 'WRITE');
    let jobId: number | undefined;

    try {
      // Act: the start commits its job, then waits on the add; meanwhile a worker (here the
      // repository's own step) takes the job up, as a sweep after Redis came back would.
      const answer = start(shop.whiteLabelToken, 'Q0');
      while (jobId === undefined) {
        const row: { id: string } | undefined = await deps
          .db('generation_jobs')
          .where({ eshop_id: eshopId })
          .first('id');
        if (row) jobId = Number(row.id);
        else await new Promise((r) => setTimeout(r, 20));
      }
      await generationJobsRepository.markRunning(deps.db, eshopId, jobId);
      const res = await answer;
      const body = (await res.json()) as { data: { id: number; status: string } };
      expectMatchesContract(
        'POST',
        `${BASE}/content/Q0/type/product/generate`,
        res.status,
        body,
        res.headers.get('content-type'),
      );

      // Assert: the job that runs is answered, its credits stay reserved for its settlement,
      // nothing was released and no failure was announced.
      expect(res.status).toBe(200);
      expect(body.data).toMatchObject({ id: jobId, status: 'running' });
      const jobs = await deps
        .db('generation_jobs')
        .where({ eshop_id: eshopId })
        .select('status', 'error_message');
      expect(jobs).toEqual([{ status: 'running', error_message: null }]);
      const account = await creditsRepository.getAccount(deps.db, eshopId);
      expect(account.reserved).toBeGreaterThan(0);
      const kinds = await deps.db('credit_ledger').where({ eshop_id: eshopId }).orderBy('id').pluck('kind');
      expect(kinds).toEqual(['topup', 'reservation']);
      expect(await deps.db('events').where({ eshop_id: eshopId }).pluck('type')).toEqual([]);
    } finally {
      await admin.call('CLIENT', 'UNPAUSE');
      admin.disconnect();
      // Ended as its worker would end it, so no other test's sweep finds a running job holding credits.
      const id = jobId;
      if (id !== undefined)
        await deps.db.transaction(async (trx) => {
          await settleReservation(trx, eshopId, id, 0);
          await generationJobsRepository.finish(trx, eshopId, id, {
            status: 'failed',
            errorMessage: 'The test is over.',
            provider: null,
            usage: null,
          });
        });
    }
  }, 20_000);

  test('when the job cannot be queued, then 503, the job ends failed and its reservation is released', async () => {
    const { shop, eshopId } = await eshopWithProduct('Q1');
    await redis.stop();

    const path = `${BASE}/content/Q1/type/product/generate`;
    const res = await start(shop.whiteLabelToken, 'Q1');
    const body: unknown = await res.json();

    expectMatchesContract('POST', path, res.status, body, res.headers.get('content-type'));
    expect(res.status).toBe(503);
    expect(body).toEqual({
      error: 'The generation could not be queued; nothing was charged. Try again.',
      code: 'unavailable',
    });
    expect(res.headers.get('retry-after')).toBe('5');
    const jobs = await deps
      .db('generation_jobs')
      .where({ eshop_id: eshopId })
      .select('status', 'error_message');
    expect(jobs).toEqual([{ status: 'failed', error_message: 'The job could not be queued.' }]);
    // The change feed hears of it like of any other failed job.
    const events = await deps.db('events').where({ eshop_id: eshopId }).select('seq', 'type');
    expect(events).toEqual([{ seq: 1, type: 'generation.failed' }]);
    expect(await creditsRepository.getAccount(deps.db, eshopId)).toEqual({
      eshopId,
      balance: 100,
      reserved: 0,
      remaining: 100,
    });
    const ledger = await deps
      .db('credit_ledger')
      .where({ eshop_id: eshopId })
      .orderBy('id')
      .select('kind', 'amount', 'reserved_delta');
    expect(ledger.map((r: { kind: string }) => r.kind)).toEqual(['topup', 'reservation', 'release']);
    expect(ledger.reduce((sum: number, r: { reserved_delta: number }) => sum + r.reserved_delta, 0)).toBe(0);
  }, 20_000);

  test('when a start with an Idempotency-Key cannot be queued, then the outcome it recorded goes with the abandoned job: a retry runs again', async () => {
    // Arrange
    const { shop, eshopId } = await eshopWithProduct('Q2');
    await redis.stop();
    const key = `queue-down-${process.pid}`;

    // Act
    const res = await start(shop.whiteLabelToken, 'Q2', { 'Idempotency-Key': key });

    // Assert: 503, and no outcome kept under the key (a replay would answer a failed job as 200).
    expect(res.status).toBe(503);
    expect(await deps.db('idempotency_keys').where({ eshop_id: eshopId, key })).toEqual([]);
    expect((await creditsRepository.getAccount(deps.db, eshopId)).reserved).toBe(0);
  });
});
