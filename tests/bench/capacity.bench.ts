// npm run bench:capacity — the measured constants of the capacity model (docs/scaling.md): per
// process throughput and CPU of imports, render-content and the v2 list with 1 and 2 processes of
// each service, and the database and Redis load per unit of work. The services run compiled, as
// child processes, on the run's own database (behind a counting relay: pg-counter.ts) and a
// private Redis (its INFO is theirs alone). Writes docs/capacity-constants.json (or
// BENCH_CAPACITY_OUT), which `npm run capacity` reads.
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import type { Redis } from 'ioredis';
import { prepareDatabase } from '@catalogue/content-store';
import { withDatabase, type Knex } from '@catalogue/db';
import { closeQueues, createQueues, createRedis } from '@catalogue/queue';
import { startPrivateRedis } from '@catalogue/testing';
import { productId, productItem, LANGUAGES } from './fixtures';
import {
  Cleanup,
  createBenchDatabase,
  createBenchEshop,
  freePort,
  positive,
  REPO_ROOT,
  runBenchmark,
  startChild,
  imageNodeOptions,
  importParameters,
  REALISTIC,
  type ChildServer,
} from './harness';
import { startPgCounter, type PgCounter } from './pg-counter';
import type { CapacityConstants, UnitLoad } from './capacity-model';

const BATCH = 100;
const ESHOPS = 2;

interface CapacityEnv {
  /** Import requests of 100 new products per replica count (they are then rendered). */
  importRequests: number;
  /** Seconds of list load per replica count. */
  listSeconds: number;
  connections: number;
  replicas: number[];
  databaseUrl: string;
  out: string;
}

