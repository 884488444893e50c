// npm run bench:worker — render-content jobs end to end (queued -> content stored) through the
// compiled generation worker (its own process, real Postgres and Redis) against a bare BullMQ
// worker that renders the same items with renderItem and writes the same rows with raw pg,
// set-based, in the same run; with BENCH_PIPELINE, imports through the catalogue API until every
// item is ready (worker-pipeline.ts). See README.md.
import { readFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { prepareDatabase } from '@catalogue/content-store';
import type { Knex } from '@catalogue/db';
import {
  closeQueues,
  createQueues,
  createRedis,
  DEFAULT_JOB_OPTIONS,
  enqueueMany,
  redisMarkerKey,
  type JobPayloads,
} from '@catalogue/queue';
import {
  Cleanup,
  cpuProfileArgs,
  cpuDelta,
  cpuTimes,
  createBenchDatabase,
  deleteKeys,
  freePort,
  positive,
  REPO_ROOT,
  startChild,
  type ChildServer,
  runBenchmark,
  verdict,
  imageNodeOptions,
} from './harness';
import { BARE_QUEUE } from './worker-baseline';
import { fixed, log, report, WARMUP_JOBS, type Run } from './worker-report';
import { seed, type BenchItem } from './worker-seed';
import { renderOnlyCpu } from './worker-render-only';
import { checkBareSql } from './worker-sql-check';
import { runPipeline } from './worker-pipeline';
import { figure } from './results';

/** Jobs per addBulk call, as one import request queues them. */
const ENQUEUE_BATCH = 100;
const POLL_MS = 20;

type Payload = JobPayloads['render-content'];

interface WorkerBenchEnv {
  jobs: number;
  rounds: number;
  concurrency: number;
  /** Items per render-content job (1: one job per item; 100: as an import request queues them). */
  jobSize: number;
  /** Seconds a run may take before the benchmark fails. */
  timeout: number;
  databaseUrl: string;
  redisUrl: string;
  cpuProfDir: string | undefined;
  /** The import → ready pipeline after the comparison (BENCH_PIPELINE=0: left out; `only`: alone). */
  pipeline: 'on' | 'off' | 'only';
  pipelineItems: number;
}

function workerBenchEnv(): WorkerBenchEnv {
  return {
    jobs: Math.round(positive('BENCH_JOBS', 2_000)),
    rounds: Math.round(positive('BENCH_ROUNDS', 3)),
    concurrency: Math.round(positive('BENCH_CONCURRENCY', 4)),
    jobSize: Math.round(positive('BENCH_JOB_SIZE', 100)),
    timeout: positive('BENCH_TIMEOUT', 120),
    databaseUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/catalogue',
    redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    cpuProfDir: process.env.BENCH_CPU_PROF || undefined,
    pipeline:
      process.env.BENCH_PIPELINE === '0' ? 'off' : process.env.BENCH_PIPELINE === 'only' ? 'only' : 'on',
    pipelineItems: Math.round(positive('BENCH_PIPELINE_ITEMS', 3_000)),
  };
}

/** One side of the benchmark: a worker process and the queue it consumes. */
interface Side {
  label: string;
  child: ChildServer;
  queue: Queue;
  enqueue: (payloads: Payload[]) => Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Every item back to `generate` without content, as if imported now; no finished jobs left in
 * the queues. `updated_at` is now: the worker's sweeper re-queues an item idle in `generate`
 * for five minutes, and on a loaded machine the items of later runs would wait that long
 * (rendered by the sweeper's jobs, outside the run, and counted as the run's).
 */
async function reset(db: Knex, sides: Side[]): Promise<void> {
  await db('content').delete();
  await db('products').update({ status: 'generate', is_loaded: false, updated_at: db.fn.now() });
  for (const side of sides) await side.queue.clean(0, 0, 'completed');
  await db.raw('vacuum analyze products, content');
}

async function readyCount(db: Knex): Promise<number> {
  const row = await db('products').where('status', 'ready').count<{ n: number }[]>({ n: '*' }).first();
  return row?.n ?? 0;
}

/** Fails the run at once when a job failed or waits for a retry. */
async function checkNoFailures(side: Side): Promise<void> {
  const counts = await side.queue.getJobCounts('failed', 'delayed');
  if (counts.failed || counts.delayed) {
    const [job] = [...(await side.queue.getFailed(0, 0)), ...(await side.queue.getDelayed(0, 0))];
    throw new Error(
      `${side.label}: ${counts.failed} failed and ${counts.delayed} retrying jobs, e.g. ` +
        `${job?.failedReason ?? '?'}\n--- ${side.child.name} output ---\n${side.child.output()}`,
    );
  }
}

/**
 * Queues one job per item (in addBulk calls of 100) and waits until every item is `ready`;
 * the time is taken from the first enqueue to the poll that saw the last item ready. Then
 * checks every item has its content row and waits until the worker is idle.
 */
async function runOnce(
  side: Side,
  items: BenchItem[],
  ctx: { db: Knex; redis: Redis; timeout: number; jobSize: number },
): Promise<Run> {
  // Jobs of `jobSize` items of one eshop (an import request of up to 100 items queues one job).
  const byEshop = new Map<number, BenchItem[]>();
  for (const item of items) {
    const own = byEshop.get(item.eshopId) ?? [];
    own.push(item);
    byEshop.set(item.eshopId, own);
  }
  const payloads: Payload[] = [...byEshop].flatMap(([eshopId, own]) =>
    Array.from({ length: Math.ceil(own.length / ctx.jobSize) }, (_, i) => ({
      eshop_id: eshopId,
      entity_type: 'product' as const,
      external_ids: own.slice(i * ctx.jobSize, (i + 1) * ctx.jobSize).map((item) => item.externalId),
    })),
  );
  const before = await cpuTimes(side.child, ctx.db, ctx.redis);
  const benchBefore = process.cpuUsage();
  const started = performance.now();
  for (let start = 0; start < payloads.length; start += ENQUEUE_BATCH) {
    await side.enqueue(payloads.slice(start, start + ENQUEUE_BATCH));
  }
  for (let polls = 1; ; polls++) {
    const ready = await readyCount(ctx.db);
    if (ready >= items.length) break;
    if (polls % 25 === 0) await checkNoFailures(side);
    if (performance.now() - started > ctx.timeout * 1000) {
      throw new Error(
        `${side.label}: ${ready} of ${items.length} items ready after ${ctx.timeout} s (BENCH_TIMEOUT)\n` +
          `--- ${side.child.name} output ---\n${side.child.output()}`,
      );
    }
    await sleep(POLL_MS);
  }
  const seconds = (performance.now() - started) / 1000;
  const bench = process.cpuUsage(benchBefore);
  const after = await cpuTimes(side.child, ctx.db, ctx.redis);

  const { rows } = await ctx.db.raw<{ rows: { items: number; loaded: number; content: number }[] }>(
    `select count(*)::int as items, count(*) filter (where p.is_loaded)::int as loaded,
            count(*) filter (where jsonb_exists_all(c.html, array['default', 'cs', 'en'])
                               and jsonb_exists_all(c.rich_snippet->'html', array['default', 'cs', 'en']))::int as content
       from products p
       left join content c on c.eshop_id = p.eshop_id and c.entity_type = 'product' and c.external_id = p.external_id
      where p.status = 'ready'`,
  );
  const check = rows[0];
  if (check?.items !== items.length || check.loaded !== items.length || check.content !== items.length) {
    throw new Error(`${side.label}: stored content does not match: ${JSON.stringify(check)}`);
  }
  for (const deadline = Date.now() + 10_000; ;) {
    const counts = await side.queue.getJobCounts('active', 'wait');
    if (!counts.active && !counts.wait) break;
    if (Date.now() > deadline) throw new Error(`${side.label}: jobs left ${JSON.stringify(counts)}`);
    await sleep(POLL_MS);
  }
  await checkNoFailures(side);
  return {
    side: side.label,
    jobs: items.length,
    seconds,
    cpu: before && after && { ...cpuDelta(before, after), bench: (bench.user + bench.system) / 1000 },
  };
}

async function machine(db: Knex, redis: Redis): Promise<string> {
  const cores = cpus();
  const pg = (await db.raw<{ rows: { v: string }[] }>(`select current_setting('server_version') as v`))
    .rows[0]?.v;
  const info = await redis.info('server');
  const redisVersion = /redis_version:(\S+)/.exec(info)?.[1];
  return (
    `${cores.length} × ${cores[0]?.model.trim()}, Node ${process.version}, PostgreSQL ${pg?.split(' ')[0]}, Redis ${redisVersion}` +
    ' (both workers, Postgres, Redis and the benchmark share them)'
  );
}

/** Target 3 of the worker: its resident memory while rendering, however it was started. */
const WORKER_RSS_TARGET_MB = 300;

/** The process's peak resident memory since it started (VmHWM), as a figure against the target. */
async function peakRssFigure(child: ChildServer, started: string): Promise<void> {
  const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
  const kb = Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1]);
  const mb = kb / 1024;
  const met = mb <= WORKER_RSS_TARGET_MB;
  log(
    `generation-worker (${started}): peak RSS ${fixed(mb)} MiB, target ≤ ${WORKER_RSS_TARGET_MB} MiB: ` +
      verdict(`generation-worker peak RSS, ${started}`, met, 'ABOVE'),
  );
  figure({
    name: `generation-worker peak RSS while rendering, ${started}`,
    unit: 'MiB',
    min: mb,
    median: mb,
    max: mb,
    target: `<= ${WORKER_RSS_TARGET_MB} MiB`,
    met,
  });
}

