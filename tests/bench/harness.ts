// Benchmark plumbing: a database and queue prefix of the run's own, child processes that
// serve HTTP, an autocannon wrapper that fails loudly on any error response, and cleanup
// that runs on success, failure and Ctrl-C.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { adminService } from '@catalogue/admin';
import { CATALOGUE_API_HEAP_FLAGS, missingHeapFlags, type Language } from '@catalogue/config';
import {
  createKnex,
  dropDatabase,
  ensureDatabase,
  migrateLatest,
  withDatabase,
  type Knex,
} from '@catalogue/db';
import { freePort } from '@catalogue/testing';
import { parameterItems } from './fixtures';
import { callgrindArgs, callgrindNodeArgs, instructionCounter, type InstructionCounter } from './callgrind';
import { cutProfile, profileClock, type Window } from './profile-windows';
import { writeRecordIfAsked } from './results';
import { sliceLog } from './slice-log';

export const REPO_ROOT = join(__dirname, '..', '..', '..');

export interface BenchEnv {
  /** Measured seconds per side and scenario. */
  duration: number;
  /** Unmeasured seconds per side before each scenario. */
  warmup: number;
  connections: number;
  /** The Postgres server (the database name in it is replaced by the run's own). */
  databaseUrl: string;
  redisUrl: string;
  /** When set, both child processes run with --cpu-prof and write their profiles here at exit. */
  cpuProfDir: string | undefined;
  /**
   * When set (BENCH_CALLGRIND), the processes of measureModes run under callgrind, write their
   * counts here, and every warm-up and measured window is `requests` requests (callgrind.ts).
   */
  callgrind: { dir: string; requests: number } | undefined;
  /** Measured runs of each side are split into this many interleaved slices. */
  rounds: number;
  /** Scenarios to run (all by default). */
  scenarios: Set<string>;
}

