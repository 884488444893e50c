import {
  eventually,
  makeEshop,
  serveApp,
  startPrivateRedis,
  testConfig,
  type DisposableRedis,
  type ServedApp,
} from '@catalogue/testing';
import { createApp } from '../src/app';
import { buildDeps, closeDeps, type Deps } from '../src/deps';
import { client, type Client } from './helpers';

/**
 * Readiness tells the truth about a Redis outage (a private Redis, killed then started again):
 * the pod still serves, so it stays in its Service (200, `degraded`, and a gauge says so), and
 * once Redis is back the rate limiter counts again at once, before any request has tried it.
 */
describe('catalogue-api readiness when Redis stops and comes back', () => {
  let redis: DisposableRedis;
  let deps: Deps;
  let server: ServedApp;
  let api: Client;

  const readyz = async () => {
    const res = await fetch(`${server.url}/readyz`);
    return {
      status: res.status,
      body: (await res.json()) as { status: string; checks: Record<string, string> },
    };
  };
  const metrics = async () => (await fetch(`${server.url}/metrics`)).text();

  beforeAll(async () => {
    redis = await startPrivateRedis();
    deps = buildDeps(testConfig({ REDIS_URL: redis.url }));
    server = await serveApp(createApp(deps), deps.logger);
    api = client(server.url, (await makeEshop(deps.db)).apiToken);
    await eventually(async () => expect((await readyz()).body.status).toBe('ready'));
  });

  afterAll(async () => {
    await server.stop();
    await closeDeps(deps);
    await redis.stop();
  });

  test('when Redis answers, then ready and readiness_degraded is 0', async () => {
    const { status, body } = await readyz();
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'ready',
      checks: { postgres: 'ok', redis: 'ok', rate_limiter: 'ok' },
    });
    expect(await metrics()).toContain('readiness_degraded{check="redis"} 0');
  });

  test('when Redis stops, then whoami and lists answer and /readyz stays 200 "degraded"', async () => {
    await redis.stop();

    expect((await api.get('/api/v2/rest/whoami')).status).toBe(200);
    expect((await api.get('/api/v2/rest/products')).status).toBe(200);
    await eventually(async () => {
      const { status, body } = await readyz();
      expect(status).toBe(200);
      expect(body.status).toBe('degraded');
      expect(body.checks).toMatchObject({
        postgres: 'ok',
        redis: 'unavailable',
        rate_limiter: 'failing_open',
      });
    });
    expect(await metrics()).toContain('readiness_degraded{check="redis"} 1');
    expect(await metrics()).toContain('rate_limiter_failing_open 1');
  });

  test('when Redis comes back, then the rate limiter is ok again at once, without a request', async () => {
    await redis.restart();
    const back = Date.now();

    // ioredis reconnects within its 2 s backoff; the limiter's state follows its connection.
    await eventually(async () => {
      const { status, body } = await readyz();
      expect(status).toBe(200);
      expect(body).toMatchObject({ status: 'ready', checks: { redis: 'ok', rate_limiter: 'ok' } });
    }, 5_000);
    expect(Date.now() - back).toBeLessThan(5_000);
    expect(await metrics()).toContain('rate_limiter_failing_open 0');
    expect(await metrics()).toContain('readiness_degraded{check="redis"} 0');
  });
});
