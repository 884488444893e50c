// Rate limits on the real Redis: budgets per token and per address, shared by every replica,
// the IETF RateLimit fields, 429 with Retry-After, and failing open when Redis is gone.
import { adminService } from '@catalogue/admin';
import {
  contractCaller,
  eventually,
  makeEshop,
  serveApp,
  startPrivateRedis,
  testConfig,
  type ServedApp,
} from '@catalogue/testing';
import { Redis } from 'ioredis';
import { createApp } from '../src/app';
import { buildDeps, closeDeps, type Deps } from '../src/deps';

/** Small budgets, on a key prefix of this file's own. */
const LIMITS = {
  RATE_LIMIT_READ_PER_MINUTE: '5',
  RATE_LIMIT_WRITE_PER_MINUTE: '2',
  RATE_LIMIT_GENERATE_PER_MINUTE: '1',
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: '3',
  RATE_LIMIT_AUTH_FAILURES: '3',
  RATE_LIMIT_AUTH_FAILURE_WINDOW_SECONDS: '600',
  // The test client is the proxy here: its X-Forwarded-For names the client address.
  TRUSTED_PROXIES: '127.0.0.1, ::1',
};

interface Instance {
  deps: Deps;
  server: ServedApp;
}

async function start(overrides: Record<string, string>): Promise<Instance> {
  const deps = buildDeps(testConfig({ ...LIMITS, ...overrides }));
  return { deps, server: await serveApp(createApp(deps), deps.logger) };
}

async function stop(instance: Instance): Promise<void> {
  await instance.server.stop();
  await closeDeps(instance.deps);
}

let addressCounter = 0;
/** A client address of its own per test (the app trusts the loopback proxy's X-Forwarded-For). */
const nextAddress = () => `198.51.100.${(process.pid + ++addressCounter) % 250}`;

/**
 * The caller of the API replica at `url`, with no credentials of its own: each request names its
 * token and address in its headers. Every answer, 429s included, is checked against docs/openapi.yaml.
 */
const callAt = (url: string) => contractCaller({ baseUrl: url });

/** GET `path` of the replica at `url` with `headers`. */
const get = <P extends string>(url: string, path: P, headers: Record<string, string>) =>
  callAt(url)('GET', path, undefined, { headers });