/** A positive number from the environment, or `fallback` when unset; throws on anything else. */
export function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a positive number (got "${raw}")`);
  return value;
}

export function benchEnv(
  allScenarios: readonly string[],
  defaults: { duration?: number; rounds?: number; warmup?: number } = {},
): BenchEnv {
  const scenarios = (process.env.BENCH_SCENARIOS ?? '').split(',').filter(Boolean);
  const unknown = scenarios.filter((s) => !allScenarios.includes(s));
  if (unknown.length) {
    throw new Error(`BENCH_SCENARIOS: unknown ${unknown.join(', ')} (known: ${allScenarios.join(', ')})`);
  }
  return {
    duration: positive('BENCH_DURATION', defaults.duration ?? 10),
    warmup: positive('BENCH_WARMUP', defaults.warmup ?? 2),
    connections: Math.round(positive('BENCH_CONNECTIONS', 10)),
    rounds: Math.round(positive('BENCH_ROUNDS', defaults.rounds ?? 2)),
    databaseUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/catalogue',
    redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    cpuProfDir: process.env.BENCH_CPU_PROF || undefined,
    callgrind: process.env.BENCH_CALLGRIND
      ? {
          dir: process.env.BENCH_CALLGRIND,
          requests: Math.round(positive('BENCH_CALLGRIND_REQUESTS', 2_000)),
        }
      : undefined,
    scenarios: new Set(scenarios.length ? scenarios : allScenarios),
  };
}

/** Runs registered steps in reverse order, once, whatever happens (Ctrl-C included). */
export class Cleanup {
  private readonly steps: { name: string; run: () => Promise<void> }[] = [];
  private running: Promise<void> | undefined;

  defer(name: string, run: () => Promise<void>): void {
    this.steps.push({ name, run });
  }

  run(): Promise<void> {
    this.running ??= (async () => {
      for (const step of this.steps.reverse()) {
        try {
          await step.run();
        } catch (err) {
          process.stderr.write(`cleanup: ${step.name} failed: ${(err as Error).message}\n`);
        }
      }
    })();
    return this.running;
  }

  /** On SIGINT/SIGTERM: clean up, then exit 130/143. */
  onSignals(): void {
    for (const [signal, code] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
    ] as const) {
      process.once(signal, () => {
        process.stderr.write(`\n${signal}: cleaning up\n`);
        void this.run().finally(() => process.exit(code));
      });
    }
  }
}

/** An eshop with an API token and nothing else switched on (no credits, origins or licence). */
export async function createBenchEshop(
  db: Knex,
  name: string,
  languages: Language[] = ['default'],
  settings: { enableSiteLink?: boolean; enableRichSnippet?: boolean } = {},
): Promise<{ id: number; token: string }> {
  const created = await adminService(db).createEshop({
    name,
    languages,
    origins: [],
    credits: 0,
    enableSiteLink: settings.enableSiteLink ?? false,
    enableRichSnippet: settings.enableRichSnippet ?? false,
    reviewRequired: false,
    licenceValidUntil: null,
  });
  return { id: created.eshop.id, token: created.apiToken };
}

/** What every benchmark's eshops have on, as shops run them: site links and rich snippets. */
export const REALISTIC = { enableSiteLink: true, enableRichSnippet: true } as const;

/** The six parameters `productItem(id, revision, true)` products name (parameterItems), imported through the real endpoint. */
export async function importParameters(apiUrl: string, token: string): Promise<void> {
  const res = await fetch(`${apiUrl}/api/v2/rest/parameters`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(parameterItems()),
  });
  if (res.status !== 200) throw new Error(`parameters: ${res.status} ${(await res.text()).slice(0, 500)}`);
}

/**
 * The NODE_OPTIONS the image runs every service with (docker/Dockerfile's `ENV NODE_OPTIONS`):
 * benchmarks measure the processes as deployed.
 */
export function imageNodeOptions(): string {
  const dockerfile = readFileSync(join(REPO_ROOT, 'docker', 'Dockerfile'), 'utf8');
  const match = /^ENV NODE_OPTIONS=(?:"([^"]*)"|(\S+))\s*$/m.exec(dockerfile);
  const options = match?.[1] ?? match?.[2];
  if (!options)
    throw new Error('docker/Dockerfile sets no NODE_OPTIONS: the benchmark cannot run as the image does');
  // Kept in the run's record (results.ts records every BENCH_* setting).
  process.env.BENCH_IMAGE_NODE_OPTIONS = options;
  return options;
}

/**
 * The environment of a catalogue API a benchmark starts: production, the image's NODE_OPTIONS,
 * the access log at `info`, and rate limits the load never reaches (a 429 fails a run).
 */
export function catalogueApiEnv(opts: {
  databaseUrl: string;
  redisUrl: string;
  queuePrefix: string;
  port: number;
}): Record<string, string> {
  return {
    NODE_ENV: 'production',
    NODE_OPTIONS: imageNodeOptions(),
    DATABASE_URL: opts.databaseUrl,
    REDIS_URL: opts.redisUrl,
    QUEUE_PREFIX: opts.queuePrefix,
    CATALOGUE_API_PORT: String(opts.port),
    LOG_LEVEL: 'info',
    RATE_LIMIT_READ_PER_MINUTE: '1000000',
    RATE_LIMIT_WRITE_PER_MINUTE: '1000000',
  };
}

/** Where the flags of cpuProfileArgs make a process write its profile. */
function cpuProfileOf(nodeArgs: string[]): { cpuProfile?: string } {
  const flag = (name: string) => nodeArgs.find((arg) => arg.startsWith(`${name}=`))?.slice(name.length + 1);
  const [dir, name] = [flag('--cpu-prof-dir'), flag('--cpu-prof-name')];
  return dir && name ? { cpuProfile: join(dir, name) } : {};
}

/** Node flags that write a CPU profile `<dir>/<name>.cpuprofile` when the process stops (BENCH_CPU_PROF). */
export function cpuProfileArgs(dir: string | undefined, name: string): string[] {
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}.cpuprofile`] : [];
}

// The tests' helper: a free TCP port on the loopback interface.
export { freePort };

export interface BenchDatabase {
  url: string;
  db: Knex;
}

