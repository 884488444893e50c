import { createKnex, pingDatabase, type Knex } from '@catalogue/db';
import { createRedis, pingRedis } from '@catalogue/queue';
import {
  freePort,
  startPrivateRedis,
  testConfig,
  eventually,
  type DisposableRedis,
} from '@catalogue/testing';
import type { Redis } from 'ioredis';
import { serve, type TestServer } from './helpers';

describe('/readyz', () => {
  let db: Knex;
  let privateRedis: DisposableRedis;
  let redis: Redis;
  let server: TestServer;

  beforeAll(async () => {
    db = createKnex(testConfig().database);
    privateRedis = await startPrivateRedis();
    // A short disconnect timeout: disconnecting from a dead server otherwise leaves a 2 s timer.
    redis = createRedis(privateRedis.url, 'readiness-test', { disconnectTimeout: 10 });
    redis.on('error', () => undefined);
    server = await serve([], {
      readiness: [
        { name: 'postgres', check: () => pingDatabase(db) },
        { name: 'redis', check: () => pingRedis(redis) },
      ],
    });
  });

  afterAll(async () => {
    await server.stop();
    redis.disconnect();
    await privateRedis.stop();
    await db.destroy();
  });

  test('when Postgres and Redis answer, then 200 with every check ok', async () => {
    await eventually(async () => expect((await fetch(`${server.url}/readyz`)).status).toBe(200));
    const res = await fetch(`${server.url}/readyz`);
    expect(await res.json()).toEqual({ status: 'ready', checks: { postgres: 'ok', redis: 'ok' } });
  });

  test('when Redis stops, then 503 naming redis, quickly', async () => {
    await privateRedis.stop();
    await eventually(async () => {
      const res = await fetch(`${server.url}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({
        status: 'not_ready',
        code: 'unavailable',
        checks: { postgres: 'ok', redis: 'unavailable' },
      });
    });
  });

  test('when Postgres cannot be reached, then 503 naming postgres', async () => {
    const port = await freePort();
    const deadDb = createKnex({
      ...testConfig().database,
      url: `postgres://postgres@127.0.0.1:${port}/none`,
      log: { warn: () => undefined, error: () => undefined },
    });
    const deadServer = await serve([], {
      readiness: [{ name: 'postgres', check: () => pingDatabase(deadDb) }],
    });
    try {
      const res = await fetch(`${deadServer.url}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({
        status: 'not_ready',
        code: 'unavailable',
        checks: { postgres: 'unavailable' },
      });
    } finally {
      await deadServer.stop();
      await deadDb.destroy();
    }
  });
});
