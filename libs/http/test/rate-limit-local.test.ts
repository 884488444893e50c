// The token budgets' local allowance (admitScript): two processes' limiters sharing one Redis,
// each reserving a share of a token's budget (LOCAL_SHARE) and deciding from it without asking
// Redis. The shared budget is never exceeded; what the other process holds reserved and unused
// (at most one share) is refused early; the address's failure check reaches a process at most
// BLOCK_CHECK_MS late, and at once in the process that recorded the failure.
import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import { createLogger } from '@catalogue/logger';
import { createRateLimitMetrics, createRateLimits, type RateLimits } from '@catalogue/http';
import { startPrivateRedis, testConfig, type DisposableRedis } from '@catalogue/testing';
import { BLOCK_CHECK_MS, LOCAL_SHARE } from '../src/rate-limit/limiters';

const logger = createLogger({ service: 'test', level: 'silent' });
const BUDGET = 1_000;
const SHARE = Math.floor(BUDGET * LOCAL_SHARE);

/** A process's limiter: its own Redis connection, the shared prefix. */
function processLimits(url: string, prefix: string): { limits: RateLimits; redis: Redis } {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  const config = testConfig({
    QUEUE_PREFIX: prefix,
    RATE_LIMIT_READ_PER_MINUTE: String(BUDGET),
    RATE_LIMIT_AUTH_FAILURES: '2',
    RATE_LIMIT_AUTH_FAILURE_WINDOW_SECONDS: '600',
    RATE_LIMIT_REDIS_TIMEOUT_MS: '2000',
  });
  return { limits: createRateLimits(redis, config, createRateLimitMetrics(new Registry()), logger), redis };
}

const scriptCalls = (stats: string): number =>
  [...stats.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+),/gm)].reduce((n, m) => n + Number(m[1]), 0);

describe('rate limits: a local allowance of the token budgets', () => {
  let server: DisposableRedis;
  let stats: Redis;
  const opened: Redis[] = [];
  let run = 0;
  /** Two processes' limiters on one prefix, connected (a connection not ready yet fails open). */
  const twoProcesses = async () => {
    run += 1;
    const prefix = `local-${process.pid}-${run}`;
    const a = processLimits(server.url, prefix);
    const b = processLimits(server.url, prefix);
    opened.push(a.redis, b.redis);
    await Promise.all([a.redis.ping(), b.redis.ping()]);
    return [a.limits, b.limits, a.redis] as const;
  };

  beforeAll(async () => {
    server = await startPrivateRedis();
    stats = new Redis(server.url);
  });

  afterEach(() => jest.restoreAllMocks());

  afterAll(async () => {
    for (const redis of opened) redis.disconnect();
    stats.disconnect();
    await server.stop();
  });

  test('when two processes admit one token concurrently past its budget, then no more than the budget is admitted, and neither refuses before all but one share is used', async () => {
    const [a, b] = await twoProcesses();
    const admitted: boolean[] = [];
    // Bursts of concurrent requests, alternating between the processes, half again the budget.
    for (let burst = 0; burst < 30; burst += 1) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          ((burst + i) % 2 ? a : b).admitToken('192.0.2.1', 'hash', 'read', null),
        ),
      );
      for (const answer of answers) admitted.push(answer.counted!.allowed);
    }

    expect(admitted.filter(Boolean)).toHaveLength(BUDGET);
    // The first refusal came after all but at most one share (the other process's) was admitted.
    expect(admitted.indexOf(false)).toBeGreaterThanOrEqual(BUDGET - SHARE);
  });

  test('when a process admits a token many times, then it asks Redis about once a share, and the RateLimit fields count down as one process sees them', async () => {
    const [a] = await twoProcesses();
    // One moment for the whole test: the address's check does not expire in between.
    jest.spyOn(Date, 'now').mockReturnValue(Date.now());
    await stats.config('RESETSTAT');
    const remaining: number[] = [];
    for (let i = 0; i < 5 * SHARE; i += 1) {
      remaining.push((await a.admitToken('192.0.2.2', 'hash', 'read', null)).counted!.remaining);
    }
    const calls = scriptCalls(await stats.info('commandstats'));

    expect(remaining).toEqual(Array.from({ length: 5 * SHARE }, (_, i) => BUDGET - 1 - i));
    // One reservation per share, the address's check with it.
    expect(calls).toBe(5);
  });

  test('when an address used up its failures on one process, then that process refuses its tokens at once and the other within BLOCK_CHECK_MS, without using the token budget', async () => {
    const [a, b] = await twoProcesses();
    const address = '192.0.2.3';
    expect((await b.admitToken(address, 'hash', 'read', null)).counted!.allowed).toBe(true);
    expect((await a.admitToken(address, 'hash', 'read', null)).counted!.allowed).toBe(true);

    await a.recordAuthFailure(address);
    await a.recordAuthFailure(address);
    const here = await a.admitToken(address, 'hash', 'read', null);
    const thereAtOnce = await b.admitToken(address, 'hash', 'read', null);
    const later = Date.now() + BLOCK_CHECK_MS + 1;
    jest.spyOn(Date, 'now').mockReturnValue(later);
    const thereLater = await b.admitToken(address, 'hash', 'read', null);
    const user = await b.admitToken('192.0.2.4', 'hash', 'read', null);

    expect(here.blocked).toMatchObject({ policy: 'auth-failure', allowed: false });
    expect(here.counted).toBeUndefined();
    // The stated delay: the other process had found the address clear less than BLOCK_CHECK_MS ago.
    expect(thereAtOnce.counted!.allowed).toBe(true);
    expect(thereLater.blocked).toMatchObject({ policy: 'auth-failure', allowed: false });
    // 3 admitted before, the refusals used none of the budget.
    expect(user.counted).toMatchObject({ allowed: true });
    expect(await stats.get(`local-${process.pid}-${run}:rl:read:hash`)).toBe(String(2 * SHARE));
  });

  test('when a budget is used up, then further requests are refused in the process until the window ends, with what is left of it', async () => {
    const [a] = await twoProcesses();
    jest.spyOn(Date, 'now').mockReturnValue(Date.now());
    const answers = [];
    for (let i = 0; i < BUDGET + 3; i += 1)
      answers.push(await a.admitToken('192.0.2.5', 'hash', 'read', null));
    await stats.config('RESETSTAT');
    const refused = await a.admitToken('192.0.2.5', 'hash', 'read', null);

    expect(answers.filter((x) => x.counted!.allowed)).toHaveLength(BUDGET);
    expect(refused.counted).toMatchObject({ allowed: false, remaining: 0, policy: 'read', limit: BUDGET });
    expect(refused.counted!.resetSeconds).toBeGreaterThan(0);
    expect(refused.counted!.resetSeconds).toBeLessThanOrEqual(60);
    expect(scriptCalls(await stats.info('commandstats'))).toBe(0);
  });

  test('when Redis is gone, then a process with a share left still fails open, as without the allowance', async () => {
    const [a, , connection] = await twoProcesses();
    expect((await a.admitToken('192.0.2.6', 'hash', 'read', null)).counted!.allowed).toBe(true);
    const lost = new Promise((resolve) => connection.once('close', resolve));
    await stats.client('KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
    await lost;
    const admitted = await a.admitToken('192.0.2.6', 'hash', 'read', null);

    expect(admitted).toEqual({ blocked: undefined, counted: undefined });
    expect(a.state()).toBe('failing_open');
  });
});
