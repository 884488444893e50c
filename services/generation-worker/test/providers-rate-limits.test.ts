// The openai provider against a local OpenAI-compatible server (as a self-hosted model is
// served), with its limiter on the real Redis: a 429 with Retry-After (seconds or a date) or an
// exhausted x-ratelimit-remaining pauses every worker and the generation goes on without using
// up an attempt; requests per minute hold across two workers; tokens are weighed by estimate and
// corrected by the usage reported.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { eventually } from '@catalogue/testing';
import { createOpenAiProvider } from '../src/providers';
import { createProviderLimiter, parseDuration, rateLimitResetMs } from '../src/providers/limiter';
import type { OpenAiProviderOptions } from '../src/providers';
import { completion, options as fixtureOptions, request, SMALL_ANSWER } from './providers-fixtures';

/** The fixtures' options with a roomy time limit per attempt: these tests are about waits, not timeouts. */
const options = (overrides: Partial<OpenAiProviderOptions>) =>
  fixtureOptions({ timeoutMs: 20_000, ...overrides });

type Reply = { status: number; headers?: Record<string, string>; body: unknown };

/** A local chat-completions endpoint answering `script` in turn (the last one again and again). */
async function fakeEndpoint(script: (n: number) => Reply) {
  const arrivals: number[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url !== '/v1/chat/completions' || req.method !== 'POST' || !JSON.parse(body).model) {
        res.writeHead(404).end();
        return;
      }
      arrivals.push(Date.now());
      const reply = script(arrivals.length);
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    arrivals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const ok: Reply = { status: 200, body: completion(SMALL_ANSWER) };
const tooMany = (headers: Record<string, string>): Reply => ({
  status: 429,
  headers,
  body: {
    error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' },
  },
});

describe('openai provider: rate limits', () => {
  const redisA = new Redis('redis://127.0.0.1:6379', { lazyConnect: false });
  const redisB = new Redis('redis://127.0.0.1:6379', { lazyConnect: false });
  const prefix = `test-provider-limits-${process.pid}-${Date.now()}:`;
  let servers: { close: () => Promise<void> }[] = [];
  let n = 0;

  /** Two "worker processes": a limiter each, on its own Redis connection, sharing the prefix. */
  function workers(limits: { requestsPerMinute: number; tokensPerMinute: number; windowSeconds?: number }) {
    const endpoint = `endpoint-${++n}`;
    return [redisA, redisB].map((redis) => createProviderLimiter({ redis, prefix, endpoint, limits }));
  }

  async function endpoint(script: (n: number) => Reply) {
    const server = await fakeEndpoint(script);
    servers.push(server);
    return server;
  }

  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
  });

  afterAll(async () => {
    const keys = await redisA.keys(`${prefix}*`);
    if (keys.length) await redisA.del(...keys);
    redisA.disconnect();
    redisB.disconnect();
  });

  test('when the endpoint answers 429 with Retry-After in seconds, then the provider waits that long and the item is generated without using an attempt', async () => {
    const server = await endpoint((n) => (n === 1 ? tooMany({ 'retry-after': '1' }) : ok));
    const [limiter] = workers({ requestsPerMinute: 0, tokensPerMinute: 0 });
    const provider = createOpenAiProvider(options({ baseUrl: server.baseUrl, maxAttempts: 1, limiter }));

    const result = await provider.generate(request());

    expect(result.widgets.length).toBeGreaterThan(0);
    expect(server.arrivals).toHaveLength(2);
    expect(server.arrivals[1]! - server.arrivals[0]!).toBeGreaterThanOrEqual(950);
  });

  test('when Retry-After is an HTTP date, then the provider waits until then', async () => {
    const server = await endpoint((n) =>
      n === 1 ? tooMany({ 'retry-after': new Date(Date.now() + 2_000).toUTCString() }) : ok,
    );
    const provider = createOpenAiProvider(options({ baseUrl: server.baseUrl, maxAttempts: 1 }));

    await expect(provider.generate(request())).resolves.toMatchObject({ provider: 'openai' });
    expect(server.arrivals).toHaveLength(2);
    // The date has whole seconds: at least the part of the second left, up to two.
    expect(server.arrivals[1]! - server.arrivals[0]!).toBeGreaterThanOrEqual(900);
  });

  test('when one worker is told 429, then the other worker sends nothing until the pause is over', async () => {
    let refusedAt = 0;
    const server = await endpoint((n) => {
      if (n === 1) {
        refusedAt = Date.now();
        return tooMany({ 'x-ratelimit-reset-requests': '1.5s', 'x-ratelimit-remaining-requests': '0' });
      }
      return ok;
    });
    const [a, b] = workers({ requestsPerMinute: 0, tokensPerMinute: 0 });
    const first = createOpenAiProvider(options({ baseUrl: server.baseUrl, maxAttempts: 1, limiter: a }));
    const second = createOpenAiProvider(options({ baseUrl: server.baseUrl, maxAttempts: 1, limiter: b }));

    const pauseKey = `${prefix}provider:endpoint-${n}:pause`;
    const one = first.generate(request());
    // The second worker starts once the first has told every worker to pause.
    await eventually(async () => expect(await redisB.pttl(pauseKey)).toBeGreaterThan(0));
    await Promise.all([one, second.generate(request())]);

    expect(server.arrivals).toHaveLength(3);
    for (const at of server.arrivals.slice(1)) expect(at - refusedAt).toBeGreaterThanOrEqual(1_400);
  });

  test('when a 200 says a limit is used up (x-ratelimit-remaining 0), then the next request waits for its reset', async () => {
    const server = await endpoint((n) =>
      n === 1
        ? { ...ok, headers: { 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '800ms' } }
        : ok,
    );
    const [limiter] = workers({ requestsPerMinute: 0, tokensPerMinute: 0 });
    const provider = createOpenAiProvider(options({ baseUrl: server.baseUrl, limiter }));

    await provider.generate(request());
    await provider.generate(request());

    expect(server.arrivals[1]! - server.arrivals[0]!).toBeGreaterThanOrEqual(750);
  });

  test('when the pause asked for is longer than the generation may wait, then it fails with a clear reason instead of hanging', async () => {
    const server = await endpoint(() => tooMany({ 'retry-after': '30' }));
    const provider = createOpenAiProvider(
      options({
        baseUrl: server.baseUrl,
        limiter: workers({ requestsPerMinute: 0, tokensPerMinute: 0 })[0],
        maxRateLimitWaitMs: 500,
      }),
    );

    await expect(provider.generate(request())).rejects.toMatchObject({
      name: 'ProviderError',
      status: 429,
      retryable: false,
      message: expect.stringMatching(/^openai provider: rate limited: the next request may go in (29|30) s/),
    });
    expect(server.arrivals).toHaveLength(1);
  });

  test('when the 429 says the quota is used up, then no wait cures it and the item fails at once', async () => {
    const server = await endpoint(() => ({
      status: 429,
      body: {
        error: {
          message: 'You exceeded your current quota',
          type: 'insufficient_quota',
          code: 'insufficient_quota',
        },
      },
    }));
    const provider = createOpenAiProvider(options({ baseUrl: server.baseUrl, maxAttempts: 1 }));

    await expect(provider.generate(request())).rejects.toMatchObject({ status: 429 });
    expect(server.arrivals).toHaveLength(1);
  });

  test('when two workers share a limit of requests per window, then no window gets more than the limit and the requests spread over the windows', async () => {
    const server = await endpoint(() => ok);
    const limiters = workers({ requestsPerMinute: 2, tokensPerMinute: 0, windowSeconds: 1 });
    const providers = limiters.map((limiter) =>
      createOpenAiProvider(options({ baseUrl: server.baseUrl, limiter })),
    );

    await Promise.all(Array.from({ length: 6 }, (_, i) => providers[i % 2]!.generate(request())));

    const at = server.arrivals;
    expect(at).toHaveLength(6);
    // Fixed windows of 1 s holding 2 requests each: 6 requests take three windows, so the 5th
    // comes at least two windows after the 1st, and no second holds more than two windows' worth.
    expect(at[4]! - at[0]!).toBeGreaterThanOrEqual(1_900);
    for (const start of at)
      expect(at.filter((t) => t >= start && t < start + 1_000).length).toBeLessThanOrEqual(4);
  });

  test('when tokens are limited, then a request takes its estimate and the reported usage corrects it', async () => {
    const [a, b] = workers({ requestsPerMinute: 0, tokensPerMinute: 1_000, windowSeconds: 30 });
    const soon = { deadline: Date.now() + 200 };

    const first = await a!.acquire(600, soon);
    // 600 of 1,000 taken: another 600 does not fit in this window, on either worker.
    await expect(b!.acquire(600, { deadline: Date.now() + 200 })).rejects.toMatchObject({
      name: 'RateLimitWaitExceeded',
    });
    // The endpoint says the first used 150: 450 come back, and 600 fit now.
    await first.settle(150);
    const second = await b!.acquire(600, { deadline: Date.now() + 200 });
    // Refused by the endpoint (429): all 600 come back.
    await second.refund();
    const third = await a!.acquire(800, { deadline: Date.now() + 200 });
    await third.settle(null);
    // A request larger than the whole window counts as the window, so it can ever go (next window).
    await expect(b!.acquire(5_000, { deadline: Date.now() + 200 })).rejects.toMatchObject({
      name: 'RateLimitWaitExceeded',
    });
  });

  test('when Redis is unreachable, then each process keeps limiting and pausing on its own instead of hanging or sending unlimited', async () => {
    // A port nothing listens on: the client never becomes ready (and would queue commands forever).
    const down = new Redis('redis://127.0.0.1:1', { lazyConnect: true, maxRetriesPerRequest: null });
    try {
      const limiter = createProviderLimiter({
        redis: down,
        prefix,
        endpoint: 'unreachable',
        limits: { requestsPerMinute: 1, tokensPerMinute: 0, windowSeconds: 30 },
      });
      await limiter.acquire(10, { deadline: Date.now() + 200 });
      await expect(limiter.acquire(10, { deadline: Date.now() + 200 })).rejects.toMatchObject({
        name: 'RateLimitWaitExceeded',
      });

      const pausing = createProviderLimiter({
        redis: down,
        prefix,
        endpoint: 'unreachable-pause',
        limits: { requestsPerMinute: 0, tokensPerMinute: 0 },
      });
      await pausing.pause(5_000);
      await expect(pausing.acquire(10, { deadline: Date.now() + 200 })).rejects.toMatchObject({
        name: 'RateLimitWaitExceeded',
      });
    } finally {
      down.disconnect();
    }
  });

  test('when the signal aborts while a request waits out a pause, then the wait ends at once with an AbortError', async () => {
    const limiter = createProviderLimiter({
      prefix,
      endpoint: 'abort-during-pause',
      limits: { requestsPerMinute: 0, tokensPerMinute: 0 },
    });
    await limiter.pause(10_000);
    const controller = new AbortController();
    const started = Date.now();
    const waiting = limiter.acquire(10, { deadline: Date.now() + 60_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 50); // while the 10 s pause is waited out
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(5_000); // not the 10 s pause

    const aborted = AbortSignal.abort();
    await expect(
      limiter.acquire(10, { deadline: Date.now() + 60_000, signal: aborted }),
    ).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  test('when reset headers and durations are read, then the OpenAI forms are understood', () => {
    expect(['1s', '6m0s', '20ms', '1m30.5s', '1h2m', '2', '0.5', 'soon', ''].map(parseDuration)).toEqual([
      1_000,
      360_000,
      20,
      90_500,
      3_720_000,
      2_000,
      500,
      null,
      null,
    ]);
    const headers = new Headers({
      'x-ratelimit-remaining-requests': '5',
      'x-ratelimit-reset-requests': '2s',
      'x-ratelimit-remaining-tokens': '0',
      'x-ratelimit-reset-tokens': '700ms',
    });
    expect(rateLimitResetMs(headers, false)).toBe(700);
    expect(rateLimitResetMs(headers, true)).toBe(2_000);
    expect(rateLimitResetMs(new Headers(), true)).toBeNull();
  });
});
