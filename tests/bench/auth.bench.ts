// npm run bench:auth — the auth path against the best equivalent handler. In one run,
// interleaved in rounds: GET /api/v2/rest/whoami on the catalogue API (compiled, its own
// process, real Postgres and Redis, access log at `info`) with its rate limiter on (the
// default) and off, against a bare Koa + pg handler with the service's token cache (same TTL,
// bound, no negative caching, emptied by the same notifications; auth-baseline.ts) answering the
// same bytes; the service with its log at `warn` (no access log), to price the access log; and
// the floor (auth-floor.ts): that handler plus the cheapest implementation of what every answer
// of the service carries (security headers, request id, access line, metric, routing, error
// middleware), answering the same header fields.
// Targets (issue 33): ≥ 0.8 of the baseline with the limiter off, ≥ 0.6 with it on, each the
// median of the per-round ratios; the access log ≤ 10 % of the throughput. The ratios to the
// floor are reported without a target (docs/decisions.md, "The auth path against its floor").
// See README.md and docs/benchmarks.md.
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import {
  benchEnv,
  Cleanup,
  cpuProfileArgs,
  createBenchDatabase,
  createBenchEshop,
  deleteKeys,
  freePort,
  measureSides,
  REPO_ROOT,
  runBenchmark,
  spread,
  verdict,
  startChild,
  table,
  type BenchEnv,
  type ChildServer,
  type LoadSpec,
  type Measurement,
} from './harness';
import { TOKEN_SQL } from './auth-baseline';

const SCENARIOS = ['whoami'] as const;
/** The goals of issue 33 (the service's share of the cached baseline) and issue 19 (the access log's price). */
const TARGET_LIMITER_OFF = 0.8;
const TARGET_LIMITER_ON = 0.6;
const LOG_COST_LIMIT = 0.1;
/** Rounds when BENCH_ROUNDS is not set: a median needs three. */
const DEFAULT_ROUNDS = 3;
const log = (line: string) => process.stdout.write(`${line}\n`);
const fixed = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

async function startService(
  name: string,
  env: BenchEnv,
  databaseUrl: string,
  queuePrefix: string,
  opts: { logLevel: 'info' | 'warn'; rateLimited: boolean },
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
      LOG_LEVEL: opts.logLevel,
      NODE_ENV: 'production',
      // On: the limiter stays in the path with a budget the load never reaches (a 429 fails the
      // run). Off: RATE_LIMIT_ENABLED=0, the limiter is not called at all.
      RATE_LIMIT_ENABLED: opts.rateLimited ? '1' : '0',
      RATE_LIMIT_READ_PER_MINUTE: '1000000',
    },
    // The access log goes to a pipe the harness drains, as it would to a container's stdout.
    nodeArgs: cpuProfileArgs(env.cpuProfDir, name),
    cleanup,
  });
}

/** The baseline's token SQL must be what the service runs (knex's text for the repository). */
async function checkTokenSql(databaseUrl: string, token: string): Promise<void> {
  const { createKnex, hashToken, tokensRepository } = await import('@catalogue/db');
  const db = createKnex({ url: databaseUrl, poolMin: 0, poolMax: 1, statementTimeoutMs: 5_000 });
  const seen: string[] = [];
  db.on('query', (q: { sql: string }) => seen.push(q.sql));
  try {
    await tokensRepository.findEshopByTokenHash(db, 'api', hashToken(token));
  } finally {
    await db.destroy();
  }
  if (seen[0] !== TOKEN_SQL) {
    throw new Error(
      `tests/bench/auth-baseline.ts is out of date with tokensRepository; it now runs:\n${seen[0]}`,
    );
  }
}

