// npm run bench:tracing — what tracing costs on the hot paths: bench:auth's whoami and
// bench:catalogue's list (a page of 100 products with six parameters, every language, nested,
// marketplace, variants, site links and rich snippets), on the catalogue API with tracing off,
// off again (the control: what the run can resolve), 10 % and 100 % of new traces kept. The
// sides are modes of one process (service-modes-server.ts turns tracing on and off while it
// runs; measureModes): two processes of the same code differ by themselves by 10–30 % in CPU
// per request for their whole life, which modes of one process share. Each of a few processes
// runs every mode once a round, in rotating order; the target is on the median of the rounds'
// ratios of Node CPU per request. Tracing on exports over OTLP to a collector stand-in in this
// process that accepts and drops the spans, with the chart's sampler (parentbased_traceidratio,
// 10 %) and, to show the ceiling, every trace kept (parentbased_always_on). See README.md and
// docs/benchmarks.md.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import type autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { contentInsert, productId, productItem } from './fixtures';
import { figure } from './results';
import {
  benchEnv,
  Cleanup,
  createBenchDatabase,
  createBenchEshop,
  deleteKeys,
  measureModes,
  positive,
  runBenchmark,
  spread,
  startModesServer,
  table,
  verdict,
  type BenchEnv,
  type ChildServer,
  type LoadSpec,
  type Measurement,
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
const WHOAMI_ESHOPS = 4;
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

interface Mode {
  side: string;
  /** The sampler and its ratio, or none: tracing off. */
  tracing?: { sampler: string; arg: string };
}

/** The sides: modes of each process (the control is tracing off again, in its own turn). */
const MODES: Mode[] = [
  { side: 'tracing off' },
  { side: 'tracing off, control' },
  { side: 'tracing 10 %', tracing: { sampler: 'parentbased_traceidratio', arg: '0.1' } },
  { side: 'tracing 100 %', tracing: { sampler: 'parentbased_always_on', arg: '1' } },
];

async function run(env: BenchEnv, cleanup: Cleanup): Promise<void> {
  if (env.callgrind && (process.argv.includes('--record') || process.argv.includes('--check'))) {
    // Under callgrind the CPU figures are valgrind's, not the service's.
    throw new Error('BENCH_CALLGRIND counts instructions: run it without --record and --check');
  }
  const runId = `${process.pid}`;
  const queuePrefix = `catalogue-bench-tracing-${runId}`;
  const { url, db } = await createBenchDatabase(env.databaseUrl, `catalogue_bench_tracing_${runId}`, cleanup);
  cleanup.defer(
    `delete Redis keys ${queuePrefix}*`,
    async () => void (await deleteKeys(env.redisUrl, queuePrefix)),
  );
  const eshop = await createBenchEshop(db, 'Bench tracing', ['default', 'cs', 'en'], REALISTIC);
  const sink = await startSink(cleanup);
  // The list's products, imported through the endpoint, then made listable as bench:catalogue does.
  // Through a process of its own, stopped before measuring: a side that had served the imports
  // answered whoami 28 % slower than a new process.
  const bearer = { authorization: `Bearer ${eshop.token}` };
  const { server: seeder } = await startModesServer({
    name: 'seeding',
    databaseUrl: url,
    redisUrl: env.redisUrl,
    queuePrefix: `${queuePrefix}-seed`,
    cpuProfDir: env.cpuProfDir,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url },
    cleanup,
  });
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

  // whoami in turn for a few eshops: one token's budget (at most 1,000,000 a minute) is less than
  // a process on a fast machine answers in the minute its modes run.
  const whoamiEshops = [eshop];
  for (let i = 2; i <= WHOAMI_ESHOPS; i++)
    whoamiEshops.push(await createBenchEshop(db, `Bench tracing ${i}`));
  const whoamiBodies = new Set(whoamiEshops.map(({ id }) => `{"data":{"eshop_id":${id}}}`));
  const spec = (scenario: (typeof SCENARIOS)[number], side: string, server: ChildServer): LoadSpec => {
    let n = 0;
    return scenario === 'whoami'
      ? {
          scenario,
          side,
          server,
          next: (): autocannon.Request => ({
            method: 'GET',
            path: '/api/v2/rest/whoami',
            headers: { authorization: `Bearer ${whoamiEshops[n++ % WHOAMI_ESHOPS]!.token}` },
          }),
          itemsPerRequest: 1,
          check: (answer) => whoamiBodies.has(answer),
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
      `${scenario}: tracing off (twice), 10 % and 100 %, modes of each of ${processes} processes, ${env.rounds} rounds each, ${env.warmup} s warm-up of each mode, then ${env.duration} s in all per side…`,
    );
    const [offSide, controlSide, sampledSide, allSide] = await measureModes(
      async (index) => {
        const { server, setMode } = await startModesServer({
          name: `${scenario} ${index + 1}`,
          databaseUrl: url,
          redisUrl: env.redisUrl,
          queuePrefix: `${queuePrefix}-${index}`,
          cpuProfDir: env.cpuProfDir,
          callgrind: env.callgrind,
          env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url },
          cleanup,
        });
        return {
          spec: (mode) => spec(scenario, MODES[mode]!.side, server),
          setMode: (mode) => {
            const tracing = MODES[mode]!.tracing;
            return setMode(tracing ? { tracing: tracing.sampler, arg: tracing.arg } : { tracing: 'off' });
          },
          stop: () => server.stop(),
        };
      },
      MODES.length,
      { ...env, db, redis, processes },
    );
    pairs.push({ scenario, off: offSide!, on: controlSide!, sampling: 'off, control' });
    pairs.push({ scenario, off: offSide!, on: sampledSide!, sampling: '10 %' });
    pairs.push({ scenario, off: offSide!, on: allSide!, sampling: '100 %' });
  }
  const loadAfter = loadavg().map((l) => l.toFixed(2));

  log('');
  log(
    `tracing benchmark: ${env.connections} connections, each side a mode of the same process, alone for ${fixed(env.duration / (env.rounds * processes), 1)} s ` +
      `in each of ${env.rounds} rounds of ${processes} processes, after a ${env.warmup} s warm-up of each mode; OTLP/HTTP export to a local collector stand-in (${fixed(sink.bytes() / 1024)} KiB received)`,
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
  if (instructionsOf(pairs[0]!.off)) {
    log('');
    log(
      table(
        ['scenario', 'side', 'instructions/req: rounds', 'cost: min', 'median', 'max'],
        pairs.flatMap(({ scenario, off: a, on: b }, i) =>
          (pairs.findIndex((p) => p.scenario === scenario) === i ? [a, b] : [b]).map((m) => {
            const cost = m === a ? undefined : roundsCost(a, m, 'instructions');
            return [
              scenario,
              m.side,
              instructionsOf(m)!
                .map((n) => fixed(n / 1000))
                .join(' '),
              cost ? percent(cost.min) : '–',
              cost ? percent(cost.median) : '–',
              cost ? percent(cost.max) : '–',
            ];
          }),
        ),
        3,
      ),
    );
  }
  log(
    "cpu/req cost: the side's Node CPU per request over the untraced side's of the same process and round, minus 1 " +
      '(each side alone in its turn; the target applies to the median); the control row is the same process untraced ' +
      'again in another turn: its spread is what the run can resolve. Throughput cost: 1 − the ratio of requests per second.',
  );
}