function capacityEnv(): CapacityEnv {
  const replicas = (process.env.BENCH_REPLICAS ?? '1,2').split(',').map(Number);
  if (!replicas.every((r) => Number.isInteger(r) && r > 0)) throw new Error('BENCH_REPLICAS: e.g. 1,2');
  return {
    importRequests: Math.round(positive('BENCH_IMPORT_REQUESTS', 40)),
    listSeconds: positive('BENCH_DURATION', 10),
    connections: Math.round(positive('BENCH_CONNECTIONS', 8)),
    replicas,
    databaseUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/catalogue',
    out: process.env.BENCH_CAPACITY_OUT || join(REPO_ROOT, 'docs', 'capacity-constants.json'),
  };
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function processCpuMs(pid: number): Promise<number> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

interface Snapshot {
  at: number;
  node: number;
  backends: Map<number, number>;
  redisCpuMs: number;
  redisCommands: number;
  redisBytes: number;
  pg: ReturnType<PgCounter['counts']>;
}

interface Probe {
  db: Knex;
  redis: Redis;
  counter: PgCounter;
}

/** CPU of the given processes and of their Postgres backends, Redis and relay counters. */
async function snapshot(probe: Probe, children: ChildServer[]): Promise<Snapshot> {
  let node = 0;
  for (const child of children) node += await processCpuMs(child.pid);
  const { rows } = await probe.db.raw<{ rows: { pid: number }[] }>(
    'select pid from pg_stat_activity where datname = current_database() and application_name = any(?)',
    [[...new Set(children.map((c) => c.name))]],
  );
  const backends = new Map<number, number>();
  for (const { pid } of rows) backends.set(pid, await processCpuMs(pid));
  const info = await probe.redis.info();
  const num = (key: string) => Number(new RegExp(`^${key}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return {
    at: performance.now(),
    node,
    backends,
    redisCpuMs: (num('used_cpu_sys') + num('used_cpu_user')) * 1000,
    redisCommands: num('total_commands_processed'),
    redisBytes: num('total_net_input_bytes') + num('total_net_output_bytes'),
    pg: probe.counter.counts(),
  };
}

interface Delta {
  seconds: number;
  load: UnitLoad;
}

/** What happened between two snapshots, in total (divide by the units of work). */
function delta(a: Snapshot, b: Snapshot): Delta {
  let pg = 0;
  for (const [pid, ms] of b.backends) pg += ms - (a.backends.get(pid) ?? 0);
  return {
    seconds: (b.at - a.at) / 1000,
    load: {
      nodeCpuMs: b.node - a.node,
      pgCpuMs: pg,
      redisCpuMs: b.redisCpuMs - a.redisCpuMs,
      pgStatements: b.pg.statements - a.pg.statements,
      pgRoundTrips: b.pg.roundTrips - a.pg.roundTrips,
      pgBytes: b.pg.bytesToServer - a.pg.bytesToServer + (b.pg.bytesFromServer - a.pg.bytesFromServer),
      // Our own INFO call is one command: negligible next to the services' thousands.
      redisCommands: b.redisCommands - a.redisCommands,
      redisBytes: b.redisBytes - a.redisBytes,
    },
  };
}

function per(load: UnitLoad, units: number): UnitLoad {
  return Object.fromEntries(
    Object.entries(load).map(([k, v]) => [k, round(v / units)]),
  ) as unknown as UnitLoad;
}

function round(value: number): number {
  return Number(value.toPrecision(4));
}

async function usedMemory(redis: Redis): Promise<number> {
  return Number(/^used_memory:(\d+)/m.exec(await redis.info('memory'))?.[1] ?? 0);
}

/** Runs autocannon against each server at once (connections split between them); fails on any error. */
async function load(
  servers: ChildServer[],
  opts: { connections: number; amount?: number; duration?: number },
  next: (i: number) => autocannon.Request,
): Promise<number> {
  let n = 0;
  const results = await Promise.all(
    servers.map((server) => {
      const amount = opts.amount && Math.ceil(opts.amount / servers.length);
      const connections = Math.max(1, Math.round(opts.connections / servers.length));
      return new Promise<autocannon.Result>((resolve, reject) => {
        autocannon(
          {
            url: server.url,
            connections: amount ? Math.min(amount, connections) : connections,
            ...(amount ? { amount } : {}),
            ...(opts.duration ? { duration: opts.duration } : {}),
            timeout: 60,
            requests: [{ setupRequest: (req) => ({ ...req, ...next(n++) }) }],
          },
          (err: Error | null, res) => (err ? reject(err) : resolve(res)),
        );
      });
    }),
  );
  const bad = results.filter((r) => r.non2xx || r.errors || r.timeouts);
  if (bad.length) {
    throw new Error(
      `load failed: ${JSON.stringify(bad.map((r) => r.statusCodeStats))}\n${servers.map((s) => s.output()).join('\n')}`,
    );
  }
  return results.reduce((sum, r) => sum + r.requests.total, 0);
}

async function waitReady(db: Knex, total: number, timeoutS: number): Promise<void> {
  const deadline = performance.now() + timeoutS * 1000;
  for (;;) {
    const row = await db('products').where('status', 'ready').count<{ n: string }[]>({ n: '*' }).first();
    if (Number(row?.n ?? 0) >= total) return;
    if (performance.now() > deadline)
      throw new Error(`only ${row?.n} of ${total} products ready after ${timeoutS} s`);
    await sleep(100);
  }
}

async function run(env: CapacityEnv, cleanup: Cleanup): Promise<void> {
  const loadBefore = loadavg();
  const runId = `${process.pid}`;
  const queuePrefix = `capacity-bench-${runId}`;
  const { url, db } = await createBenchDatabase(env.databaseUrl, `catalogue_bench_${runId}`, cleanup);
  await prepareDatabase(db);
  const redisServer = await startPrivateRedis();
  cleanup.defer('stop private Redis', () => redisServer.stop());
  const pgTarget = new URL(url);
  const counter = await startPgCounter({ host: pgTarget.hostname, port: Number(pgTarget.port || 5432) });
  cleanup.defer('close pg relay', () => counter.close());
  const relayed = withDatabase(
    `postgres://${pgTarget.username}@127.0.0.1:${counter.port}/postgres`,
    pgTarget.pathname.slice(1),
  );
  const redis = createRedis(redisServer.url, 'capacity-bench');
  cleanup.defer('close Redis connection', async () => redis.disconnect());
  const queues = createQueues(redis, queuePrefix);
  cleanup.defer('close queues', () => closeQueues(queues));
  const probe: Probe = { db, redis, counter };

  const eshops: { id: number; token: string }[] = [];
  for (let i = 1; i <= ESHOPS; i++)
    eshops.push(await createBenchEshop(db, `Capacity eshop ${i}`, [...LANGUAGES], REALISTIC));
  const common = {
    DATABASE_URL: relayed,
    REDIS_URL: redisServer.url,
    QUEUE_PREFIX: queuePrefix,
    NODE_ENV: 'production',
    NODE_OPTIONS: imageNodeOptions(),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_READ_PER_MINUTE: '1000000',
    RATE_LIMIT_WRITE_PER_MINUTE: '1000000',
  };
  const maxReplicas = Math.max(...env.replicas);
  const apis: ChildServer[] = [];
  for (let i = 0; i < maxReplicas; i++) {
    const port = await freePort();
    apis.push(
      await startChild({
        name: 'catalogue-api',
        script: join(REPO_ROOT, 'services', 'catalogue-api', 'dist', 'main.js'),
        port,
        env: { ...common, CATALOGUE_API_PORT: String(port) },
        cleanup,
      }),
    );
  }
  for (const eshop of eshops) await importParameters(apis[0]!.url, eshop.token);
  const baseBytes = await usedMemory(redis);
  const startWorkers = async (count: number): Promise<ChildServer[]> => {
    const started: ChildServer[] = [];
    for (let i = 0; i < count; i++) {
      const port = await freePort();
      started.push(
        await startChild({
          name: 'generation-worker',
          script: join(REPO_ROOT, 'services', 'generation-worker', 'dist', 'main.js'),
          port,
          env: { ...common, GENERATION_WORKER_PORT: String(port) },
          cleanup,
        }),
      );
    }
    return started;
  };

  const json = { 'content-type': 'application/json', accept: 'application/json' };
  let imported = 0;
  let nextId = 0;
  const result: Record<
    'import' | 'render' | 'list',
    { replicas: CapacityConstants['import']['replicas']; load: UnitLoad[] }
  > = {
    import: { replicas: {}, load: [] },
    render: { replicas: {}, load: [] },
    list: { replicas: {}, load: [] },
  };
  const queueMemory: { perJob: number[]; perRetainedJob: number[] } = { perJob: [], perRetainedJob: [] };

  for (const r of env.replicas) {
    // Imports: new products, 100 a request, no worker running (their render jobs wait).
    log(
      `import: ${env.importRequests} requests of ${BATCH} new products through ${r} catalogue-api process(es)…`,
    );
    const servers = apis.slice(0, r);
    const memBefore = await usedMemory(redis);
    const before = await snapshot(probe, servers);
    const requests = await load(
      servers,
      { connections: env.connections, amount: env.importRequests },
      (i) => {
        const eshop = eshops[i % ESHOPS]!;
        const items = Array.from({ length: BATCH }, () => productItem(productId('C', ++nextId), 0, true));
        return {
          method: 'POST',
          path: '/api/v2/rest/products',
          headers: { ...json, authorization: `Bearer ${eshop.token}` },
          body: JSON.stringify(items),
        };
      },
    );
    const after = await snapshot(probe, servers);
    const items = requests * BATCH;
    imported += items;
    const d = delta(before, after);
    result.import.replicas[r] = {
      perSecond: round(items / d.seconds),
      cpuMsPerUnit: round(d.load.nodeCpuMs / items),
    };
    result.import.load.push(per(d.load, items));
    queueMemory.perJob.push(((await usedMemory(redis)) - memBefore) / requests);
    log(`  ${items} items in ${d.seconds.toFixed(1)} s: ${(items / d.seconds).toFixed(0)} items/s`);

    // Render: `r` workers consume the waiting jobs (the queue is paused until they are up).
    log(`render: ${items} products through ${r} generation-worker process(es)…`);
    await queues['render-content'].pause();
    const workers = await startWorkers(r);
    const rBefore = await snapshot(probe, workers);
    await queues['render-content'].resume();
    await waitReady(db, imported, 600);
    const rAfter = await snapshot(probe, workers);
    const counts = await queues['render-content'].getJobCounts('failed', 'delayed', 'completed');
    if (counts.failed || counts.delayed) throw new Error(`render jobs failed: ${JSON.stringify(counts)}`);
    const rd = delta(rBefore, rAfter);
    result.render.replicas[r] = {
      perSecond: round(items / rd.seconds),
      cpuMsPerUnit: round(rd.load.nodeCpuMs / items),
    };
    result.render.load.push(per(rd.load, items));
    // Finished jobs are kept (removeOnComplete): what one costs, from the memory the queue kept.
    // (the queue held no finished job before this round's imports).
    queueMemory.perRetainedJob.push(((await usedMemory(redis)) - memBefore) / Math.max(1, counts.completed!));
    log(`  ${items} items in ${rd.seconds.toFixed(1)} s: ${(items / rd.seconds).toFixed(0)} items/s`);
    for (const w of workers) await w.stop();
    await queues['render-content'].clean(0, 0, 'completed');
  }

  await db.raw('vacuum analyze');
  const perEshop = Math.floor(imported / ESHOPS);
  const pages = Math.max(1, Math.floor(perEshop / BATCH));
  for (const r of env.replicas) {
    log(
      `list: ${env.listSeconds} s of GET /api/v2/rest/products (100 a page, lang=all) on ${r} catalogue-api process(es)…`,
    );
    const servers = apis.slice(0, r);
    const before = await snapshot(probe, servers);
    const requests = await load(
      servers,
      { connections: env.connections, duration: env.listSeconds },
      (i) => ({
        method: 'GET',
        path: `/api/v2/rest/products?per_page=${BATCH}&lang=all&include=nested,marketplace,variant&page=${1 + (i % pages)}`,
        headers: { accept: 'application/json', authorization: `Bearer ${eshops[i % ESHOPS]!.token}` },
      }),
    );
    await sleep(1_000);
    const after = await snapshot(probe, servers);
    const d = delta(before, after);
    result.list.replicas[r] = {
      perSecond: round(requests / d.seconds),
      cpuMsPerUnit: round(d.load.nodeCpuMs / requests),
    };
    result.list.load.push(per(d.load, requests));
    log(`  ${requests} requests in ${d.seconds.toFixed(1)} s: ${(requests / d.seconds).toFixed(1)} req/s`);
  }

  const size = await db.raw<{ rows: { bytes: string; products: string }[] }>(
    'select pg_database_size(current_database()) as bytes, (select count(*) from products) as products',
  );
  const emptyDb = await db.raw<{ rows: { bytes: string }[] }>(
    "select pg_database_size('template1') as bytes",
  );
  const versions = await db.raw<{ rows: { server_version: string }[] }>('show server_version');
  const redisVersion = /^redis_version:(\S+)/m.exec(await redis.info('server'))?.[1] ?? '?';
  const mean = (loads: UnitLoad[]): UnitLoad =>
    per(
      loads.reduce(
        (sum, l) =>
          Object.fromEntries(
            Object.entries(sum).map(([k, v]) => [k, v + l[k as keyof UnitLoad]]),
          ) as unknown as UnitLoad,
        {
          nodeCpuMs: 0,
          pgCpuMs: 0,
          redisCpuMs: 0,
          pgStatements: 0,
          pgRoundTrips: 0,
          pgBytes: 0,
          redisCommands: 0,
          redisBytes: 0,
        },
      ),
      loads.length,
    );
  const avg = (values: number[]) => round(values.reduce((a, b) => a + b, 0) / values.length);
  const constants: CapacityConstants = {
    measured: {
      at: new Date().toISOString(),
      command: 'npm run bench:capacity',
      settings: `BENCH_IMPORT_REQUESTS=${env.importRequests} BENCH_DURATION=${env.listSeconds} BENCH_CONNECTIONS=${env.connections} BENCH_REPLICAS=${env.replicas.join(',')}`,
      machine: `${cpus().length} × ${cpus()[0]?.model.trim() ?? '?'}, Node ${process.version}, PostgreSQL ${versions.rows[0]!.server_version}, Redis ${redisVersion}; services, PostgreSQL, Redis and the load generator share the cores`,
      loadAverage: { before: loadBefore.map(round), after: loadavg().map(round) },
      languages: LANGUAGES.length,
    },
    import: { unit: 'item', replicas: result.import.replicas, perUnit: mean(result.import.load) },
    render: { unit: 'item', replicas: result.render.replicas, perUnit: mean(result.render.load) },
    list: { unit: 'request of 100 items', replicas: result.list.replicas, perUnit: mean(result.list.load) },
    redis: {
      baseBytes,
      bytesPerQueuedJob: avg(queueMemory.perJob),
      itemsPerJob: BATCH,
      bytesPerRetainedJob: avg(queueMemory.perRetainedJob),
    },
    storage: {
      bytesPerProduct: round(
        (Number(size.rows[0]!.bytes) - Number(emptyDb.rows[0]!.bytes)) / Number(size.rows[0]!.products),
      ),
    },
  };
  await writeFile(env.out, `${JSON.stringify(constants, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(constants, null, 2)}\n`);
  log(`written to ${env.out}`);
}

runBenchmark('bench:capacity', capacityEnv, run);
