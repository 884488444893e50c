// npm run bench:limits — what the Redis-backed rate limiter costs a request. In one run,
// interleaved: the catalogue API (compiled, its own process, real Postgres and Redis) serving
// GET /api/v2/rest/whoami with its limiter on (every request counted in Redis) and the same
// build with RATE_LIMIT_ENABLED=0 (the same handler without it). Then the limiter call alone:
// rate-limiter-flexible's consume() against the least any Redis-shared fixed window can do, one
// MULTI of INCR + PEXPIRE NX on the same Redis. See README.md and docs/benchmarks.md.
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import {
  benchEnv,
  Cleanup,
  createBenchDatabase,
  createBenchEshop,
  deleteKeys,
  freePort,
  measurePair,
  positive,
  REPO_ROOT,
  runBenchmark,
  startChild,
  imageNodeOptions,
  table,
  type BenchEnv,
  type ChildServer,
  type LoadSpec,
} from './harness';
import { figure, spread } from './results';

const SCENARIOS = ['whoami'] as const;
const log = (line: string) => process.stdout.write(`${line}\n`);
const fixed = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

async function startService(
  name: string,
  env: BenchEnv,
  databaseUrl: string,
  queuePrefix: string,
  rateLimited: boolean,
  cleanup: Cleanup,
): Promise<ChildServer> {
  const port = await freePort();
  return startChild({
    name,
    script: join(REPO_ROOT, 'services', 'catalogue-api', 'dist', 'main.js'),
    port,
    env: {
      DATABASE_URL: databaseUrl,
      REDIS_URL: env.redisUrl,
      QUEUE_PREFIX: queuePrefix,
      CATALOGUE_API_PORT: String(port),
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      NODE_OPTIONS: imageNodeOptions(),
      // On: every request is counted in Redis, with a budget the load never reaches (a 429
      // would fail the run). Off: the limiter is not called at all.
      RATE_LIMIT_ENABLED: rateLimited ? '1' : '0',
      RATE_LIMIT_READ_PER_MINUTE: '1000000',
    },
    cleanup,
  });
}

interface CallTiming {
  side: string;
  calls: number;
  perSecond: number;
  meanUs: number;
}

/** `calls` calls of `call`, `concurrency` at a time; the mean is wall time per call per lane. */
async function timeCalls(
  side: string,
  calls: number,
  concurrency: number,
  call: (n: number) => Promise<unknown>,
) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < calls) await call(next++);
    }),
  );
  const ms = performance.now() - started;
  return { side, calls, perSecond: (calls / ms) * 1000, meanUs: ((ms * 1000) / calls) * concurrency };
}

/**
 * The limiter call alone, against the least a Redis-shared fixed window needs (one round trip
 * that increments and sets the expiry): the library's own overhead, without HTTP around it.
 */
