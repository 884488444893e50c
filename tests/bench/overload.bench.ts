// npm run bench:overload — goodput under overload. The catalogue API's list (100 products with
// content, one eshop) from autocannon at 50, 200 and 1,000 connections against a compiled
// catalogue-api process with the default admission settings (and, with BENCH_OVERLOAD_OLD=1, one
// with the former ones: a fixed queue of 20 for the pool, no wait budget). 503s are expected here
// (shed load), so this bench counts statuses instead of failing on them; its targets: goodput at
// the most connections ≥ 0.8 of the best goodput of the same process in the run, p99 of the 200s
// ≤ 2 s there, every 503 answered within 50 ms (p99) and with Retry-After.
// Loopback only; the connection counts are bounded (BENCH_OVERLOAD_CONNECTIONS).
// See README.md and docs/benchmarks.md.
import { fork } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import {
  Cleanup,
  createBenchDatabase,
  createBenchEshop,
  deleteKeys,
  freePort,
  positive,
  REPO_ROOT,
  runBenchmark,
  startChild,
  imageNodeOptions,
  importParameters,
  REALISTIC,
  table,
  verdict,
  type ChildServer,
} from './harness';
import { contentInsert, productId, productItem } from './fixtures';
import { figure, spread } from './results';
import { shedCounts, shedSince } from './shed-metrics';
import type { ProbeAnswer } from './overload-probe';

/** Goodput at overload over the best goodput of the same process in the run. */
const TARGET = 0.8;
/** p99 (ms) of the served requests at overload. */
const SERVED_P99_MS = 2_000;
/** p99 (ms) of the shed requests' answers. */
const SHED_P99_MS = 50;
const PRODUCTS = 100;
const LIST = `/api/v2/rest/products?page=1&per_page=${PRODUCTS}`;
const log = (line: string) => process.stdout.write(`${line}\n`);
const fixed = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

interface OverloadEnv {
  duration: number;
  warmup: number;
  connections: number[];
  databaseUrl: string;
  redisUrl: string;
  /** Settings of the `defaults` side beyond the defaults (BENCH_OVERLOAD_ENV, `K=V,K=V`). */
  boundedEnv: Record<string, string>;
  /** Whether the former settings run too, for comparison (BENCH_OVERLOAD_OLD=1). */
  old: boolean;
}

function overloadEnv(): OverloadEnv {
  const raw = process.env.BENCH_OVERLOAD_CONNECTIONS ?? '50,200,1000';
  const connections = raw.split(',').map(Number);
  if (!connections.every((c) => Number.isInteger(c) && c > 0 && c <= 2000)) {
    throw new Error(`BENCH_OVERLOAD_CONNECTIONS must be integers from 1 to 2000 (got "${raw}")`);
  }
  return {
    duration: positive('BENCH_DURATION', 10),
    warmup: positive('BENCH_WARMUP', 2),
    connections,
    databaseUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/catalogue',
    redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    old: process.env.BENCH_OVERLOAD_OLD === '1',
    boundedEnv: Object.fromEntries(
      (process.env.BENCH_OVERLOAD_ENV ?? '')
        .split(',')
        .filter(Boolean)
        .map((pair) => {
          const [key, value] = pair.split('=');
          if (!key || value === undefined) throw new Error(`BENCH_OVERLOAD_ENV: "${pair}" is not K=V`);
          return [key.trim(), value.trim()];
        }),
    ),
  };
}

interface Run {
  side: string;
  connections: number;
  seconds: number;
  ok: number;
  shed: number;
  other: number;
  /** Latencies (ms) of the 200s, and of every answer. */
  okLatencies: number[];
  allLatencies: number[];
  /** Latencies (ms) of the 503s. */
  shedLatencies: number[];
  /**
   * Latencies (ms) of the 503s a new client got: one request every 100 ms on a fresh connection
   * beside the load, from a process of its own (overload-probe.ts). autocannon's own 503 latencies include the 1 s its connection is not read
   * after a refusal it ignored (pauseAfterShed), which a client that honours Retry-After never meets.
   */
  probeShedLatencies: number[];
  /** 503s without a Retry-After header. */
  shedWithoutRetryAfter: number;
  /** The process's own count of what it shed, by reason. */
  shedByServer: string[];
  socketErrors: number;
  timeouts: number;
}