/** Creates and migrates the run's own database; `cleanup` drops it. */
export async function createBenchDatabase(
  serverUrl: string,
  name: string,
  cleanup: Cleanup,
): Promise<BenchDatabase> {
  const url = withDatabase(serverUrl, name);
  await ensureDatabase(url);
  cleanup.defer(`drop database ${name}`, () => dropDatabase(url));
  const db = createKnex({
    url,
    poolMin: 0,
    poolMax: 4,
    statementTimeoutMs: 0,
    applicationName: 'bench',
    // On a machine loaded far beyond its cores a seeding read can outlast the 2 s stall check.
    ...(process.env.DATABASE_STALL_CHECK_MS && { stallCheckMs: Number(process.env.DATABASE_STALL_CHECK_MS) }),
  });
  cleanup.defer('close bench pool', () => db.destroy());
  await migrateLatest(db);
  return { url, db };
}

/** Deletes every Redis key under `prefix:` (the queues of the run). */
export async function deleteKeys(redisUrl: string, prefix: string): Promise<number> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length) deleted += await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

export interface ChildServer {
  name: string;
  /** The application_name of its Postgres connections, whose backends' CPU counts as its. */
  applicationName: string;
  pid: number;
  url: string;
  /** What the process wrote to stdout and stderr (the last 20 KB). */
  output(): string;
  /** The CPU profile it writes when it stops, when it runs with cpuProfileArgs (BENCH_CPU_PROF). */
  cpuProfile?: string;
  /** Its main thread's instructions, when it runs under callgrind (BENCH_CALLGRIND). */
  instructions?: InstructionCounter;
  /** SIGTERM, then SIGKILL after 10 s; resolves when the process is gone. */
  stop(): Promise<void>;
}

/**
 * Starts a compiled Node script that serves HTTP on `port`, with only the given environment,
 * and waits until `GET /readyz` answers 200.
 */