async function limiterAlone(env: BenchEnv, queuePrefix: string): Promise<CallTiming[]> {
  const redis = new Redis(env.redisUrl);
  try {
    const calls = Math.round(positive('BENCH_LIMITER_CALLS', 20_000));
    const keys = 50;
    const limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${queuePrefix}:rl:bench`,
      points: 1_000_000_000,
      duration: 60,
    });
    const bare = (n: number) =>
      redis
        .multi()
        .incr(`${queuePrefix}:bare:${n % keys}`)
        .pexpire(`${queuePrefix}:bare:${n % keys}`, 60_000, 'NX')
        .exec();
    const library = (n: number) => limiter.consume(`token-${n % keys}`);
    const results: CallTiming[] = [];
    // Warm-up, then alternating halves so that load from elsewhere hits both alike.
    await timeCalls('warm-up', 2_000, env.connections, library);
    await timeCalls('warm-up', 2_000, env.connections, bare);
    const halves: [CallTiming[], CallTiming[]] = [[], []];
    for (const order of [
      [0, 1],
      [1, 0],
    ]) {
      for (const side of order) {
        halves[side]!.push(
          await timeCalls(
            side === 0 ? 'rate-limiter-flexible consume()' : 'MULTI INCR + PEXPIRE NX',
            calls / 2,
            env.connections,
            side === 0 ? library : bare,
          ),
        );
      }
    }
    for (const runs of halves) {
      const total = runs.reduce((n, r) => n + r.calls, 0);
      const perSecond = total / runs.reduce((s, r) => s + r.calls / r.perSecond, 0);
      results.push({
        side: runs[0]!.side,
        calls: total,
        perSecond,
        meanUs: (1_000_000 / perSecond) * env.connections,
      });
    }
    return results;
  } finally {
    redis.disconnect();
  }
}

async function run(env: BenchEnv, cleanup: Cleanup): Promise<void> {
  const runId = `${process.pid}`;
  const queuePrefix = `catalogue-bench-limits-${runId}`;
  const { url, db } = await createBenchDatabase(env.databaseUrl, `catalogue_bench_limits_${runId}`, cleanup);
  cleanup.defer(
    `delete Redis keys ${queuePrefix}:*`,
    async () => void (await deleteKeys(env.redisUrl, queuePrefix)),
  );
  const eshop = await createBenchEshop(db, 'Bench limits');
  const limited = await startService('limited', env, url, queuePrefix, true, cleanup);
  const unlimited = await startService('unlimited', env, url, `${queuePrefix}-off`, false, cleanup);
  cleanup.defer(
    `delete Redis keys ${queuePrefix}-off:*`,
    async () => void (await deleteKeys(env.redisUrl, `${queuePrefix}-off`)),
  );

  const spec = (side: string, server: ChildServer): LoadSpec => ({
    scenario: 'whoami',
    side,
    server,
    next: () => ({
      method: 'GET',
      path: '/api/v2/rest/whoami',
      headers: { authorization: `Bearer ${eshop.token}` },
    }),
    itemsPerRequest: 1,
    check: (body) => body.includes(`"eshop_id":${eshop.id}`),
  });
  // The limiter must be in the measured path: its answer carries the RateLimit fields.
  const probe = await fetch(`${limited.url}/api/v2/rest/whoami`, {
    headers: { authorization: `Bearer ${eshop.token}` },
  });
  if (!probe.headers.get('ratelimit')) throw new Error('the limited side answered without RateLimit');

  const redis = new Redis(env.redisUrl);
  cleanup.defer('close Redis connection', async () => redis.disconnect());
  const load = loadavg().map((l) => l.toFixed(2));
  log(`whoami: ${env.warmup} s warm-up, then ${env.duration} s of each side in ${env.rounds} rounds…`);
  const [on, off] = await measurePair([spec('limiter on', limited), spec('limiter off', unlimited)], {
    ...env,
    db,
    redis,
  });
  log('limiter alone: rate-limiter-flexible against a bare Redis round trip…');
  const alone = await limiterAlone(env, queuePrefix);
  const loadAfter = loadavg().map((l) => l.toFixed(2));

  log('');
  log(
    `rate limiter benchmark: GET /api/v2/rest/whoami, ${env.connections} connections, ${env.duration} s ` +
      `per side (${env.rounds} interleaved rounds) after a ${env.warmup} s warm-up`,
  );
  log(
    `machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}; ` +
      `load average before ${load.join(' ')}, after ${loadAfter.join(' ')}`,
  );
  log('');
  log(
    table(
      ['side', 'req/s', 'p50 ms', 'p99 ms', 'cpu ms/req: node', 'pg', 'redis'],
      [on, off].map((m) => [
        m.side,
        fixed(m.reqPerSec, 1),
        fixed(m.p50),
        fixed(m.p99),
        ...(['node', 'pg', 'redis'] as const).map((k) =>
          m.cpuPerRequest ? fixed(m.cpuPerRequest[k], 2) : '–',
        ),
      ]),
    ),
  );
  log(`limiter on / off: ${fixed(on.reqPerSec / off.reqPerSec, 2)} of the throughput`);
  // No targets: what the limiter costs, per round (the rounds' ratios of items/s).
  figure({
    name: 'whoami, limiter on / limiter off, throughput',
    unit: 'ratio',
    ...spread(on.rounds.map((r, i) => r.itemsPerSec / off.rounds[i]!.itemsPerSec)),
  });
  log('');
  log(
    table(
      ['limiter call', 'calls', 'calls/s', 'µs per call'],
      alone.map((r) => [r.side, fixed(r.calls), fixed(r.perSecond), fixed(r.meanUs)]),
    ),
  );
  log(
    `rate-limiter-flexible / bare round trip: ${fixed(alone[0]!.perSecond / alone[1]!.perSecond, 2)} of the calls/s`,
  );
  figure({
    name: 'rate-limiter-flexible consume() / a bare MULTI INCR + PEXPIRE NX, calls/s',
    unit: 'ratio',
    ...spread([alone[0]!.perSecond / alone[1]!.perSecond]),
  });
}

runBenchmark('bench:limits', () => benchEnv(SCENARIOS), run);