/** Measured slices per side and connection count, interleaved. */
const ROUNDS = 2;

function merge(parts: Run[]): Run {
  const [first] = parts;
  return {
    side: first!.side,
    connections: first!.connections,
    seconds: parts.reduce((n, r) => n + r.seconds, 0),
    ok: parts.reduce((n, r) => n + r.ok, 0),
    shed: parts.reduce((n, r) => n + r.shed, 0),
    other: parts.reduce((n, r) => n + r.other, 0),
    okLatencies: parts.flatMap((r) => r.okLatencies),
    allLatencies: parts.flatMap((r) => r.allLatencies),
    shedLatencies: parts.flatMap((r) => r.shedLatencies),
    probeShedLatencies: parts.flatMap((r) => r.probeShedLatencies),
    shedWithoutRetryAfter: parts.reduce((n, r) => n + r.shedWithoutRetryAfter, 0),
    shedByServer: parts.flatMap((r) => r.shedByServer),
    socketErrors: parts.reduce((n, r) => n + r.socketErrors, 0),
    timeouts: parts.reduce((n, r) => n + r.timeouts, 0),
  };
}

function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

/** The new client (overload-probe.ts) in its own process, until `stop` has its last answers. */
function startProbe(
  target: URL,
  token: string,
  onAnswer: (answer: ProbeAnswer) => void,
): { stop(): Promise<void> } {
  const child = fork(join(__dirname, 'overload-probe.js'), [target.href, token], { stdio: 'inherit' });
  const done = new Promise<void>((resolve, reject) => {
    child.on('message', (message: ProbeAnswer | 'done') => {
      if (message === 'done') resolve();
      else onAnswer(message);
    });
    child.on('exit', (code) => (code ? reject(new Error(`overload probe exited with ${code}`)) : resolve()));
  });
  return {
    async stop() {
      child.send('stop');
      await done;
    },
  };
}

/** One autocannon run; every status is counted, 200 bodies must be the expected list. */
async function load(server: ChildServer, token: string, connections: number, duration: number): Promise<Run> {
  const run: Run = {
    side: server.name,
    connections,
    seconds: 0,
    ok: 0,
    shed: 0,
    other: 0,
    okLatencies: [],
    allLatencies: [],
    shedLatencies: [],
    probeShedLatencies: [],
    shedWithoutRetryAfter: 0,
    shedByServer: [],
    socketErrors: 0,
    timeouts: 0,
  };
  let badBodies = 0;
  const before = await shedCounts(server.url);
  const probe = startProbe(new URL(LIST, server.url), token, (answer) => {
    if (answer.status !== 503) return;
    run.probeShedLatencies.push(answer.ms);
    if (!answer.retryAfter) run.shedWithoutRetryAfter += 1;
  });
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: server.url,
        connections,
        duration,
        timeout: 30,
        requests: [
          {
            method: 'GET',
            path: LIST,
            headers: { authorization: `Bearer ${token}` },
            onResponse: (status, body, _context, headers) => {
              if (status === 200 && !body.startsWith('{"data":[')) badBodies += 1;
              const retryAfter = Object.keys(headers ?? {}).some((h) => h.toLowerCase() === 'retry-after');
              if (status === 503 && !retryAfter) run.shedWithoutRetryAfter += 1;
            },
          },
        ],
      },
      (err: Error | null, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      run.allLatencies.push(ms);
      if (status === 200) {
        run.ok += 1;
        run.okLatencies.push(ms);
      } else if (status === 503) {
        run.shed += 1;
        run.shedLatencies.push(ms);
      } else run.other += 1;
    });
  });
  await probe.stop();
  if (badBodies) throw new Error(`${server.name}: ${badBodies} 200s without the list`);
  if (run.other)
    throw new Error(`${server.name}: ${run.other} answers neither 200 nor 503\n${server.output()}`);
  run.seconds = result.duration;
  run.shedByServer = [shedSince(before, await shedCounts(server.url))];
  run.socketErrors = result.errors;
  run.timeouts = result.timeouts;
  // Requests cut off when the time was up still run on the server: let them end.
  await new Promise((r) => setTimeout(r, Math.min(10_000, Math.max(1_000, percentile(run.allLatencies, 1)))));
  return run;
}

