// npm run bench:auth — the auth path against the best equivalent handlers. In one run,
// interleaved in rounds: GET /api/v2/rest/whoami on the catalogue API (compiled, real Postgres
// and Redis, access log at `info`, the image's NODE_OPTIONS) with its rate limiter on (the
// default) and off, as modes of one process (service-modes-server.ts), against a bare Koa + pg handler with the service's token
// cache (same TTL, bound, no negative caching, emptied by the same notifications;
// auth-baseline.ts) answering the same bytes; the service with its log at `warn` (no access
// log), to price the access log; and the floor (auth-floor.ts): that handler plus the cheapest
// honest implementation of what every answer of the service carries (precomputed security
// headers, request id, access line by a template to an asynchronous destination, a cached
// histogram child, find-my-way over the same routes, errors caught in the same frame), checked
// before measuring to answer the service's body and header fields and values. Those two are
// processes of their own; the three processes are started afresh for each of BENCH_PROCESSES
// sets of rounds (measureModes). Targets, each the median of the per-round ratios (min and max printed and recorded):
// limiter off ≥ 0.9 of the floor and ≥ 0.5 of the bare handler; limiter on ≥ 0.4 of the bare
// handler and at most 30 µs of Node CPU per request over limiter off; the access log ≤ 10 % of
// the throughput. `--check` fails below any; `--record` keeps the figures
// (docs/benchmarks/auth.json). The eshop has three languages, site links and rich snippets, and
// products imported through the service. See README.md and docs/benchmarks.md.
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { adminService } from '@catalogue/admin';
import { loadConfig } from '@catalogue/config';
import type { Knex } from '@catalogue/db';
import { createRateLimitMetrics, createRateLimits, rateLimitHeaders } from '@catalogue/http';
import { createLogger } from '@catalogue/logger';
import { Registry } from 'prom-client';
import {
  benchEnv,
  catalogueApiEnv,
  Cleanup,
  cpuProfileArgs,
  createBenchDatabase,
  deleteKeys,
  freePort,
  measureModes,
  positive,
  runBenchmark,
  spread,
  verdict,
  startChild,
  startModesServer,
  table,
  type BenchEnv,
  type ChildServer,
  type LoadSpec,
  type Measurement,
  imageNodeOptions,
  baselineNodeArgs,
  baselineSettings,
} from './harness';
import { TOKEN_SQL } from './auth-baseline';
import { LANGUAGES, productId, productItem } from './fixtures';
import { figure } from './results';

const SCENARIOS = ['whoami'] as const;
/** The service with its limiter off against the floor and against the bare handler. */
const TARGET_OFF_FLOOR = 0.9;
const TARGET_OFF_BARE = 0.5;
/** The service with its limiter on against the bare handler. */
const TARGET_ON_BARE = 0.4;
/** What the limiter may add to a request's Node CPU, in µs (limiter on − limiter off, per round). */
const LIMITER_MAX_US = 30;
/** The access log's share of the throughput. */
const LOG_COST_LIMIT = 0.1;
/** Products imported for the eshop before measuring (three languages, through the service). */
const PRODUCTS = 200;
/** Rounds per set of processes, sets and measured seconds per side, unless BENCH_* say otherwise. */
const DEFAULT_ROUNDS = 8;
const DEFAULT_PROCESSES = 6;
const DEFAULT_DURATION = 72;
const log = (line: string) => process.stdout.write(`${line}\n`);
const fixed = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The service's modes (service-modes-server.ts): its rate limiter and log level. */
interface ServiceMode {
  limiter: 'on' | 'off';
  log: 'info' | 'warn';
}

/**
 * The sides, in the order of the figures: the service's are modes of one process, the bare
 * handler and the floor processes of their own, started afresh for every set of rounds.
 */
const SIDES: { name: string; service?: ServiceMode; floor?: true }[] = [
  { name: 'service, limiter on', service: { limiter: 'on', log: 'info' } },
  { name: 'service, limiter off', service: { limiter: 'off', log: 'info' } },
  { name: 'Koa + pg, cached' },
  { name: 'service, limiter on, log warn', service: { limiter: 'on', log: 'warn' } },
  { name: 'Koa + pg, cached, with the required features', floor: true },
];