describe('catalogue-api: rate limits', () => {
  const prefix = `${testConfig().redis.queuePrefix}-rl-${process.pid}`;
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    // Two replicas of the API on one Redis: one budget.
    a = await start({ QUEUE_PREFIX: prefix });
    b = await start({ QUEUE_PREFIX: prefix });
  });

  afterAll(async () => {
    await stop(a);
    await stop(b);
  });

  test('when a token bursts over its read budget, then 429 with Retry-After and the RateLimit fields; another token is not affected', async () => {
    // Arrange
    const shop = await makeEshop(a.deps.db);
    const other = await makeEshop(a.deps.db);
    const auth = { Authorization: `Bearer ${shop.apiToken}` };

    // Act
    const answers = [];
    for (let i = 0; i < 6; i += 1) answers.push(await get(a.server.url, '/api/v2/rest/whoami', auth));

    // Assert
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(answers[0]!.headers.get('ratelimit-policy')).toBe('"read";q=5;w=60');
    expect(answers[0]!.headers.get('ratelimit')).toMatch(/^"read";r=4;t=([1-9]|[1-5]\d|60)$/);
    expect(answers[4]!.headers.get('ratelimit')).toMatch(/^"read";r=0;t=\d+$/);
    const refused = answers[5]!;
    expect(refused.body).toEqual({
      error: expect.stringMatching(/^Too many requests; retry after \d+ seconds\.$/),
      code: 'rate_limited',
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit')).toBe(`"read";r=0;t=${retryAfter}`);
    const unaffected = await get(a.server.url, '/api/v2/rest/whoami', {
      Authorization: `Bearer ${other.apiToken}`,
    });
    expect(unaffected.status).toBe(200);
  });

  test('when two API processes serve one token, then they share its budget', async () => {
    const shop = await makeEshop(a.deps.db);
    const auth = { Authorization: `Bearer ${shop.apiToken}` };

    const statuses = [];
    for (let i = 0; i < 6; i += 1) {
      statuses.push((await get((i % 2 === 0 ? a : b).server.url, '/api/v2/rest/whoami', auth)).status);
    }

    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  test('when writes are over their budget, then reads of the same token still pass (separate budgets)', async () => {
    const shop = await makeEshop(a.deps.db);
    const headers = { Authorization: `Bearer ${shop.apiToken}`, 'Content-Type': 'application/json' };
    const post = () => callAt(a.server.url)('POST', '/api/v2/rest/brands', [], { headers });

    const writes = [(await post()).status, (await post()).status];
    const third = await post();
    const read = await get(a.server.url, '/api/v2/rest/whoami', headers);

    expect(writes).toEqual([200, 200]);
    expect(third.status).toBe(429);
    expect(third.headers.get('ratelimit-policy')).toBe('"write";q=2;w=60');
    expect(read.status).toBe(200);
  });

  test('when an operator sets the eshop a rate limit, then its tokens get that read budget and writes scale with it', async () => {
    const shop = await makeEshop(a.deps.db);
    await adminService(a.deps.db).updateEshop(shop.eshop.id, { rateLimitPerMinute: 10 });
    const auth = { Authorization: `Bearer ${shop.apiToken}` };

    const first = await get(a.server.url, '/api/v2/rest/whoami', auth);
    const write = await callAt(a.server.url)('POST', '/api/v2/rest/brands', '[]', {
      headers: { ...auth, 'Content-Type': 'application/json' },
    });

    expect(first.headers.get('ratelimit-policy')).toBe('"read";q=10;w=60');
    // Default write budget 2 for 5 reads: 10 reads give 4 writes.
    expect(write.headers.get('ratelimit-policy')).toBe('"write";q=4;w=60');
  });

  test('when an address keeps sending unknown tokens, then it is refused with 429 after its failure budget, even with a valid token; other addresses are not', async () => {
    const shop = await makeEshop(a.deps.db);
    const guesser = nextAddress();
    const guess = (token: string) =>
      get(b.server.url, '/api/v2/rest/whoami', {
        Authorization: `Bearer ${token}`,
        'X-Forwarded-For': guesser,
      });

    const failures = [];
    for (let i = 0; i < 3; i += 1) failures.push(await guess(`cat_guess_${i}`));
    const blockedGuess = await guess('cat_guess_4');
    const blockedValid = await guess(shop.apiToken);
    const elsewhere = await get(b.server.url, '/api/v2/rest/whoami', {
      Authorization: `Bearer ${shop.apiToken}`,
      'X-Forwarded-For': nextAddress(),
    });

    expect(failures.map((r) => [r.status, r.body.code])).toEqual([
      [401, 'token_invalid'],
      [401, 'token_invalid'],
      [401, 'token_invalid'],
    ]);
    expect(blockedGuess.status).toBe(429);
    expect(blockedGuess.headers.get('ratelimit-policy')).toBe('"auth-failure";q=3;w=600');
    expect(blockedValid.status).toBe(429);
    expect(elsewhere.status).toBe(200);
  });

  test('when an address sends requests without a token, then they count against its anonymous budget', async () => {
    const address = nextAddress();
    const statuses = [];
    for (let i = 0; i < 4; i += 1) {
      statuses.push((await get(a.server.url, '/api/v2/rest/whoami', { 'X-Forwarded-For': address })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});

describe('catalogue-api: per-address limits without a trusted proxy (TRUSTED_PROXIES empty)', () => {
  let direct: Instance;
  beforeAll(async () => {
    // No proxy is trusted: the test client connects as 127.0.0.1 and its headers are its own.
    direct = await start({
      TRUSTED_PROXIES: '',
      QUEUE_PREFIX: `${testConfig().redis.queuePrefix}-rl-direct-${process.pid}`,
    });
  });
  afterAll(() => stop(direct));

  test('when a client rotates X-Forwarded-For while guessing tokens, then the guesses count against its real address and it is locked out; the victim it names is not', async () => {
    // Arrange
    const shop = await makeEshop(direct.deps.db);
    const victim = nextAddress();
    const guess = (token: string, i: number) =>
      get(direct.server.url, '/api/v2/rest/whoami', {
        Authorization: `Bearer ${token}`,
        'X-Forwarded-For': i % 2 === 0 ? nextAddress() : victim,
      });

    // Act: 3 failures (the budget) from 3 claimed addresses, then a 4th guess and a valid token.
    const failures = [];
    for (let i = 0; i < 3; i += 1) failures.push(await guess(`cat_guess_${i}`, i));
    const blocked = await guess('cat_guess_3', 3);
    const blockedValid = await guess(shop.apiToken, 4);

    // Assert: the lockout follows the connection, whatever the header says.
    expect(failures.map((r) => r.status)).toEqual([401, 401, 401]);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('ratelimit-policy')).toBe('"auth-failure";q=3;w=600');
    expect(blockedValid.status).toBe(429);
    // The named victim has no failure of its own: on a replica that trusts the loopback proxy
    // (and so reads the header) it is not locked out. The budgets live in Redis under the
    // prefix, so ask a trusting instance on the same prefix.
    const trusting = await start({
      TRUSTED_PROXIES: '127.0.0.1, ::1',
      QUEUE_PREFIX: `${testConfig().redis.queuePrefix}-rl-direct-${process.pid}`,
    });
    try {
      const asVictim = await get(trusting.server.url, '/api/v2/rest/whoami', {
        Authorization: `Bearer ${shop.apiToken}`,
        'X-Forwarded-For': victim,
      });
      expect(asVictim.status).toBe(200);
    } finally {
      await stop(trusting);
    }
  });
});

describe('catalogue-api: a cached token costs one Redis round trip', () => {
  test('when a token the auth cache knows is used, then the failure check and the count are one command, and a blocked address is refused without using the token budget', async () => {
    // Arrange: the API alone on a private Redis (its command statistics are this test's).
    const redis = await startPrivateRedis();
    const instance = await start({ REDIS_URL: redis.url, RATE_LIMIT_READ_PER_MINUTE: '20' });
    const stats = new Redis(redis.url);
    try {
      await eventually(() => expect(instance.deps.authCache.active()).toBe(true));
      const shop = await makeEshop(instance.deps.db);
      const [user, guesser] = [nextAddress(), `203.0.113.${process.pid % 250}`];
      const call = (token: string, address: string) =>
        get(instance.server.url, '/api/v2/rest/whoami', {
          Authorization: `Bearer ${token}`,
          'X-Forwarded-For': address,
        });
      const remaining = (answer: { headers: Headers }) =>
        Number(/^"read";r=(\d+);t=\d+$/.exec(answer.headers.get('ratelimit') ?? '')?.[1]);
      expect((await call(shop.apiToken, user)).status).toBe(200); // read from the database, cached

      // Act: a request of the cached token, alone on the Redis. The notifications of the eshop's
      // creation may still empty the cache once: then that request read the database (it sent
      // a MULTI for the failure check) and the next one is measured.
      let cached = await call(shop.apiToken, user);
      let commands = '';
      for (let attempt = 0; attempt < 5; attempt += 1) {
        await stats.config('RESETSTAT');
        cached = await call(shop.apiToken, user);
        commands = await stats.info('commandstats');
        if (!/^cmdstat_multi:/m.test(commands)) break;
      }
      const guesses = [];
      for (let i = 0; i < 3; i += 1) guesses.push((await call(`cat_guess_${i}`, guesser)).status);
      const blocked = await call(shop.apiToken, guesser);
      const next = await call(shop.apiToken, user);
      const metrics = (await callAt(instance.server.url)('GET', '/metrics')).body;

      // Assert: one script sent (commandstats also lists the commands run inside it), no
      // MULTI/EXEC (the failure check used to be a MULTI GET PTTL EXEC of its own).
      expect(cached.status).toBe(200);
      const scripts = [...commands.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+),/gm)];
      expect(scripts.reduce((n, m) => n + Number(m[1]), 0)).toBe(1);
      expect(commands).not.toMatch(/^cmdstat_(multi|exec):/m);
      expect(guesses).toEqual([401, 401, 401]);
      expect(blocked.status).toBe(429);
      expect(blocked.headers.get('ratelimit-policy')).toBe('"auth-failure";q=3;w=600');
      // The blocked request did not count against the token.
      expect(next.status).toBe(200);
      expect(remaining(next)).toBe(remaining(cached) - 1);
      expect(metrics).toMatch(/rate_limit_decisions_total\{policy="auth-failure",decision="limited"\} 1\n/);
    } finally {
      stats.disconnect();
      await stop(instance);
      await redis.stop();
    }
  });
});

describe('catalogue-api: rate limits when Redis is gone', () => {
  test('when the limiter Redis dies, then requests pass unlimited, the metric and the readiness detail say so', async () => {
    // Arrange: the API on a private Redis, with a budget of one read per minute.
    const redis = await startPrivateRedis();
    const instance = await start({ REDIS_URL: redis.url, RATE_LIMIT_READ_PER_MINUTE: '1' });
    try {
      const shop = await makeEshop(instance.deps.db);
      const auth = { Authorization: `Bearer ${shop.apiToken}` };
      const limited = [
        (await get(instance.server.url, '/api/v2/rest/whoami', auth)).status,
        (await get(instance.server.url, '/api/v2/rest/whoami', auth)).status,
      ];
      expect(limited).toEqual([200, 429]);

      // Act
      await redis.stop();
      const during = [];
      for (let i = 0; i < 3; i += 1) during.push(await get(instance.server.url, '/api/v2/rest/whoami', auth));
      const metrics = (await callAt(instance.server.url)('GET', '/metrics')).body;
      const ready = (await callAt(instance.server.url)('GET', '/readyz')).body;

      // Assert
      expect(during.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(during[0]!.headers.get('ratelimit')).toBeNull();
      expect(metrics).toContain('rate_limiter_failing_open 1');
      expect(metrics).toMatch(/rate_limit_decisions_total\{policy="read",decision="failed_open"\} 3/);
      expect(ready.checks.rate_limiter).toBe('failing_open');
    } finally {
      await stop(instance);
      await redis.stop();
    }
  });
});