async function run(env: OverloadEnv, cleanup: Cleanup): Promise<void> {
  const runId = `${process.pid}`;
  const { url, db } = await createBenchDatabase(
    env.databaseUrl,
    `catalogue_bench_overload_${runId}`,
    cleanup,
  );
  const eshop = await createBenchEshop(db, 'Bench overload', ['default', 'cs', 'en'], REALISTIC);

  const start = async (name: string, extra: Record<string, string>): Promise<ChildServer> => {
    const port = await freePort();
    const prefix = `catalogue-bench-overload-${runId}-${name}`;
    cleanup.defer(`delete Redis keys ${prefix}:*`, async () => void (await deleteKeys(env.redisUrl, prefix)));
    return startChild({
      name,
      script: join(REPO_ROOT, 'services', 'catalogue-api', 'dist', 'main.js'),
      port,
      env: {
        DATABASE_URL: url,
        REDIS_URL: env.redisUrl,
        QUEUE_PREFIX: prefix,
        CATALOGUE_API_PORT: String(port),
        LOG_LEVEL: 'info',
        NODE_ENV: 'production',
        NODE_OPTIONS: imageNodeOptions(),
        // The limiter stays in the path with a budget the load never reaches.
        RATE_LIMIT_READ_PER_MINUTE: '1000000',
        ...extra,
      },
      cleanup,
    });
  };
  const defaults = await start('defaults', env.boundedEnv);
  // The former admission settings: a fixed queue of 20 for the pool, no wait budget.
  const servers = env.old
    ? [
        defaults,
        await start('old-settings', { DATABASE_POOL_QUEUE_MAX: '20', DATABASE_POOL_QUEUE_BUDGET_MS: '0' }),
      ]
    : [defaults];

  await importParameters(defaults.url, eshop.token);
  const seeded = await fetch(`${defaults.url}/api/v2/rest/products`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${eshop.token}` },
    body: JSON.stringify(
      Array.from({ length: PRODUCTS }, (_, i) => productItem(productId('P', i + 1), 0, true)),
    ),
  });
  if (seeded.status !== 200) throw new Error(`seeding: ${seeded.status} ${await seeded.text()}`);
  // What the generation worker would do: ready, loaded, with a rendered content row.
  await db('products').update({ status: 'ready', is_loaded: true });
  const { sql, bindings } = contentInsert();
  await db.raw(sql, bindings);
  await db.raw('vacuum analyze products, product_variants, content');

  const loadBefore = loadavg().map((l) => l.toFixed(2));
  // Every (side, connections) pair runs in ROUNDS slices, interleaved (A B …, then … B A), so
  // that the load other processes put on the machine meanwhile hits every pair alike.
  const pairs = servers.flatMap((server) => env.connections.map((connections) => ({ server, connections })));
  for (const server of servers) await load(server, eshop.token, Math.min(...env.connections), env.warmup);
  log(
    `${env.warmup} s warm-up each, then ${env.duration} s per side and connection count in ${ROUNDS} rounds…`,
  );
  const slices = new Map<(typeof pairs)[number], Run[]>(pairs.map((p) => [p, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const pair of round % 2 ? [...pairs].reverse() : pairs) {
      slices.get(pair)!.push(await load(pair.server, eshop.token, pair.connections, env.duration / ROUNDS));
    }
  }
  const runs = pairs.map((pair) => merge(slices.get(pair)!));
  const loadAfter = loadavg().map((l) => l.toFixed(2));

  log('');
  log(
    `overload benchmark: GET ${LIST} (${PRODUCTS} products with content), ${env.duration} s per run ` +
      `after a ${env.warmup} s warm-up; pool 10 connections (DATABASE_POOL_MAX default)`,
  );
  log(
    `machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}; ` +
      `load average before ${loadBefore.join(' ')}, after ${loadAfter.join(' ')}`,
  );
  log('');
  log(
    table(
      [
        'side',
        'connections',
        'goodput req/s',
        '503 share',
        'p50 ms (200)',
        'p99 ms (200)',
        'max ms (200)',
        'p99 ms (503)',
        'p99 ms (503, new client)',
        'shed by (server)',
        'errors',
      ],
      runs.map((r) => {
        const answered = r.ok + r.shed;
        return [
          r.side,
          String(r.connections),
          fixed(r.ok / r.seconds, 1),
          `${fixed(answered ? (100 * r.shed) / answered : 0, 1)} %`,
          fixed(percentile(r.okLatencies, 0.5)),
          fixed(percentile(r.okLatencies, 0.99)),
          fixed(percentile(r.okLatencies, 1)),
          r.shed ? fixed(percentile(r.shedLatencies, 0.99)) : '-',
          r.probeShedLatencies.length
            ? `${fixed(percentile(r.probeShedLatencies, 0.99))} (${r.probeShedLatencies.length})`
            : '-',
          r.shedByServer.filter((x) => x !== '-').join('; ') || '-',
          String(r.socketErrors + r.timeouts),
        ];
      }),
    ),
  );
  log('');
  const overloadConnections = Math.max(...env.connections);
  for (const server of servers) {
    const mine = runs.filter((x) => x.side === server.name);
    const best = Math.max(...mine.map((r) => r.ok / r.seconds));
    const at = mine.find((r) => r.connections === overloadConnections)!;
    const ratio = best ? at.ok / at.seconds / best : 0;
    const servedP99 = percentile(at.okLatencies, 0.99);
    const shed = mine.flatMap((r) => r.probeShedLatencies);
    const shedP99 = percentile(shed, 0.99);
    const withoutRetryAfter = mine.reduce((n, r) => n + r.shedWithoutRetryAfter, 0);
    const checked = server === defaults;
    const mark = (name: string, met: boolean) => (checked ? ` ${verdict(name, met)}` : '');
    if (checked) {
      // The figures the verdicts judge, one reading each (the run's slices merged).
      const at = `${overloadConnections} connections`;
      figure({
        name: `v2 list goodput at ${at} / the best goodput of the run`,
        unit: 'ratio',
        ...spread([ratio]),
        target: `>= ${TARGET}`,
        met: ratio >= TARGET,
      });
      figure({
        name: `v2 list p99 of the 200s at ${at}`,
        unit: 'ms',
        ...spread([servedP99]),
        target: `<= ${SERVED_P99_MS} ms`,
        met: servedP99 <= SERVED_P99_MS,
      });
      figure({
        name: `p99 of the 503s a new client got (${shed.length} answers)`,
        unit: 'ms',
        ...spread([shed.length ? shedP99 : 0]),
        target: `<= ${SHED_P99_MS} ms`,
        met: shedP99 <= SHED_P99_MS || shed.length === 0,
      });
      // The whole spread of those answers: the p99 above is the slowest few of them.
      figure({ name: 'the 503s a new client got, each answer', unit: 'ms', ...spread(shed) });
      figure({
        name: '503 answers without Retry-After',
        unit: 'answers',
        ...spread([withoutRetryAfter]),
        target: '= 0',
        met: withoutRetryAfter === 0,
      });
    }
    log(
      `${server.name}: goodput at ${overloadConnections} connections / its best in the run: ${fixed(ratio, 2)} ` +
        `(target ≥ ${TARGET})${mark('overload goodput', ratio >= TARGET)}`,
    );
    log(
      `${server.name}: p99 of the 200s at ${overloadConnections} connections: ${fixed(servedP99)} ms ` +
        `(target ≤ ${SERVED_P99_MS})${mark('served p99', servedP99 <= SERVED_P99_MS)}`,
    );
    log(
      `${server.name}: p99 of the 503s a new client got: ${shed.length ? fixed(shedP99) : '-'} ms of ${shed.length}, ` +
        `${withoutRetryAfter} without Retry-After (target ≤ ${SHED_P99_MS} ms, 0)` +
        mark('shed answers', shedP99 <= SHED_P99_MS && withoutRetryAfter === 0),
    );
    if (shed.length) {
      const { min, median, max } = spread(shed);
      log(
        `${server.name}: the 503s a new client got, min / median / max: ${fixed(min)} / ${fixed(median)} / ${fixed(max)} ms`,
      );
    }
  }
}

runBenchmark('bench:overload', overloadEnv, run);