/** The bare handler or the floor (`script`), a process of its own. */
function startSide(
  name: string,
  script: string,
  env: BenchEnv,
  databaseUrl: string,
  cleanup: Cleanup,
): Promise<ChildServer> {
  return freePort().then((port) =>
    startChild({
      name,
      script: join(__dirname, script),
      port,
      env: {
        NODE_ENV: 'production',
        NODE_OPTIONS: imageNodeOptions(),
        DATABASE_URL: databaseUrl,
        PORT: String(port),
      },
      nodeArgs: [...baselineNodeArgs(imageNodeOptions()), ...cpuProfileArgs(env.cpuProfDir, name)],
      cleanup,
    }),
  );
}

/** The service of another built checkout (BENCH_AUTH_BEFORE), its limiter on or off. */
async function startBefore(
  name: string,
  env: BenchEnv,
  databaseUrl: string,
  queuePrefix: string,
  rateLimited: boolean,
  root: string,
  cleanup: Cleanup,
): Promise<ChildServer> {
  const port = await freePort();
  return startChild({
    name,
    script: join(root, 'services', 'catalogue-api', 'dist', 'main.js'),
    port,
    env: {
      ...catalogueApiEnv({ databaseUrl, redisUrl: env.redisUrl, queuePrefix, port }),
      RATE_LIMIT_ENABLED: rateLimited ? '1' : '0',
    },
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

/** An eshop in three languages with site links and rich snippets on, and its API token. */
async function createEshop(db: Knex): Promise<{ id: number; token: string }> {
  const created = await adminService(db).createEshop({
    name: 'Bench auth',
    languages: [...LANGUAGES],
    origins: [],
    credits: 0,
    enableSiteLink: true,
    enableRichSnippet: true,
    reviewRequired: false,
    licenceValidUntil: null,
  });
  return { id: created.eshop.id, token: created.apiToken };
}

/** The eshop's products, imported through the service as a shop would. */
async function importProducts(server: ChildServer, token: string): Promise<void> {
  for (let first = 0; first < PRODUCTS; first += 100) {
    const items = Array.from({ length: 100 }, (_, i) => productItem(productId('A', first + i + 1)));
    const res = await fetch(`${server.url}/api/v2/rest/products`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(items),
    });
    if (res.status !== 200) throw new Error(`importing the products: ${res.status} ${await res.text()}`);
  }
}

/** The header fields an answer must share with the service's (the date and the request id vary). */
const VARYING = new Set(['date', 'x-request-id']);
const headerText = (answer: Response): string =>
  [...answer.headers]
    .map(([name, value]) => (VARYING.has(name) ? name : `${name}: ${value}`))
    .sort()
    .join('\n  ');

/**
 * Before a set of processes is measured: every side answers the same body; the limiter is in the
 * path of the sides in `limited`, and only there; the floor answers what the service answers
 * without its limiter — the same header fields with the same values.
 */
async function checkAnswers(
  sides: LoadSpec[],
  limited: ReadonlySet<number>,
  setMode: (mode: number) => Promise<void>,
  body: string,
  token: string,
): Promise<void> {
  const headers: string[] = [];
  for (const [mode, side] of sides.entries()) {
    await setMode(mode);
    const answer = await fetch(`${side.server.url}/api/v2/rest/whoami`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const text = await answer.text();
    if (text !== body) throw new Error(`${side.side} answered ${answer.status} ${text}, not ${body}`);
    if (answer.headers.has('ratelimit') !== limited.has(mode)) {
      throw new Error(`${side.side}: RateLimit header ${limited.has(mode) ? 'missing' : 'present'}`);
    }
    headers.push(headerText(answer));
  }
  const [service, floor] = [
    SIDES.findIndex((s) => s.service?.limiter === 'off'),
    SIDES.findIndex((s) => s.floor),
  ];
  if (headers[floor] !== headers[service]) {
    throw new Error(
      `the floor's headers are not the service's:\n  floor:\n  ${headers[floor]}\n  service:\n  ${headers[service]}`,
    );
  }
}

/**
 * The limiter alone, in this process, on the run's Redis: Node CPU µs per admission of a cached
 * token with its RateLimit fields (what the service's limiter-on side adds per request), in
 * `rounds` rounds of `calls` calls. Steadier than the sides' difference on a busy machine.
 */
async function limiterInProcess(
  redisUrl: string,
  queuePrefix: string,
  rounds: number,
  calls = 20_000,
): Promise<number[]> {
  const redis = new Redis(redisUrl);
  try {
    await redis.ping();
    const config = loadConfig({
      DATABASE_URL: 'postgres://127.0.0.1/unused',
      QUEUE_PREFIX: queuePrefix,
      RATE_LIMIT_READ_PER_MINUTE: '1000000',
    });
    const limits = createRateLimits(
      redis,
      config,
      createRateLimitMetrics(new Registry()),
      createLogger({ service: 'bench', level: 'silent' }),
    );
    const headers = new Map<string, string>();
    const perCall: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const started = process.cpuUsage();
      for (let i = 0; i < calls; i++) {
        const { counted } = await limits.admitToken('127.0.0.1', 'bench-token', 'read', null);
        if (!counted?.allowed) throw new Error('the in-process limiter refused or failed open');
        for (const [name, value] of Object.entries(rateLimitHeaders(counted))) headers.set(name, value);
      }
      const used = process.cpuUsage(started);
      perCall.push((used.user + used.system) / calls);
    }
    return perCall;
  } finally {
    redis.disconnect();
  }
}

async function run(env: BenchEnv, cleanup: Cleanup): Promise<void> {
  const rounds = env.rounds;
  const runId = `${process.pid}`;
  const queuePrefix = `catalogue-bench-auth-${runId}`;
  const { url, db } = await createBenchDatabase(env.databaseUrl, `catalogue_bench_auth_${runId}`, cleanup);
  const prefixes = [
    queuePrefix,
    `${queuePrefix}-before`,
    `${queuePrefix}-before-off`,
    `${queuePrefix}-in-process`,
  ];
  for (const prefix of prefixes) {
    cleanup.defer(`delete Redis keys ${prefix}:*`, async () => void (await deleteKeys(env.redisUrl, prefix)));
  }
  const eshop = await createEshop(db);
  await checkTokenSql(url, eshop.token);
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
  // BENCH_AUTH_BEFORE: another built checkout of the project (the code before a change), whose
  // service runs as two more sides, limiter on and off, for the change's before and after.
  const beforeRoot = process.env.BENCH_AUTH_BEFORE || undefined;
  const processes = Math.round(positive('BENCH_PROCESSES', DEFAULT_PROCESSES));
  let imported = false;

  const redis = new Redis(env.redisUrl);
  cleanup.defer('close Redis connection', async () => redis.disconnect());
  const load = loadavg().map((l) => l.toFixed(2));
  log(
    `whoami: ${SIDES.length + (beforeRoot ? 2 : 0)} sides in each of ${processes} sets of processes, ` +
      `${env.warmup} s warm-up each, then ${env.duration} s of each side in ${rounds} rounds per set…`,
  );
  const [on, off, base, unlogged, floored, ...beforeSides] = (await measureModes(
    async (index) => {
      // The limiter stays in the path with a budget the load never reaches (a 429 fails the run);
      // off, it is not called at all, as with RATE_LIMIT_ENABLED=0. The access log goes to a pipe
      // the harness drains, as it would to a container's stdout.
      const service = await startModesServer({
        name: `catalogue-api-${index}`,
        databaseUrl: url,
        redisUrl: env.redisUrl,
        queuePrefix,
        cpuProfDir: env.cpuProfDir,
        cleanup,
      });
      const baseline = await startSide(`baseline-${index}`, 'auth-baseline.js', env, url, cleanup);
      const floor = await startSide(`floor-${index}`, 'auth-floor.js', env, url, cleanup);
      const before = beforeRoot
        ? {
            on: await startBefore(
              `before-${index}`,
              env,
              url,
              `${queuePrefix}-before`,
              true,
              beforeRoot,
              cleanup,
            ),
            off: await startBefore(
              `before-off-${index}`,
              env,
              url,
              `${queuePrefix}-before-off`,
              false,
              beforeRoot,
              cleanup,
            ),
          }
        : undefined;
      const sides = SIDES.map((side) =>
        spec(side.name, side.service ? service.server : side.floor ? floor : baseline),
      );
      const limited = new Set(SIDES.flatMap((side, mode) => (side.service?.limiter === 'on' ? [mode] : [])));
      if (before) {
        sides.push(spec('before: limiter on', before.on), spec('before: limiter off', before.off));
        limited.add(SIDES.length);
      }
      const setMode = async (mode: number) => {
        const side = SIDES[mode];
        if (side?.service) await service.setMode({ ...side.service });
      };
      if (!imported) {
        await importProducts(service.server, eshop.token);
        imported = true;
      }
      await checkAnswers(sides, limited, setMode, body, eshop.token);
      return {
        spec: (mode) => sides[mode]!,
        setMode,
        async stop() {
          for (const server of [
            service.server,
            baseline,
            floor,
            ...(before ? [before.on, before.off] : []),
          ]) {
            await server.stop();
          }
        },
      };
    },
    SIDES.length + (beforeRoot ? 2 : 0),
    { ...env, rounds, db, redis, processes },
  )) as [Measurement, Measurement, Measurement, Measurement, Measurement, ...Measurement[]];
  const limiterCalls = spread(await limiterInProcess(env.redisUrl, `${queuePrefix}-in-process`, rounds));
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
  /** Over the rounds that could be measured (a round whose CPU could not be read is left out). */
  const measured = (values: number[]) => spread(values.filter(Number.isFinite));
  /** The inverse ratio of Node CPU per request, round by round: a's throughput at equal CPU over b's. */
  const perRoundCpu = (a: Measurement, b: Measurement) =>
    measured(
      a.rounds.map((r, i) =>
        r.cpuNode && b.rounds[i]?.cpuNode ? b.rounds[i]!.cpuNode! / r.cpuNode : Number.NaN,
      ),
    );
  /** a / b round by round: the median decides. */
  const perRound = (a: Measurement, b: Measurement) =>
    measured(a.rounds.map((r, i) => r.itemsPerSec / b.rounds[i]!.itemsPerSec));
  const offFloor = perRound(off, floored);
  const offRatio = perRound(off, base);
  const onRatio = perRound(on, base);
  const logShare = perRound(on, unlogged);
  const logCost = { min: 1 - logShare.max, median: 1 - logShare.median, max: 1 - logShare.min };
  const onFloor = perRound(on, floored);
  const floorBase = perRound(floored, base);
  // The limiter's price: Node CPU per request with it on minus with it off, round by round.
  const limiterUs = measured(
    on.rounds.map((r, i) =>
      r.cpuNode !== undefined && off.rounds[i]?.cpuNode !== undefined
        ? (r.cpuNode - off.rounds[i]!.cpuNode!) * 1000
        : Number.NaN,
    ),
  );
  log('');
  log(
    `auth benchmark: GET /api/v2/rest/whoami, ${env.connections} connections, ${env.duration} s per side ` +
      `(${rounds} rounds in each of ${processes} sets of processes; the service's sides are modes of one process) ` +
      `after a ${env.warmup} s warm-up; the service: NODE_OPTIONS ${imageNodeOptions()} and its heap flags; ` +
      `the handler and the floor: ${baselineSettings()}`,
  );
  log(
    `machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}; ` +
      `load average before ${load.join(' ')}, after ${loadAfter.join(' ')}`,
  );
  log('');
  log(
    table(
      ['side', 'req/s', 'per round', 'p50 ms', 'p99 ms', 'cpu ms/req: node', 'pg', 'redis'],
      rows([on, off, base, unlogged, floored, ...beforeSides]),
    ),
  );
  log('');
  type Spread = { min: number; median: number; max: number };
  /** A figure for the record and its row in the report; `atLeast` false: the target is a ceiling. */
  const row = (name: string, r: Spread, unit: string, target?: number, atLeast = true, digits = 2) => {
    const met = target === undefined ? undefined : atLeast ? r.median >= target : r.median <= target;
    const targetText =
      target === undefined
        ? undefined
        : `${atLeast ? '>=' : '<='} ${target}${unit === 'ratio' ? '' : ` ${unit}`}`;
    figure({ name, unit, ...r, ...(targetText ? { target: targetText, met } : {}) });
    return [
      name,
      fixed(r.median, digits),
      fixed(r.min, digits),
      fixed(r.max, digits),
      targetText ?? '–',
      met === undefined ? 'info' : verdict(name, met, atLeast ? 'BELOW' : 'ABOVE'),
    ];
  };
  log(
    table(
      ['whoami (median of rounds)', 'median', 'min', 'max', 'target', 'result'],
      [
        row('whoami, limiter off / floor', offFloor, 'ratio', TARGET_OFF_FLOOR),
        row('whoami, limiter off / Koa + pg', offRatio, 'ratio', TARGET_OFF_BARE),
        row('whoami, limiter on / Koa + pg', onRatio, 'ratio', TARGET_ON_BARE),
        row('whoami, limiter Node CPU per request', limiterUs, 'µs', LIMITER_MAX_US, false, 1),
        row(
          'whoami, limiter in process (admission + RateLimit fields)',
          limiterCalls,
          'µs',
          LIMITER_MAX_US,
          false,
          1,
        ),
        row('whoami, access log cost (1 − info/warn)', logCost, 'ratio', LOG_COST_LIMIT, false),
        // Without a target: what the features cost a bare handler, and the limiter to the floor.
        row('whoami, limiter on / floor', onFloor, 'ratio'),
        row('whoami, floor / Koa + pg', floorBase, 'ratio'),
        // The same comparisons by Node CPU per request (b's over a's, round by round): on a
        // machine busier than its cores the req/s ratios follow the scheduler, CPU less so.
        row('whoami, by CPU: limiter off / floor', perRoundCpu(off, floored), 'ratio'),
        row('whoami, by CPU: limiter off / Koa + pg', perRoundCpu(off, base), 'ratio'),
        row('whoami, by CPU: limiter on / Koa + pg', perRoundCpu(on, base), 'ratio'),
        // The change measured: this build against BENCH_AUTH_BEFORE's, side by side.
        ...(beforeSides.length === 2
          ? [
              row('whoami, limiter on, after / before', perRound(on, beforeSides[0]!), 'ratio'),
              row('whoami, limiter off, after / before', perRound(off, beforeSides[1]!), 'ratio'),
              row('whoami, by CPU: limiter on, after / before', perRoundCpu(on, beforeSides[0]!), 'ratio'),
              row('whoami, by CPU: limiter off, after / before', perRoundCpu(off, beforeSides[1]!), 'ratio'),
              row('whoami, before: limiter off / floor', perRound(beforeSides[1]!, floored), 'ratio'),
              row('whoami, before: limiter on / Koa + pg', perRound(beforeSides[0]!, base), 'ratio'),
            ]
          : []),
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
      `(at equal CPU the targets need at most ${fixed(1 / TARGET_OFF_BARE, 2)} and ${fixed(1 / TARGET_ON_BARE, 2)})`,
  );
  log(
    `Node CPU per request, service / floor: limiter off ${cpuRatio(off, floored)}, limiter on ${cpuRatio(on, floored)}; ` +
      `floor / Koa + pg ${cpuRatio(floored)}`,
  );
  if (beforeSides.length === 2) {
    log(
      `Node CPU per request, before / Koa + pg: limiter off ${cpuRatio(beforeSides[1]!)}, limiter on ${cpuRatio(beforeSides[0]!)}; ` +
        `after / before: limiter off ${cpuRatio(off, beforeSides[1]!)}, limiter on ${cpuRatio(on, beforeSides[0]!)}`,
    );
  }
  const busiest = Math.max(...[...load, ...loadAfter].map(Number));
  if (busiest > cpus().length) {
    log(
      `load average up to ${fixed(busiest, 1)} on ${cpus().length} cores: autocannon shares them with other work, ` +
        'so the req/s ratios measure the scheduler as much as the service (docs/benchmarks.md, bench:auth)',
    );
  }
}

runBenchmark(
  'bench:auth',
  () => benchEnv(SCENARIOS, { duration: DEFAULT_DURATION, rounds: DEFAULT_ROUNDS, warmup: 5 }),
  run,
);