/** Node flags for BENCH_CPU_PROF: one profile per process, replaced by the next run. */
async function run(env: WorkerBenchEnv, cleanup: Cleanup): Promise<void> {
  const runId = `${process.pid}`;
  const queuePrefix = `catalogue-bench-${runId}`;
  const { url, db } = await createBenchDatabase(env.databaseUrl, `catalogue_bench_${runId}`, cleanup);
  cleanup.defer(
    `delete Redis keys ${queuePrefix}:*`,
    async () => void (await deleteKeys(env.redisUrl, queuePrefix)),
  );
  // The seeded designs are what the worker composes with.
  await prepareDatabase(db);

  log(`seeding ${fixed(env.jobs)} products (jobs of ${env.jobSize} items)…`);
  const seedStarted = performance.now();
  const items = await seed(db, env.jobs);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const pair = items.filter((item) => item.eshopId === items[0]!.eshopId).slice(0, 2);
  const statements = await checkBareSql(db, url, [pair[0]!, pair[1]!]);

  const nodeOptions = imageNodeOptions();
  const common = {
    // Both workers as the image runs its processes (BENCH_WORKER_PLAIN adds a run without).
    NODE_OPTIONS: nodeOptions,
    DATABASE_URL: url,
    REDIS_URL: env.redisUrl,
    QUEUE_PREFIX: queuePrefix,
    WORKER_CONCURRENCY: String(env.concurrency),
    NODE_ENV: 'production',
    // A loaded machine: the stall check (2 s) closes the connections of jobs held longer, and a
    // new connection may take longer than the connect timeout; either retries a job.
    ...(process.env.DATABASE_STALL_CHECK_MS && {
      DATABASE_STALL_CHECK_MS: process.env.DATABASE_STALL_CHECK_MS,
    }),
    ...(process.env.DATABASE_CONNECT_TIMEOUT_MS && {
      DATABASE_CONNECT_TIMEOUT_MS: process.env.DATABASE_CONNECT_TIMEOUT_MS,
    }),
  };
  const redis = createRedis(env.redisUrl, 'worker-bench');
  cleanup.defer('close Redis connection', async () => redis.disconnect());
  // The run's queue prefix is new, not a Redis that lost its data: without the marker the worker's
  // first start queues a recovery sweep (watchRedisLoss), which queues a render job for every
  // seeded item in `generate` and renders items outside the measured run.
  await redis.set(redisMarkerKey(queuePrefix), 'bench:worker');
  const [workerPort, barePort] = await Promise.all([freePort(), freePort()]);
  const worker = await startChild({
    // Also the application_name of its Postgres connections (buildBaseDeps).
    name: 'generation-worker',
    script: join(REPO_ROOT, 'services', 'generation-worker', 'dist', 'main.js'),
    port: workerPort,
    env: { ...common, GENERATION_WORKER_PORT: String(workerPort), LOG_LEVEL: 'info' },
    nodeArgs: cpuProfileArgs(env.cpuProfDir, 'generation-worker'),
    cleanup,
  });
  const bare = await startChild({
    name: 'bare-worker',
    script: join(__dirname, 'worker-baseline.js'),
    port: barePort,
    env: { ...common, PORT: String(barePort) },
    nodeArgs: cpuProfileArgs(env.cpuProfDir, 'bare-worker'),
    cleanup,
  });

  const queues = createQueues(redis, queuePrefix);
  const bareQueue = new Queue<Payload>(BARE_QUEUE, {
    connection: redis,
    prefix: queuePrefix,
    defaultJobOptions: DEFAULT_JOB_OPTIONS,
  });
  cleanup.defer('close queues', async () => {
    await closeQueues(queues);
    await bareQueue.close();
  });
  const sides: Side[] = [
    {
      label: 'generation-worker',
      child: worker,
      queue: queues['render-content'],
      enqueue: (payloads) => enqueueMany(queues, 'render-content', payloads),
    },
    {
      label: 'bare worker',
      child: bare,
      queue: bareQueue,
      // A plain addBulk with the default options: the bare worker takes no places in eshops'
      // lines (enqueueMany, like imports, queues render jobs fairly: libs/queue fair.ts).
      enqueue: async (payloads) =>
        void (await bareQueue.addBulk(payloads.map((data) => ({ name: 'render-content', data, opts: {} })))),
    },
  ];
  const ctx = { db, redis, timeout: env.timeout, jobSize: env.jobSize };

  /** The generation worker started as plain `node` or `npm start` starts it (no NODE_OPTIONS) renders every item once. */
  const plainPhase = async (): Promise<void> => {
    if (process.env.BENCH_WORKER_PLAIN === '0') return;
    await worker.stop();
    await reset(db, sides);
    log('');
    log(`the generation worker started without NODE_OPTIONS renders the ${fixed(items.length)} items once…`);
    const plainPort = await freePort();
    const plain = await startChild({
      name: 'generation-worker',
      script: join(REPO_ROOT, 'services', 'generation-worker', 'dist', 'main.js'),
      port: plainPort,
      env: { ...common, NODE_OPTIONS: '', GENERATION_WORKER_PORT: String(plainPort), LOG_LEVEL: 'info' },
      cleanup,
    });
    const run = await runOnce({ ...sides[0]!, child: plain }, items, ctx);
    log(`plain node: ${fixed(run.jobs / run.seconds)} items/s`);
    await peakRssFigure(plain, 'plain node, no NODE_OPTIONS');
  };

  if (env.pipeline === 'only') {
    await runPipeline(
      { items: env.pipelineItems, rounds: env.rounds, eshops: 2, timeout: env.timeout },
      {
        db,
        redis,
        url,
        redisUrl: env.redisUrl,
        queuePrefix,
        worker,
        bare,
        concurrency: env.concurrency,
        nodeOptions,
        cleanup,
      },
    );
    await peakRssFigure(worker, 'image NODE_OPTIONS');
    await plainPhase();
    return;
  }
  await reset(db, sides);
  const warmup = items.slice(0, WARMUP_JOBS);
  log(`warm-up: ${warmup.length} jobs on each side…`);
  for (const side of sides) {
    await runOnce(side, warmup, ctx);
    await reset(db, sides);
  }
  const rounds: Run[][] = [];
  for (let round = 0; round < env.rounds; round++) {
    const order = round % 2 ? [sides[1]!, sides[0]!] : sides;
    const runs: Run[] = [];
    for (const side of order) {
      runs.push(await runOnce(side, items, ctx));
      await reset(db, sides);
    }
    rounds.push(runs);
    log(
      `round ${round + 1}/${env.rounds}: ` +
        runs.map((r) => `${r.side} ${fixed(r.jobs / r.seconds)} items/s`).join(', '),
    );
  }
  log('render only: composing and rendering the same items in this process…');
  const renderOnly = await renderOnlyCpu(db, items, env.rounds);
  report(env, await machine(db, redis), { seconds: seedSeconds, statements }, sides, rounds, renderOnly);
  if (env.pipeline === 'on') {
    // The comparison's items wait in `generate` after the last reset: out of the sweeper's reach
    // while the pipeline runs (minutes on a loaded machine), or the worker renders them too.
    await db('products').update({ status: 'ready' });
    log('');
    await runPipeline(
      { items: env.pipelineItems, rounds: env.rounds, eshops: 2, timeout: env.timeout },
      {
        db,
        redis,
        url,
        redisUrl: env.redisUrl,
        queuePrefix,
        worker,
        bare,
        concurrency: env.concurrency,
        nodeOptions,
        cleanup,
      },
    );
  }
  await peakRssFigure(worker, 'image NODE_OPTIONS');
  await plainPhase();
  if (env.cpuProfDir) {
    log(
      `\nCPU profiles (written as the processes stop): ${env.cpuProfDir}/{generation-worker,bare-worker}.cpuprofile`,
    );
  }
}

runBenchmark('bench:worker', workerBenchEnv, run);
