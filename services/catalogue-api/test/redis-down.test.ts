import {
  makeEshop,
  serveApp,
  startPrivateRedis,
  testConfig,
  type DisposableRedis,
  type ServedApp,
} from '@catalogue/testing';
import { ENQUEUE_TIMEOUT_MS } from '@catalogue/queue';
import { createApp } from '../src/app';
import { buildDeps, closeDeps, type Deps } from '../src/deps';
import { client, type Client } from './helpers';

/**
 * Redis unreachable while clients import (a private Redis, killed): the data is committed and
 * the answer comes after a bounded wait, as docs/decisions/0004-catalogue-api-v1-v2-imports.md promises — 200 for an import, 201
 * for a listing upload — instead of waiting for the whole outage. The sweeper queues the work.
 */
/**
 * The answer comes after the bounded wait for Redis (ENQUEUE_TIMEOUT_MS), not after the outage:
 * Redis stays down for the whole test, and before the bound the answer took 70 s. The limit is
 * generous because a busy CI machine stretches the wait (8.6 s seen); it still tells the bound
 * from the outage.
 */
const ANSWERED_WITHIN_MS = ENQUEUE_TIMEOUT_MS * 4;
const TEST_TIMEOUT_MS = ANSWERED_WITHIN_MS + 15_000;

/** The response and how long it took. */
async function timed<T>(call: () => Promise<T>): Promise<{ res: T; ms: number }> {
  const started = Date.now();
  const res = await call();
  return { res, ms: Date.now() - started };
}

describe('catalogue-api when Redis is down', () => {
  let redis: DisposableRedis;
  let deps: Deps;
  let server: ServedApp;
  let api: Client;
  let eshopId: number;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    deps = buildDeps(testConfig({ REDIS_URL: redis.url }));
    server = await serveApp(createApp(deps), deps.logger);
    const eshop = await makeEshop(deps.db);
    eshopId = eshop.eshop.id;
    api = client(server.url, eshop.apiToken);
    await redis.stop();
  });

  afterAll(async () => {
    await server.stop();
    await closeDeps(deps);
    await redis.stop();
  });

  test(
    'when products are imported, then 200 and the items are stored waiting in generate',
    async () => {
      const { res, ms } = await timed(() =>
        api.post('/api/v2/rest/products', [
          { id: 'DOWN-1', name: { default: 'Desk lamp' }, url: { default: 'https://shop.test/lamp' } },
        ]),
      );

      expect(res.status).toBe(200);
      expect(ms).toBeLessThan(ANSWERED_WITHIN_MS);
      expect(res.body).toMatchObject({ success: true, imported: 1 });
      const row = await deps
        .db('products')
        .where({ eshop_id: eshopId, external_id: 'DOWN-1' })
        .first('status');
      expect(row).toEqual({ status: 'generate' });
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'when a listing is uploaded, then 201 and its rows are stored pending',
    async () => {
      const { res, ms } = await timed(() =>
        api.post('/api/v2/rest/listing', [{ code: 'DOWN-L1', name: 'Desk lamp' }]),
      );

      expect(res.status).toBe(201);
      expect(ms).toBeLessThan(ANSWERED_WITHIN_MS);
      const rows = await deps.db('listing_rows').where({ eshop_id: eshopId }).select('status');
      expect(rows).toEqual([{ status: 'pending' }]);
    },
    TEST_TIMEOUT_MS,
  );
});
