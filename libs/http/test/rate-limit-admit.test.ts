// RateLimits.admitToken on a private Redis: one script decides what the failure check and the
// token's count decided, and a Redis that does not answer fails both checks open. (The two-call
// fallback, for a cluster client whose queue prefix has no {hash tag}, runs the existing calls.)
import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import { createLogger } from '@catalogue/logger';
import { createRateLimitMetrics, createRateLimits, type RateLimits } from '@catalogue/http';
import { startPrivateRedis, testConfig, type DisposableRedis } from '@catalogue/testing';

const logger = createLogger({ service: 'test', level: 'silent' });

function limitsOn(redis: Redis, prefix: string) {
  const registry = new Registry();
  const config = testConfig({
    QUEUE_PREFIX: prefix,
    RATE_LIMIT_READ_PER_MINUTE: '3',
    RATE_LIMIT_AUTH_FAILURES: '2',
    RATE_LIMIT_AUTH_FAILURE_WINDOW_SECONDS: '600',
    RATE_LIMIT_REDIS_TIMEOUT_MS: '200',
  });
  return { limits: createRateLimits(redis, config, createRateLimitMetrics(registry), logger), registry };
}

/** Two failures of `blocked`, then reads of one token from `user` and from `blocked`. */
async function scenario(limits: RateLimits) {
  const summary = (a: Awaited<ReturnType<RateLimits['admitToken']>>) => ({
    blocked: a.blocked && [a.blocked.policy, a.blocked.allowed],
    counted: a.counted && [a.counted.policy, a.counted.remaining, a.counted.allowed],
  });
  const out = [];
  out.push(summary(await limits.admitToken('192.0.2.1', 'hash', 'read', null)));
  await limits.recordAuthFailure('192.0.2.9');
  await limits.recordAuthFailure('192.0.2.9');
  out.push(summary(await limits.admitToken('192.0.2.9', 'hash', 'read', null)));
  for (let i = 0; i < 3; i += 1)
    out.push(summary(await limits.admitToken('192.0.2.1', 'hash', 'read', null)));
  return out;
}

describe('rate limits: admitToken', () => {
  let server: DisposableRedis;
  let redis: Redis;

  beforeAll(async () => {
    server = await startPrivateRedis();
    redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
  });

  afterAll(async () => {
    redis.disconnect();
    await server.stop();
  });

  test('when a token is admitted, then one script answers what the failure check and the count answered: blocked addresses are refused uncounted, the budget runs out', async () => {
    const { limits } = limitsOn(redis, `one-${process.pid}`);
    await redis.config('RESETSTAT');
    const decisions = await scenario(limits);
    const stats = await redis.info('commandstats');

    expect(decisions).toEqual([
      { blocked: undefined, counted: ['read', 2, true] },
      { blocked: ['auth-failure', false], counted: undefined },
      { blocked: undefined, counted: ['read', 1, true] },
      { blocked: undefined, counted: ['read', 0, true] },
      { blocked: undefined, counted: ['read', 0, false] },
    ]);
    // With a budget of 3 a share is 1 point: 4 admissions took one script each, the last one found
    // the budget used up here and asked nothing; the 2 failures are the library's own script.
    const scripts = [...stats.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+),/gm)];
    expect(scripts.reduce((n, m) => n + Number(m[1]), 0)).toBe(6);
    expect(stats).not.toMatch(/^cmdstat_multi:/m);
  });

  test('when Redis does not answer, then both checks fail open and both are counted so', async () => {
    const { limits, registry } = limitsOn(redis, `down-${process.pid}`);
    await server.stop(); // afterAll's stop is then a no-op
    {
      const admitted = await limits.admitToken('192.0.2.1', 'hash', 'read', null);
      const metrics = await registry.metrics();

      expect(admitted).toEqual({ blocked: undefined, counted: undefined });
      expect(limits.state()).toBe('failing_open');
      expect(metrics).toMatch(
        /rate_limit_decisions_total\{policy="auth-failure",decision="failed_open"\} 1\n/,
      );
      expect(metrics).toMatch(/rate_limit_decisions_total\{policy="read",decision="failed_open"\} 1\n/);
    }
  });
});