/** Each round's instructions per request (callgrind), when counted. */
const instructionsOf = (m: Measurement) =>
  m.rounds.every((r) => r.instructions !== undefined) ? m.rounds.map((r) => r.instructions!) : undefined;

const percent = (value: number) => `${value >= 0 ? '+' : ''}${fixed(value * 100, 1)} %`;

/**
 * What tracing adds to the CPU a request costs the Node process: per round (modes of one process,
 * one after another) and over the whole run.
 */
function cpuCost(
  off: Measurement,
  on: Measurement,
): { rounds: ReturnType<typeof spread>; overall: number } | undefined {
  if (!off.cpuPerRequest || !on.cpuPerRequest) return undefined;
  const rounds = roundsCost(off, on, 'cpuNode');
  return rounds && { rounds, overall: on.cpuPerRequest.node / off.cpuPerRequest.node - 1 };
}

/** Per round, what the `on` side's `key` per request costs over the `off` side's, minus 1. */
function roundsCost(
  off: Measurement,
  on: Measurement,
  key: 'cpuNode' | 'instructions',
): ReturnType<typeof spread> | undefined {
  const rounds = on.rounds.map((round, i) => {
    const [value, base] = [round[key], off.rounds[i]?.[key]];
    return value !== undefined && base ? value / base - 1 : undefined;
  });
  return rounds.length && rounds.every((r) => r !== undefined) ? spread(rounds as number[]) : undefined;
}

/** Processes per scenario (BENCH_PROCESSES): each runs every side `rounds` times. */
const processes = Math.round(positive('BENCH_PROCESSES', 6));

// 6 processes × 4 rounds of 3 s per side; a warm-up of 5 s a mode weighs the run's length
// against the compiling a new process does first. A process lives about 90 s: a list process
// running all four modes for over two minutes reached the image's 256 MiB heap limit.
runBenchmark('bench:tracing', () => benchEnv(SCENARIOS, { rounds: 4, duration: 72, warmup: 5 }), run);
