// npm run bench:tracing — what tracing costs on the hot paths: bench:auth's whoami and
// bench:catalogue's list (a page of 100 products with six parameters, every language, nested,
// marketplace, variants, site links and rich snippets), on the catalogue API with tracing off, off again (the control: what two untraced
// processes differ by), 10 % and 100 % of new traces kept. Every round starts a new process for
// each side and measures them one at a time (measureFreshSides): a process's own speed, which
// stays with it for its life, then spreads over the rounds instead of passing for tracing's
// cost; the target is on the median of the rounds' ratios of Node CPU per request. Tracing on
// exports over OTLP to a collector stand-in in this process that accepts and drops the spans,
// with the chart's sampler (parentbased_traceidratio, 10 %) and, to show the ceiling, every trace
// kept (parentbased_always_on). See README.md and docs/benchmarks.md.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { contentInsert, productId, productItem } from './fixtures';
import { figure } from './results';
import {
  benchEnv,
  Cleanup,
  cpuProfileArgs,
  createBenchDatabase,
  createBenchEshop,
  deleteKeys,
  freePort,
  measureFreshSides,
  REPO_ROOT,
  runBenchmark,
  spread,
  startChild,
  table,
  verdict,
  type BenchEnv,
  type ChildServer,
  type LoadSpec,
  type Measurement,
  imageNodeOptions,
  importParameters,
  REALISTIC,
} from './harness';

const SCENARIOS = ['whoami', 'list'] as const;
/**
 * Tracing with the chart's sampling (10 %) adds at most 5 % to the Node CPU a request costs
 * (the median of the rounds' ratios); `--check` fails above it.
 */
const LIMIT = 0.05;
const PRODUCTS = 2_000;
const BATCH = 100;
const PAGES = PRODUCTS / BATCH;
const LIST_QUERY = 'per_page=100&lang=all&include=nested,marketplace,variant';
const log = (line: string) => process.stdout.write(`${line}\n`);
const fixed = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** A collector stand-in: answers every OTLP export at once and counts the bytes. */
async function startSink(cleanup: Cleanup): Promise<{ url: string; bytes: () => number }> {
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => res.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.defer(
    'stop the collector stand-in',
    () => new Promise<void>((resolve) => server.close(() => resolve())),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bytes: () => bytes };
}

async function startService(
  name: string,
  env: BenchEnv,
  databaseUrl: string,
  queuePrefix: string,
  tracing: Record<string, string>,
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
      RATE_LIMIT_READ_PER_MINUTE: '1000000',
      RATE_LIMIT_WRITE_PER_MINUTE: '1000000',
      NODE_OPTIONS: imageNodeOptions(),
      ...tracing,
    },
    nodeArgs: cpuProfileArgs(env.cpuProfDir, name.replace(/\W+/g, '-')),
    cleanup,
  });
}