async function run(env: BenchEnv, cleanup: Cleanup): Promise<void> {
  const rounds = process.env.BENCH_ROUNDS ? env.rounds : DEFAULT_ROUNDS;
  const runId = `${process.pid}`;
  const queuePrefix = `catalogue-bench-auth-${runId}`;
  const { url, db } = await createBenchDatabase(env.databaseUrl, `catalogue_bench_auth_${runId}`, cleanup);
  const prefixes = [queuePrefix, `${queuePrefix}-off`, `${queuePrefix}-warn`];
  for (const prefix of prefixes) {
    cleanup.defer(`delete Redis keys ${prefix}:*`, async () => void (await deleteKeys(env.redisUrl, prefix)));
  }
  const eshop = await createBenchEshop(db, 'Bench auth');
  await checkTokenSql(url, eshop.token);
  const limiterOn = await startService(
    'catalogue-api',
    env,
    url,
    prefixes[0]!,
    { logLevel: 'info', rateLimited: true },
    cleanup,
  );
  const limiterOff = await startService(
    'catalogue-api-no-limiter',
    env,
    url,
    prefixes[1]!,
    { logLevel: 'info', rateLimited: false },
    cleanup,
  );
  const quiet = await startService(
    'catalogue-api-warn',
    env,
    url,
    prefixes[2]!,
    { logLevel: 'warn', rateLimited: true },
    cleanup,
  );
  const basePort = await freePort();
  const baseline = await startChild({
    name: 'baseline',
    script: join(__dirname, 'auth-baseline.js'),
    port: basePort,
    env: { DATABASE_URL: url, PORT: String(basePort), NODE_ENV: 'production' },
    nodeArgs: cpuProfileArgs(env.cpuProfDir, 'baseline'),
    cleanup,
  });

  const floorPort = await freePort();
  const floor = await startChild({
    name: 'floor',
    script: join(__dirname, 'auth-floor.js'),
    port: floorPort,
    env: { DATABASE_URL: url, PORT: String(floorPort), NODE_ENV: 'production' },
    nodeArgs: cpuProfileArgs(env.cpuProfDir, 'floor'),
    cleanup,
  });

  const body = `{"data":{"eshop_id":${eshop.id}}}`;
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
    check: (answer) => answer === body,
  });
  const headerNames = new Map<ChildServer, string>();
  for (const server of [limiterOn, limiterOff, quiet, baseline, floor]) {
    const answer = await fetch(`${server.url}/api/v2/rest/whoami`, {
      headers: { authorization: `Bearer ${eshop.token}` },
    });
    const text = await answer.text();
    if (text !== body) throw new Error(`${server.name} answered ${answer.status} ${text}, not ${body}`);
    // The limiter must be in the path of the side that says so, and only there.
    const counted = answer.headers.has('ratelimit');
    if (counted !== (server !== limiterOff && server !== baseline && server !== floor)) {
      throw new Error(`${server.name}: RateLimit header ${counted ? 'present' : 'missing'}`);
    }
    headerNames.set(server, [...answer.headers.keys()].sort().join(', '));
  }
  // The floor answers what the service answers without its limiter: the same header fields.
  if (headerNames.get(floor) !== headerNames.get(limiterOff)) {
    throw new Error(
      `the floor's headers are not the service's:\n  floor:   ${headerNames.get(floor)}\n` +
        `  service: ${headerNames.get(limiterOff)}`,
    );
  }

  const redis = new Redis(env.redisUrl);
  cleanup.defer('close Redis connection', async () => redis.disconnect());
  const load = loadavg().map((l) => l.toFixed(2));
  log(
    `whoami: 5 sides, ${env.warmup} s warm-up each, then ${env.duration} s of each side in ${rounds} interleaved rounds…`,
  );
  const [on, off, base, unlogged, floored] = (await measureSides(
    [
      spec('service, limiter on', limiterOn),
      spec('service, limiter off', limiterOff),
      spec('Koa + pg, cached', baseline),
      spec('service, limiter on, log warn', quiet),
      spec('Koa + pg, cached, with the required features', floor),
    ],
    { ...env, rounds, db, redis },
  )) as [Measurement, Measurement, Measurement, Measurement, Measurement];
  const loadAfter = loadavg().map((l) => l.toFixed(2));

  const rows = (ms: Measurement[]) =>
    ms.map((m) => [
      m.side,
      fixed(m.reqPerSec, 1),
      m.rounds.map((r) => fixed(r.itemsPerSec)).join(' '),
      fixed(m.p50),
      fixed(m.p99),
      ...(['node', 'pg', 'redis'] as const).map((k) =>
        m.cpuPerRequest ? fixed(m.cpuPerRequest[k], 3) : '–',
      ),
    ]);
  /** a / b round by round: the median decides, min and max show the spread. */
  const perRound = (a: Measurement, b: Measurement) =>
    spread(a.rounds.map((r, i) => r.itemsPerSec / b.rounds[i]!.itemsPerSec));
  const offRatio = perRound(off, base);
  const onRatio = perRound(on, base);
  const logShare = perRound(on, unlogged);
  const logCost = { min: 1 - logShare.max, median: 1 - logShare.median, max: 1 - logShare.min };
  const offFloor = perRound(off, floored);
  const onFloor = perRound(on, floored);
  const floorBase = perRound(floored, base);
  log('');
  log(
    `auth benchmark: GET /api/v2/rest/whoami, ${env.connections} connections, ${env.duration} s per side ` +
      `(${rounds} interleaved rounds) after a ${env.warmup} s warm-up`,
  );
  log(
    `machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}; ` +
      `load average before ${load.join(' ')}, after ${loadAfter.join(' ')}`,
  );
  log('');
  log(
    table(
      ['side', 'req/s', 'per round', 'p50 ms', 'p99 ms', 'cpu ms/req: node', 'pg', 'redis'],
      rows([on, off, base, unlogged, floored]),
    ),
  );
  log('');
  const ratioRow = (
    name: string,
    r: { min: number; median: number; max: number },
    target: string,
    ok: string,
  ) => [name, fixed(r.median, 2), fixed(r.min, 2), fixed(r.max, 2), target, ok];
  log(
    table(
      ['ratio (median of rounds)', 'median', 'min', 'max', 'target', 'result'],
      [
        ratioRow(
          'limiter off / Koa + pg',
          offRatio,
          `≥ ${TARGET_LIMITER_OFF}`,
          verdict('whoami limiter off / Koa + pg', offRatio.median >= TARGET_LIMITER_OFF),
        ),
        ratioRow(
          'limiter on / Koa + pg',
          onRatio,
          `≥ ${TARGET_LIMITER_ON}`,
          verdict('whoami limiter on / Koa + pg', onRatio.median >= TARGET_LIMITER_ON),
        ),
        ratioRow(
          'access log cost (1 − info/warn)',
          logCost,
          `≤ ${LOG_COST_LIMIT}`,
          verdict('access log cost', logCost.median <= LOG_COST_LIMIT, 'ABOVE'),
        ),
        // The floor's lines carry no target: they say how far the service is from what its
        // features cost at least, and what those features cost a bare handler.
        ratioRow('limiter off / floor', offFloor, '–', 'info'),
        ratioRow('limiter on / floor', onFloor, '–', 'info'),
        ratioRow('floor / Koa + pg', floorBase, '–', 'info'),
      ],
    ),
  );
  // The targets are throughput ratios with the service, not the client, as the bottleneck: then
  // throughput goes as the inverse of CPU per request, which a loaded machine changes less.
  const cpuRatio = (a: Measurement, b: Measurement = base) =>
    a.cpuPerRequest && b.cpuPerRequest ? fixed(a.cpuPerRequest.node / b.cpuPerRequest.node, 2) : '–';
  log('');
  log(
    `Node CPU per request, service / Koa + pg: limiter off ${cpuRatio(off)}, limiter on ${cpuRatio(on)} ` +
      `(at equal CPU the targets need at most ${fixed(1 / TARGET_LIMITER_OFF, 2)} and ${fixed(1 / TARGET_LIMITER_ON, 2)})`,
  );
  log(
    `Node CPU per request, service / floor: limiter off ${cpuRatio(off, floored)}, limiter on ${cpuRatio(on, floored)}; ` +
      `floor / Koa + pg ${cpuRatio(floored)}`,
  );
  const busiest = Math.max(...[...load, ...loadAfter].map(Number));
  if (busiest > cpus().length) {
    log(
      `load average up to ${fixed(busiest, 1)} on ${cpus().length} cores: autocannon shares them with other work, ` +
        'so the req/s ratios measure the scheduler as much as the service (docs/benchmarks.md, bench:auth)',
    );
  }
}

runBenchmark('bench:auth', () => benchEnv(SCENARIOS), run);