export async function startChild(opts: {
  name: string;
  script: string;
  port: number;
  env: Record<string, string>;
  nodeArgs?: string[];
  /** Runs it under valgrind's callgrind, writing its counts to this file (callgrind.ts). */
  callgrindFile?: string;
  /** The application_name of its Postgres connections, when not `name`. */
  applicationName?: string;
  cleanup: Cleanup;
  /** How long it may take to answer `GET /readyz` 200 (90 s: on a busy disk loading the modules alone took 14 s). */
  readyTimeoutMs?: number;
}): Promise<ChildServer> {
  let output = '';
  const node = [
    process.execPath,
    ...(opts.callgrindFile ? callgrindNodeArgs(opts.env.NODE_OPTIONS) : []),
    ...(opts.nodeArgs ?? []),
    opts.script,
  ];
  const [command, ...args] = opts.callgrindFile
    ? ['valgrind', ...callgrindArgs(opts.callgrindFile), ...node]
    : node;
  const child = spawn(command!, args, {
    // Not the repository root: the service would read a developer's .env there.
    cwd: __dirname,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-20_000));
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const server: ChildServer = {
    name: opts.name,
    applicationName: opts.applicationName ?? opts.name,
    pid: child.pid!,
    url: `http://127.0.0.1:${opts.port}`,
    output: () => output,
    ...cpuProfileOf(opts.nodeArgs ?? []),
    ...(opts.callgrindFile && { instructions: instructionCounter(child.pid!, opts.callgrindFile) }),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
  opts.cleanup.defer(`stop ${opts.name}`, () => server.stop());

  // Under callgrind everything runs about 50 times slower.
  const readyMs = opts.readyTimeoutMs ?? (opts.callgrindFile ? 600_000 : 90_000);
  const deadline = Date.now() + readyMs;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${opts.name} exited with code ${child.exitCode}:\n${output}`);
    const status = await fetch(`${server.url}/readyz`).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) return server;
    if (Date.now() > deadline)
      throw new Error(`${opts.name} not ready after ${readyMs / 1000} s:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The heap flags the catalogue API adds to `nodeOptions` itself (libs/config heap-bounds.ts), for
 * node's command line: the modes server (which does not run main.ts) then runs with the service's
 * heap, and a catalogue API under callgrind does not restart itself out of valgrind.
 */
export function catalogueApiNodeArgs(nodeOptions: string | undefined): string[] {
  return missingHeapFlags(CATALOGUE_API_HEAP_FLAGS, [], nodeOptions);
}

/**
 * The heap flags of a baseline handler that stands beside the catalogue API: the service's own
 * (catalogueApiNodeArgs), so that a ratio compares code, not heap settings — the API's flags
 * were chosen by measuring its list (docs/decisions/0114-the-list-s-old-generation-floor.md), and
 * the best equivalent handler deployed beside it would run with them too. `BENCH_BASELINE_HEAP=image`
 * runs the baselines with NODE_OPTIONS alone (the image's settings), to measure what the flags
 * do for them.
 */
export function baselineNodeArgs(nodeOptions: string | undefined): string[] {
  const setting = process.env.BENCH_BASELINE_HEAP || 'service';
  if (setting !== 'service' && setting !== 'image') {
    throw new Error(`BENCH_BASELINE_HEAP=${setting}: expected service or image`);
  }
  // Kept in the run's record (results.ts records every BENCH_* setting), the default too.
  process.env.BENCH_BASELINE_HEAP = setting;
  if (setting === 'image') return [];
  return catalogueApiNodeArgs(nodeOptions);
}

/** How the baselines run (baselineNodeArgs), for a benchmark's header. */
export function baselineSettings(): string {
  const nodeOptions = imageNodeOptions();
  const flags = baselineNodeArgs(nodeOptions);
  return flags.length
    ? `NODE_OPTIONS ${nodeOptions} and the service's heap flags ${flags.join(' ')}`
    : `NODE_OPTIONS ${nodeOptions} alone`;
}

/**
 * The catalogue API as a process whose modes — tracing, rate limiter, log level — `setMode`
 * switches while it runs (service-modes-server.ts, `POST /mode?…` on its control port), started
 * with the benchmark's catalogue API environment plus `env`.
 */
export async function startModesServer(opts: {
  name: string;
  databaseUrl: string;
  redisUrl: string;
  queuePrefix: string;
  cpuProfDir: string | undefined;
  /** BenchEnv's: under callgrind, writing `<dir>/<name>.callgrind.<window>-<thread>`. */
  callgrind?: BenchEnv['callgrind'];
  env?: Record<string, string>;
  cleanup: Cleanup;
}): Promise<{ server: ChildServer; setMode(query: Record<string, string>): Promise<void> }> {
  const [port, controlPort] = [await freePort(), await freePort()];
  const { databaseUrl, redisUrl, queuePrefix } = opts;
  const server = await startChild({
    name: opts.name,
    script: join(__dirname, 'service-modes-server.js'),
    port,
    env: {
      ...catalogueApiEnv({ databaseUrl, redisUrl, queuePrefix, port }),
      CONTROL_PORT: String(controlPort),
      // Under callgrind the event loop runs about 50 times slower than the budget expects, and
      // the service would shed requests whose instructions the run is there to count.
      ...(opts.callgrind && { DATABASE_POOL_QUEUE_BUDGET_MS: '0' }),
      ...opts.env,
    },
    nodeArgs: [
      ...catalogueApiNodeArgs(imageNodeOptions()),
      ...cpuProfileArgs(opts.cpuProfDir, opts.name.replace(/\W+/g, '-')),
    ],
    ...(opts.callgrind && {
      callgrindFile: join(opts.callgrind.dir, `${opts.name.replace(/\W+/g, '-')}.callgrind`),
    }),
    cleanup: opts.cleanup,
  });
  return {
    server,
    async setMode(query) {
      const search = new URLSearchParams(query);
      const res = await fetch(`http://127.0.0.1:${controlPort}/mode?${search}`, { method: 'POST' });
      if (!res.ok) throw new Error(`${opts.name}: mode ${search}: ${res.status} ${await res.text()}`);
    },
  };
}

/** CPU milliseconds used so far: the Node process, its Postgres backends, the whole Redis server. */
export interface CpuTimes {
  node: number;
  pg: number;
  redis: number;
  /** Per backend pid, so that a delta only counts what each backend used in between. */
  backends: Map<number, number>;
}

/** Linux only: user + system time of a process from /proc (clock ticks of 10 ms). */
async function processCpuMs(pid: number): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * Where the CPU goes, for the report: undefined when the processes cannot be read (not
 * Linux, or Postgres on another host or in a container).
 */
export async function cpuTimes(server: ChildServer, db: Knex, redis: Redis): Promise<CpuTimes | undefined> {
  const node = await processCpuMs(server.pid);
  const { rows } = await db.raw<{ rows: { pid: number }[] }>(
    'select pid from pg_stat_activity where datname = current_database() and application_name = ?',
    [server.applicationName],
  );
  const backends = new Map<number, number>();
  for (const { pid } of rows) {
    const ms = await processCpuMs(pid);
    if (ms === undefined) return undefined;
    backends.set(pid, ms);
  }
  const info = await redis.info('cpu');
  const seconds = [...info.matchAll(/used_cpu_(?:sys|user):([\d.]+)/g)].reduce(
    (sum, m) => sum + Number(m[1]),
    0,
  );
  if (node === undefined) return undefined;
  return { node, pg: [...backends.values()].reduce((a, b) => a + b, 0), redis: seconds * 1000, backends };
}

export function cpuDelta(before: CpuTimes, after: CpuTimes): Omit<CpuTimes, 'backends'> {
  let pg = 0;
  for (const [pid, ms] of after.backends) pg += ms - (before.backends.get(pid) ?? 0);
  return { node: after.node - before.node, pg, redis: after.redis - before.redis };
}

export interface LoadSpec {
  scenario: string;
  side: string;
  server: ChildServer;
  /** Builds each request (called once per request, from all connections in turn). */
  next: () => autocannon.Request;
  itemsPerRequest: number;
  /** Checks a 2xx body; a false answer fails the run. */
  check?: (body: string) => boolean;
  /**
   * Counts 503 answers (the service shedding load) in `Measurement.shed` instead of failing the
   * run on them; any other non-2xx answer still fails it.
   */
  countShed?: boolean;
}

export interface Measurement {
  scenario: string;
  side: string;
  requests: number;
  seconds: number;
  reqPerSec: number;
  itemsPerSec: number;
  p50: number;
  p99: number;
  /** Average response size (headers included). */
  bytesPerResponse: number;
  /** CPU ms per request, when it could be measured. */
  cpuPerRequest: Omit<CpuTimes, 'backends'> | undefined;
  /** 503 answers (LoadSpec.countShed), over all rounds; `requests` counts only the others. */
  shed: number;
  /** The side's resident set size in MB at the end of each round (Linux), when it could be read. */
  rssMb: number[];
  /**
   * Each interleaved round alone (its slice of this side), in the order they ran; `cpuNode`: the
   * Node process's CPU ms per request in that round, when it could be measured; `instructions`:
   * its main thread's instructions per request, under callgrind (BENCH_CALLGRIND).
   */
  rounds: { itemsPerSec: number; p50: number; p99: number; cpuNode?: number; instructions?: number }[];
}

interface Slice {
  requests: number;
  seconds: number;
  bytes: number;
  latencies: number[];
  cpu: Omit<CpuTimes, 'backends'> | undefined;
  shed: number;
  rssMb: number | undefined;
  /** The main thread's instructions, under callgrind. */
  instructions?: number;
}

/** The resident set size of a process in MB (Linux /proc), or undefined. */
export async function rssMb(pid: number): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One autocannon run; any non-2xx answer, socket error, timeout or failed check fails the benchmark. */
async function runSlice(
  spec: LoadSpec,
  opts: {
    connections: number;
    duration: number;
    /** A number of requests instead of a duration: every one is answered before the slice ends. */
    amount?: number;
    db: Knex;
    redis: Redis;
  },
): Promise<Slice> {
  let failedChecks = 0;
  let firstFailure = '';
  const latencies: number[] = [];
  const before = await cpuTimes(spec.server, opts.db, opts.redis);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.server.url,
        connections: opts.connections,
        ...(opts.amount ? { amount: opts.amount } : { duration: opts.duration }),
        timeout: 30,
        requests: [
          {
            setupRequest: (req) => ({ ...req, ...spec.next() }),
            onResponse: (status, body) => {
              if (status < 300 && spec.check && !spec.check(body)) {
                failedChecks += 1;
                firstFailure ||= body.slice(0, 500);
              }
            },
          },
        ],
      },
      (err: Error | null, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
  const shed = spec.countShed
    ? ((result.statusCodeStats as Record<string, { count: number }>)['503']?.count ?? 0)
    : 0;
  const problems = [
    result.non2xx - shed && `${result.non2xx} non-2xx responses ${JSON.stringify(result.statusCodeStats)}`,
    result.errors && `${result.errors} socket errors`,
    result.timeouts && `${result.timeouts} timeouts`,
    failedChecks && `${failedChecks} unexpected bodies, the first: ${firstFailure}`,
  ].filter(Boolean);
  if (problems.length) {
    throw new Error(
      `${spec.scenario} ${spec.side}: ${problems.join('; ')}\n` +
        `--- ${spec.server.name} output ---\n${spec.server.output()}`,
    );
  }
  // Requests cut off when the time was up still run on the server: let them finish.
  if (!opts.amount) await sleep(Math.min(5_000, Math.max(1_000, percentile(latencies, 0.99))));
  const after = await cpuTimes(spec.server, opts.db, opts.redis);
  return {
    // autocannon counts every response in requests.total; the shed ones did no work.
    requests: result.requests.total - shed,
    shed,
    rssMb: await rssMb(spec.server.pid),
    seconds: result.duration,
    bytes: result.throughput.total,
    latencies,
    cpu: before && after ? cpuDelta(before, after) : undefined,
  };
}

function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

function summary(spec: LoadSpec, slices: Slice[]): Measurement {
  const requests = slices.reduce((n, s) => n + s.requests, 0);
  const seconds = slices.reduce((n, s) => n + s.seconds, 0);
  const latencies = slices.flatMap((s) => s.latencies);
  const cpu = slices.every((s) => s.cpu) ? slices.map((s) => s.cpu!) : undefined;
  const perRequest = (key: 'node' | 'pg' | 'redis') => cpu!.reduce((sum, c) => sum + c[key], 0) / requests;
  return {
    scenario: spec.scenario,
    side: spec.side,
    requests,
    seconds,
    reqPerSec: requests / seconds,
    itemsPerSec: (requests * spec.itemsPerRequest) / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    bytesPerResponse: slices.reduce((n, s) => n + s.bytes, 0) / requests,
    cpuPerRequest: cpu && { node: perRequest('node'), pg: perRequest('pg'), redis: perRequest('redis') },
    shed: slices.reduce((n, s) => n + s.shed, 0),
    rssMb: slices.flatMap((s) => (s.rssMb === undefined ? [] : [s.rssMb])),
    rounds: slices.map((s) => ({
      itemsPerSec: (s.requests * spec.itemsPerRequest) / s.seconds,
      p50: percentile(s.latencies, 0.5),
      p99: percentile(s.latencies, 0.99),
      ...(s.cpu && s.requests > 0 ? { cpuNode: s.cpu.node / s.requests } : {}),
      ...(s.instructions !== undefined && s.requests > 0
        ? { instructions: s.instructions / s.requests }
        : {}),
    })),
  };
}

export interface PairOptions {
  connections: number;
  /** Measured seconds per side, split into `rounds` slices. */
  duration: number;
  warmup: number;
  rounds: number;
  db: Knex;
  redis: Redis;
}

/**
 * Measures two sides of a scenario after a warm-up of each, interleaved in rounds (A B, B A,
 * A B, …) so that a burst of load from elsewhere on the machine hits both alike.
 */
export async function measurePair(
  specs: [LoadSpec, LoadSpec],
  opts: PairOptions,
): Promise<[Measurement, Measurement]> {
  const [a, b] = await measureSides(specs, opts);
  return [a!, b!];
}

/**
 * measurePair for any number of sides: a warm-up of each, then `rounds` rounds in which every
 * side runs once, the order reversing from round to round and, with more than two sides,
 * rotating every other round (A B C, C B A, B C A, A C B, …)
 * so that no side always follows the same one. Each side's `rounds` holds its slice of every
 * round, so the ratio of two sides can be taken round by round.
 */
export async function measureSides(specs: LoadSpec[], opts: PairOptions): Promise<Measurement[]> {
  for (const spec of specs) await runSlice(spec, { ...opts, duration: opts.warmup });
  const slices: Slice[][] = specs.map(() => []);
  const n = specs.length;
  for (let round = 0; round < opts.rounds; round++) {
    for (const side of sideOrder(round, n)) {
      slices[side]!.push(await runSlice(specs[side]!, { ...opts, duration: opts.duration / opts.rounds }));
    }
  }
  return specs.map((spec, i) => summary(spec, slices[i]!));
}

/**
 * The order in which `n` sides run in a round: two sides A B, B A, A B, … (as measurePair always
 * ran); more also rotated every other round (A B C, C B A, B C A, A C B, …).
 */
function sideOrder(round: number, n: number): number[] {
  const shift = n > 2 ? Math.floor(round / 2) : 0;
  const rotated = Array.from({ length: n }, (_, i) => (i + shift) % n);
  return round % 2 ? rotated.reverse() : rotated;
}

/**
 * measureSides for sides that are modes of one process (tracing on or off, say) rather than
 * processes of their own: `start` starts process `index` and returns its load and a way to
 * switch its mode; each mode is warmed up, then in every round each mode runs once, in an order
 * that rotates from round to round (A B C, C B A, B C A, A C B, …), in each of `processes`
 * processes one after another. Two processes started from the same code differ by themselves —
 * the code the JIT made, the heap's layout — by 10–30 % in CPU per request for as long as they
 * live; modes of one process share all of it, so the ratio of two modes, round by round, is
 * what the modes differ by. A side's `rounds` holds its slice of every round of every process.
 */
export async function measureModes(
  start: (index: number) => Promise<{
    spec(mode: number): LoadSpec;
    setMode(mode: number): Promise<void>;
    stop(): Promise<void>;
  }>,
  modes: number,
  opts: PairOptions & {
    processes: number;
    /** Connections of the warm-up, when not `connections`. */
    warmupConnections?: number;
    /** Under callgrind (processes started with it): the requests of every warm-up and window. */
    callgrind?: { requests: number };
  },
): Promise<Measurement[]> {
  const slices: Slice[][] = Array.from({ length: modes }, () => []);
  let specs: LoadSpec[] = [];
  const duration = opts.duration / (opts.rounds * opts.processes);
  for (let index = 0; index < opts.processes; index++) {
    const started = await start(index);
    // The measured windows of each mode, to cut the processes' CPU profiles by mode.
    const windows: Window[][] = Array.from({ length: modes }, () => []);
    const requests: number[] = Array.from({ length: modes }, () => 0);
    try {
      specs = Array.from({ length: modes }, (_, mode) => started.spec(mode));
      const counter = specs[0]?.server.instructions;
      const amount = counter && opts.callgrind?.requests;
      for (let mode = 0; mode < modes; mode++) {
        await started.setMode(mode);
        await runSlice(specs[mode]!, {
          ...opts,
          duration: opts.warmup,
          amount,
          connections: opts.warmupConnections ?? opts.connections,
        });
      }
      for (let round = 0; round < opts.rounds; round++) {
        for (const mode of sideOrder(round, modes)) {
          await started.setMode(mode);
          await counter?.zero();
          const logSlice = await sliceLog(specs[mode]!.server);
          const start = profileClock();
          const slice = await runSlice(specs[mode]!, { ...opts, duration, amount });
          if (counter) slice.instructions = await counter.read();
          windows[mode]!.push({ start, end: profileClock() });
          requests[mode]! += slice.requests;
          slices[mode]!.push(slice);
          await logSlice?.(
            {
              process: index,
              round,
              position: sideOrder(round, modes).indexOf(mode),
              side: specs[mode]!.side,
            },
            slice,
          );
        }
      }
    } finally {
      await started.stop();
    }
    cutProfilesByMode(specs, windows, requests);
  }
  return specs.map((spec, i) => summary(spec, slices[i]!));
}

/**
 * Each mode's part of the CPU profile of the process it ran on, beside the profile:
 * `<profile>.<side>.cpuprofile`, with the requests it answered there (for cpuprofile-summary's
 * µs per request). Nothing without BENCH_CPU_PROF.
 */
function cutProfilesByMode(specs: LoadSpec[], windows: Window[][], requests: number[]): void {
  specs.forEach((spec, mode) => {
    const profile = spec.server.cpuProfile;
    if (!profile || !existsSync(profile)) return;
    const out = profile.replace(/\.cpuprofile$/, `.${spec.side.replace(/\W+/g, '-')}.cpuprofile`);
    const samples = cutProfile(profile, windows[mode]!, out);
    process.stdout.write(`  ${spec.side}: ${out} (${samples} samples, ${requests[mode]} requests)\n`);
  });
}

/**
 * measureSides with every side loaded at the same time, in each of `rounds` rounds (after a
 * warm-up of all at once): each side then meets the same machine — the same other processes,
 * caches and clock — so the ratio of two sides' CPU per request, round by round, holds even on a
 * busy shared machine, where back-to-back rounds drift apart. Throughput is shared between the
 * sides (they compete for the cores), so compare CPU per request, not requests per second.
 */
export async function measureConcurrently(specs: LoadSpec[], opts: PairOptions): Promise<Measurement[]> {
  await Promise.all(specs.map((spec) => runSlice(spec, { ...opts, duration: opts.warmup })));
  const slices: Slice[][] = specs.map(() => []);
  for (let round = 0; round < opts.rounds; round++) {
    const results = await Promise.all(
      specs.map((spec) => runSlice(spec, { ...opts, duration: opts.duration / opts.rounds })),
    );
    results.forEach((slice, i) => slices[i]!.push(slice));
  }
  return specs.map((spec, i) => summary(spec, slices[i]!));
}

/** Minimum, median and maximum of some values (the median of an even count: the mean of the middle two). */
export function spread(values: number[]): { min: number; median: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { min: sorted[0] ?? 0, median: median ?? 0, max: sorted[sorted.length - 1] ?? 0 };
}

/** A text table: the first `left` columns left-aligned, the others right-aligned. */
export function table(header: string[], rows: string[][], left = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < left ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

/** The targets this run missed (see `verdict`). */
const missedTargets: string[] = [];

/**
 * A figure against its target: records a miss and returns the word the report prints. A run
 * started with `--check` exits 1 at its end when any target was missed (the benchmark CI job,
 * `.ci/bench`); without it the report is all (exit 0 whatever the ratios).
 */
export function verdict(name: string, met: boolean, missedWord = 'BELOW'): string {
  if (!met) missedTargets.push(name);
  return met ? 'PASS' : missedWord;
}

/**
 * Runs a benchmark as a process: cleanup on success, failure and Ctrl-C; exit code 0 for a
 * report, 1 for an error or, with `--check`, for a missed target (`verdict`).
 */
export function runBenchmark<E>(
  name: string,
  env: () => E,
  run: (env: E, cleanup: Cleanup) => Promise<void>,
): void {
  const main = async (): Promise<void> => {
    const settings = env();
    const cleanup = new Cleanup();
    cleanup.onSignals();
    try {
      await run(settings, cleanup);
    } finally {
      await cleanup.run();
    }
    const recorded = await writeRecordIfAsked(name, REPO_ROOT);
    if (recorded) process.stdout.write(`recorded ${recorded}\n`);
    if (missedTargets.length > 0 && process.argv.includes('--check')) {
      throw new Error(`--check: targets missed: ${missedTargets.join('; ')}`);
    }
  };
  main().then(
    () => process.exit(0),
    (err: Error) => {
      process.stderr.write(`${name} failed: ${err.stack ?? err.message}\n`);
      process.exit(1);
    },
  );
}