async function run(env: BenchEnv, cleanup: Cleanup): Promise<void> {
  const runId = `${process.pid}`;
  const queuePrefix = `catalogue-bench-tracing-${runId}`;
  const { url, db } = await createBenchDatabase(env.databaseUrl, `catalogue_bench_tracing_${runId}`, cleanup);
  cleanup.defer(
    `delete Redis keys ${queuePrefix}*`,
    async () => void (await deleteKeys(env.redisUrl, queuePrefix)),
  );
  const eshop = await createBenchEshop(db, 'Bench tracing', ['default', 'cs', 'en'], REALISTIC);
  const sink = await startSink(cleanup);
  const otlp = { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url };
  /** The sides, each a new process in every round (see measureFreshSides). */
  const sides: Array<[side: string, tracing: Record<string, string>]> = [
    ['tracing off', {}],
    ['tracing off, control', {}],
    [
      'tracing 10 %',
      { ...otlp, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' },
    ],
    ['tracing 100 %', { ...otlp, OTEL_TRACES_SAMPLER: 'parentbased_always_on' }],
  ];

  // The list's products, imported through the endpoint, then made listable as bench:catalogue does.
  // Through a process of its own, stopped before measuring: a side that had served the imports
  // answered whoami 28 % slower than a new process.
  const bearer = { authorization: `Bearer ${eshop.token}` };
  const seeder = await startService('seeding', env, url, `${queuePrefix}-seed`, {}, cleanup);
  await importParameters(seeder.url, eshop.token);
  for (let page = 0; page < PAGES; page++) {
    const items = Array.from({ length: BATCH }, (_, i) =>
      productItem(productId('P', page * BATCH + i + 1), 0, true),
    );
    const res = await fetch(`${seeder.url}/api/v2/rest/products`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify(items),
    });
    if (res.status !== 200) throw new Error(`seeding: ${res.status} ${await res.text()}`);
  }
  await seeder.stop();
  await db('products').update({ status: 'ready', is_loaded: true });
  const { sql, bindings } = contentInsert();
  await db.raw(sql, bindings);
  await db.raw('vacuum analyze products, product_variants, content');

  const whoamiBody = `{"data":{"eshop_id":${eshop.id}}}`;
  const spec = (scenario: (typeof SCENARIOS)[number], side: string, server: ChildServer): LoadSpec => {
    let n = 0;
    return scenario === 'whoami'
      ? {
          scenario,
          side,
          server,
          next: (): autocannon.Request => ({ method: 'GET', path: '/api/v2/rest/whoami', headers: bearer }),
          itemsPerRequest: 1,
          check: (answer) => answer === whoamiBody,
        }
      : {
          scenario,
          side,
          server,
          next: (): autocannon.Request => ({
            method: 'GET',
            path: `/api/v2/rest/products?${LIST_QUERY}&page=${(n++ % PAGES) + 1}`,
            headers: bearer,
          }),
          itemsPerRequest: BATCH,
        };
  };

  const redis = new Redis(env.redisUrl);
  cleanup.defer('close Redis connection', async () => redis.disconnect());
  const load = loadavg().map((l) => l.toFixed(2));
  const pairs: Array<{ scenario: string; off: Measurement; on: Measurement; sampling: string }> = [];
  for (const scenario of SCENARIOS.filter((s) => env.scenarios.has(s))) {
    log(
      `${scenario}: tracing off (twice), 10 % and 100 %, new processes in each of ${env.rounds} rounds, ${env.warmup} s warm-up each, then ${env.duration} s in all per side…`,
    );
    const [offSide, controlSide, sampledSide, allSide] = await measureFreshSides(
      async (round) => {
        const servers = await Promise.all(
          sides.map(([side, tracing], i) =>
            startService(
              `${side} ${scenario} ${round + 1}`,
              env,
              url,
              `${queuePrefix}-${i}`,
              tracing,
              cleanup,
            ),
          ),
        );
        return {
          specs: servers.map((server, i) => spec(scenario, sides[i]![0], server)),
          stop: () => Promise.all(servers.map((server) => server.stop())).then(() => undefined),
        };
      },
      { ...env, db, redis },
    );
    pairs.push({ scenario, off: offSide!, on: controlSide!, sampling: 'off, control' });
    pairs.push({ scenario, off: offSide!, on: sampledSide!, sampling: '10 %' });
    pairs.push({ scenario, off: offSide!, on: allSide!, sampling: '100 %' });
  }
  const loadAfter = loadavg().map((l) => l.toFixed(2));

  log('');
  log(
    `tracing benchmark: ${env.connections} connections, each side alone for ${env.duration / env.rounds} s in each of ${env.rounds} rounds ` +
      `of new processes, after a ${env.warmup} s warm-up of each; OTLP/HTTP export to a local collector stand-in (${fixed(sink.bytes() / 1024)} KiB received)`,
  );
  log(
    `machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}; ` +
      `load average before ${load.join(' ')}, after ${loadAfter.join(' ')}`,
  );
  log('');
  log(
    table(
      ['scenario', 'side', 'req/s', 'p50 ms', 'p99 ms', 'cpu ms/req: node'],
      pairs.flatMap(({ scenario, off: a, on: b }, i) =>
        (pairs.findIndex((p) => p.scenario === scenario) === i ? [a, b] : [b]).map((m) => [
          scenario,
          m.side,
          fixed(m.reqPerSec, 1),
          fixed(m.p50),
          fixed(m.p99),
          m.cpuPerRequest ? fixed(m.cpuPerRequest.node, 2) : '–',
        ]),
      ),
      2,
    ),
  );
  log('');
  log(
    table(
      [
        'scenario',
        'sampling',
        'cpu/req cost: rounds min',
        'median',
        'max',
        'overall',
        'throughput cost',
        'target',
        'result',
      ],
      pairs.map(({ scenario, off: a, on: b, sampling }) => {
        const cost = cpuCost(a, b);
        const throughputCost = 1 - b.reqPerSec / a.reqPerSec;
        const judged = sampling === '10 %';
        const met = cost !== undefined && cost.rounds.median <= LIMIT;
        if (cost) {
          figure({
            name: `${scenario}, tracing ${sampling} / off, Node CPU per request − 1`,
            unit: 'ratio',
            ...cost.rounds,
            ...(judged ? { target: `<= ${LIMIT}`, met } : {}),
          });
        }
        return [
          scenario,
          sampling,
          cost ? percent(cost.rounds.min) : '–',
          cost ? percent(cost.rounds.median) : '–',
          cost ? percent(cost.rounds.max) : '–',
          cost ? percent(cost.overall) : '–',
          percent(throughputCost),
          judged ? `≤ ${LIMIT * 100} %` : '–',
          judged ? verdict(`${scenario} tracing ${sampling} CPU per request`, met, 'ABOVE') : '',
        ];
      }),
      2,
    ),
  );
  log('');
  log(
    "cpu/req cost: the side's Node CPU per request over the first untraced side's, minus 1, in each round (new " +
      'processes every round, each side alone in its turn; the target applies to the median); the control row is ' +
      'a second untraced process: its spread is what the run can resolve. Throughput cost: 1 − the ratio of ' +
      'requests per second.',
  );
}

const percent = (value: number) => `${value >= 0 ? '+' : ''}${fixed(value * 100, 1)} %`;

/**
 * What tracing adds to the CPU a request costs the Node process: per round (the sides ran at the
 * same time, so the machine's load moves them alike) and over the whole run.
 */
function cpuCost(
  off: Measurement,
  on: Measurement,
): { rounds: ReturnType<typeof spread>; overall: number } | undefined {
  if (!off.cpuPerRequest || !on.cpuPerRequest) return undefined;
  const rounds = on.rounds.map((round, i) => {
    const base = off.rounds[i]?.cpuNode;
    return round.cpuNode !== undefined && base ? round.cpuNode / base - 1 : undefined;
  });
  if (rounds.some((r) => r === undefined)) return undefined;
  return {
    rounds: spread(rounds as number[]),
    overall: on.cpuPerRequest.node / off.cpuPerRequest.node - 1,
  };
}

// Rounds of new processes: one round's ratio is one pair of processes, so it takes many; a
// warm-up of 5 s weighs the run's length against the compiling a new process does first.
runBenchmark('bench:tracing', () => benchEnv(SCENARIOS, { rounds: 12, duration: 36, warmup: 5 }), run);
