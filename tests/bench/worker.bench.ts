// npm run bench:worker — render-content jobs end to end (queued -> content stored) through the
// compiled generation worker (its own process, real Postgres and Redis) against a bare BullMQ
// worker doing the same database write without composing or rendering, in the same run.
// See README.md.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  catalogueRepository,
  eshopsRepository,
  parametersRepository,
  prepareDatabase,
  variantsRepository,
  type EntityWrite,
  type Knex,
} from '@catalogue/db';
import { renderContent } from '@catalogue/generation-worker/dist/services/render.service';
import {
  closeQueues,
  createQueues,
  createRedis,
  DEFAULT_JOB_OPTIONS,
  enqueueMany,
  type JobPayloads,
} from '@catalogue/queue';
import { LANGUAGES, productId, productItem } from './fixtures';
import {
  Cleanup,
  cpuDelta,
  cpuTimes,
  createBenchDatabase,
  deleteKeys,
  freePort,
  positive,
  REPO_ROOT,
  startChild,
  table,
  type ChildServer,
  type CpuTimes,
  runBenchmark,
} from './harness';
import { BARE_QUEUE } from './worker-baseline';
import {
  contentFromBindings,
  ESHOP_SQL,
  eshopBindings,
  LOCK_ITEM_SQL,
  lockItemBindings,
  MARK_RENDERED_SQL,
  markRenderedBindings,
  UPSERT_CONTENT_SQL,
  upsertContentBindings,
  type ContentColumns,
} from './worker-baseline-sql';

const TARGET = 0.5;
const ESHOPS = 2;
const BRANDS_PER_ESHOP = 20;
const PARAMETERS_PER_ESHOP = 30;
const VALUES_PER_PARAMETER = 4;
const PARAMETERS_PER_PRODUCT = 6;
/** Jobs per addBulk call, as one import request queues them. */
const ENQUEUE_BATCH = 100;
const WARMUP_JOBS = 200;
const POLL_MS = 20;

type Payload = JobPayloads['render-content'];
type Lang = (typeof LANGUAGES)[number];

interface WorkerBenchEnv {
  jobs: number;
  rounds: number;
  concurrency: number;
  /** Seconds a run may take before the benchmark fails. */
  timeout: number;
  databaseUrl: string;
  redisUrl: string;
  cpuProfDir: string | undefined;
}

function workerBenchEnv(): WorkerBenchEnv {
  return {
    jobs: Math.round(positive('BENCH_JOBS', 2_000)),
    rounds: Math.round(positive('BENCH_ROUNDS', 3)),
    concurrency: Math.round(positive('BENCH_CONCURRENCY', 4)),
    timeout: positive('BENCH_TIMEOUT', 120),
    databaseUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/catalogue',
    redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    cpuProfDir: process.env.BENCH_CPU_PROF || undefined,
  };
}

interface BenchItem {
  eshopId: number;
  externalId: string;
}

/** One side of the benchmark: a worker process and the queue it consumes. */
interface Side {
  label: string;
  child: ChildServer;
  queue: Queue;
  enqueue: (payloads: Payload[]) => Promise<void>;
}

interface Run {
  side: string;
  jobs: number;
  seconds: number;
  /** CPU ms of the whole run, when it could be measured. */
  cpu: (Omit<CpuTimes, 'backends'> & { bench: number }) | undefined;
}

const log = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function range(from: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => from + i);
}

const perLang = (f: (lang: Lang) => string) => Object.fromEntries(LANGUAGES.map((l) => [l, f(l)]));

const PARAMETER_NAMES = ['Weight', 'Width', 'Height', 'Material', 'Colour', 'Warranty', 'Capacity'];
const BRAND_NAME: Record<Lang, string> = { default: 'Značka', cs: 'Značka', en: 'Brand' };

/**
 * Two eshops with the languages default, cs, en; per eshop 20 brands and 30 parameters of 4
 * values; `count` products alternating between the eshops, each as the v2 import stores it:
 * name, short description, description (about 0.8 KB) and url in 3 languages, 3 images, a
 * brand, 6 parameters and 2 variants, status `generate`. Returns the items in job order.
 */
async function seed(db: Knex, count: number): Promise<BenchItem[]> {
  const eshopIds: number[] = [];
  for (const n of range(1, ESHOPS)) {
    const eshop = await eshopsRepository.create(db, {
      name: `Worker bench eshop ${n}`,
      languages: ['default', 'cs', 'en'],
      enableSiteLink: true,
      enableRichSnippet: true,
      reviewRequired: false,
      licenceValidUntil: null,
    });
    eshopIds.push(eshop.id);
  }
  const items = range(1, count).map((n) => ({
    eshopId: eshopIds[(n - 1) % ESHOPS]!,
    externalId: productId('P', n),
  }));
  await db.transaction(async (trx) => {
    for (const eshopId of eshopIds) {
      await catalogueRepository.upsert(
        trx,
        'brand',
        eshopId,
        range(1, BRANDS_PER_ESHOP).map((b) => ({
          externalId: `B${b}`,
          isVisible: true,
          status: 'ready',
          fields: {
            name: perLang((l) => `${BRAND_NAME[l]} ${b}`),
            description: perLang((l) => `<p>${BRAND_NAME[l]} ${b}</p>`),
          },
        })),
      );
      await parametersRepository.upsert(
        trx,
        eshopId,
        range(1, PARAMETERS_PER_ESHOP).map((p) => ({
          externalId: p,
          name: `${PARAMETER_NAMES[p % PARAMETER_NAMES.length]} ${p}`,
        })),
        range(1, PARAMETERS_PER_ESHOP).flatMap((p) =>
          range(1, VALUES_PER_PARAMETER).map((v) => ({
            parameterExternalId: p,
            externalId: v,
            value: `${p * 10 + v} cm`,
          })),
        ),
      );
      const mine = items.filter((item) => item.eshopId === eshopId);
      for (let start = 0; start < mine.length; start += 500) {
        const sources = mine.slice(start, start + 500).map((item, i) => {
          const n = start + i;
          const source = productItem(item.externalId) as Record<string, unknown> & {
            images: string[];
            variant: { code: string; ean: string }[];
          };
          const write: EntityWrite = {
            externalId: item.externalId,
            isVisible: true,
            status: 'generate',
            fields: {
              name: source.name,
              short_description: source.short_description,
              description: source.description,
              url: source.url,
              images: [...source.images, `https://cdn.shop.example/p/${item.externalId.toLowerCase()}-3.jpg`],
              brand_id: `B${(n % BRANDS_PER_ESHOP) + 1}`,
              categories_ids: [],
              parameters_ids: range(0, PARAMETERS_PER_PRODUCT).map(
                (k) => ((n + k * 5) % PARAMETERS_PER_ESHOP) + 1,
              ),
            },
          };
          return { write, variants: source.variant };
        });
        const ids = await catalogueRepository.upsert(
          trx,
          'product',
          eshopId,
          sources.map((s) => s.write),
        );
        await variantsRepository.replace(
          trx,
          eshopId,
          new Map(sources.map((s) => [ids.get(s.write.externalId)!, s.variants])),
        );
      }
    }
  });
  await db.raw('vacuum analyze');
  return items;
}

/**
 * Renders one seeded product with the real renderContent and checks that the statements the
 * bare worker runs are exactly the ones renderContent runs to read the eshop, lock the item,
 * store the content and mark the item (same text, same bindings, same order). Returns the
 * content it stored, which the bare worker writes for every item.
 */
async function checkBareSql(db: Knex, item: BenchItem): Promise<{ content: ContentColumns; others: number }> {
  const seen: { sql: string; bindings: unknown[] }[] = [];
  const listen = (query: { sql: string; bindings?: unknown[] }) =>
    seen.push({ sql: query.sql, bindings: query.bindings ?? [] });
  db.on('query', listen);
  let outcome;
  try {
    outcome = await renderContent(db, {
      eshop_id: item.eshopId,
      entity_type: 'product',
      external_id: item.externalId,
    });
  } finally {
    db.off('query', listen);
  }
  if (outcome !== 'composed') throw new Error(`rendering ${item.externalId} for the SQL check: ${outcome}`);
  const statements = seen.filter((q) => /^(select|insert|update)/.test(q.sql));
  const upsert = statements.at(-2);
  const content = contentFromBindings(upsert?.bindings ?? []);
  const expected = [
    { at: 0, sql: ESHOP_SQL, bindings: eshopBindings(item.eshopId) },
    { at: 1, sql: LOCK_ITEM_SQL, bindings: lockItemBindings(item.eshopId, item.externalId) },
    {
      at: statements.length - 2,
      sql: UPSERT_CONTENT_SQL,
      bindings: upsertContentBindings(item.eshopId, item.externalId, content),
    },
    {
      at: statements.length - 1,
      sql: MARK_RENDERED_SQL,
      bindings: markRenderedBindings('ready', item.eshopId, item.externalId),
    },
  ];
  for (const want of expected) {
    const got = statements[want.at];
    if (got?.sql !== want.sql || JSON.stringify(got.bindings) !== JSON.stringify(want.bindings)) {
      throw new Error(
        `tests/bench/worker-baseline-sql.ts is out of date with renderContent; statement ${want.at + 1} ` +
          `of ${statements.length} is now:\n${got?.sql}\nwith bindings ${JSON.stringify(got?.bindings).slice(0, 500)}`,
      );
    }
  }
  return { content, others: statements.length - expected.length };
}

/** Every item back to `generate` without content; no finished jobs left in the queues. */
async function reset(db: Knex, sides: Side[]): Promise<void> {
  await db('content').delete();
  await db('products').whereNot('status', 'generate').update({ status: 'generate', is_loaded: false });
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
  ctx: { db: Knex; redis: Redis; timeout: number },
): Promise<Run> {
  const payloads: Payload[] = items.map((item) => ({
    eshop_id: item.eshopId,
    entity_type: 'product',
    external_ids: [item.externalId],
  }));
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

const fixed = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function report(
  env: WorkerBenchEnv,
  machineLine: string,
  seed: { seconds: number; others: number },
  sides: Side[],
  rounds: Run[][],
): void {
  const total = (label: string) => {
    const runs = rounds.flat().filter((r) => r.side === label);
    const jobs = runs.reduce((n, r) => n + r.jobs, 0);
    const seconds = runs.reduce((n, r) => n + r.seconds, 0);
    const cpu = runs.every((r) => r.cpu) ? runs.map((r) => r.cpu!) : undefined;
    const perJob = (key: 'node' | 'pg' | 'redis' | 'bench') =>
      cpu ? fixed(cpu.reduce((sum, c) => sum + c[key], 0) / jobs, 2) : '–';
    // The side's own CPU (its Node process, Postgres backends and Redis), without the benchmark's.
    const ownCpu = cpu ? cpu.reduce((sum, c) => sum + c.node + c.pg + c.redis, 0) / jobs : undefined;
    return { label, jobs, seconds, jobsPerSec: jobs / seconds, perJob, ownCpu };
  };
  const [service, bare] = sides.map((s) => total(s.label)) as [
    ReturnType<typeof total>,
    ReturnType<typeof total>,
  ];
  const rate = (round: Run[], label: string) => {
    const run = round.find((r) => r.side === label)!;
    return run.jobs / run.seconds;
  };
  const ratio = service.jobsPerSec / bare.jobsPerSec;

  log('');
  log(
    `worker benchmark: ${fixed(env.jobs)} render-content jobs of one product each (${ESHOPS} eshops, languages ` +
      `${LANGUAGES.join(',')}), concurrency ${env.concurrency}, ${env.rounds} interleaved rounds after a ` +
      `${Math.min(WARMUP_JOBS, env.jobs)}-job warm-up of each side`,
  );
  log(`machine: ${machineLine}`);
  log(
    `seeded ${fixed(env.jobs)} products in ${fixed(seed.seconds, 1)} s; per item the generation worker runs ` +
      `${seed.others} statements more than the bare worker when its design cache is cold (content lookup, brand, ` +
      'parameters, variants, 3 design reads), 4 more once the eshop’s default design is cached',
  );
  log('');
  log(
    table(
      ['round', 'side', 'seconds', 'jobs/s'],
      rounds.flatMap((round, i) =>
        round.map((r) => [String(i + 1), r.side, fixed(r.seconds, 2), fixed(r.jobs / r.seconds)]),
      ),
      2,
    ),
  );
  log('');
  log(
    table(
      ['side', 'jobs', 'seconds', 'jobs/s', 'cpu ms/job: node', 'pg', 'redis', 'bench'],
      [service, bare].map((s) => [
        s.label,
        fixed(s.jobs),
        fixed(s.seconds, 2),
        fixed(s.jobsPerSec),
        s.perJob('node'),
        s.perJob('pg'),
        s.perJob('redis'),
        s.perJob('bench'),
      ]),
    ),
  );
  log(
    'cpu ms/job: CPU time per job of the side’s Node process, of its Postgres backends, of the whole Redis ' +
      'server and of the benchmark process (queueing and polling)',
  );
  log('');
  log(
    table(
      ['queue', 'worker/bare', 'per round', 'cpu bare/worker', 'target', 'result'],
      [
        [
          'render-content',
          fixed(ratio, 2),
          rounds.map((round) => fixed(rate(round, service.label) / rate(round, bare.label), 2)).join(' '),
          service.ownCpu && bare.ownCpu ? fixed(bare.ownCpu / service.ownCpu, 2) : '–',
          `≥ ${fixed(TARGET, 2)}`,
          ratio >= TARGET ? 'PASS' : 'BELOW',
        ],
      ],
    ),
  );
  log(
    'cpu bare/worker: CPU per job of the bare worker over that of the generation worker (node + pg + redis); ' +
      'on a CPU-bound machine the throughput ratio follows it, and it varies less with load from elsewhere',
  );
}

/** Node flags for BENCH_CPU_PROF: one profile per process, replaced by the next run. */
function cpuProfile(env: WorkerBenchEnv, name: string): string[] {
  return env.cpuProfDir
    ? ['--cpu-prof', `--cpu-prof-dir=${env.cpuProfDir}`, `--cpu-prof-name=${name}.cpuprofile`]
    : [];
}

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

  log(`seeding ${fixed(env.jobs)} products…`);
  const seedStarted = performance.now();
  const items = await seed(db, env.jobs);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const { content, others } = await checkBareSql(db, items[0]!);
  const dir = await mkdtemp(join(tmpdir(), 'worker-bench-'));
  cleanup.defer(`remove ${dir}`, () => rm(dir, { recursive: true, force: true }));
  const contentFile = join(dir, 'content.json');
  await writeFile(contentFile, JSON.stringify(content));

  const common = {
    DATABASE_URL: url,
    REDIS_URL: env.redisUrl,
    QUEUE_PREFIX: queuePrefix,
    WORKER_CONCURRENCY: String(env.concurrency),
    NODE_ENV: 'production',
  };
  const [workerPort, barePort] = await Promise.all([freePort(), freePort()]);
  const worker = await startChild({
    // Also the application_name of its Postgres connections (buildBaseDeps).
    name: 'generation-worker',
    script: join(REPO_ROOT, 'services', 'generation-worker', 'dist', 'main.js'),
    port: workerPort,
    env: { ...common, GENERATION_WORKER_PORT: String(workerPort), LOG_LEVEL: 'warn' },
    nodeArgs: cpuProfile(env, 'generation-worker'),
    cleanup,
  });
  const bare = await startChild({
    name: 'bare-worker',
    script: join(__dirname, 'worker-baseline.js'),
    port: barePort,
    env: { ...common, PORT: String(barePort), CONTENT_FILE: contentFile },
    nodeArgs: cpuProfile(env, 'bare-worker'),
    cleanup,
  });

  const redis = createRedis(env.redisUrl, 'worker-bench');
  cleanup.defer('close Redis connection', async () => redis.disconnect());
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
      // What enqueueMany does, on the bare worker's queue.
      enqueue: async (payloads) =>
        void (await bareQueue.addBulk(payloads.map((data) => ({ name: 'render-content', data, opts: {} })))),
    },
  ];
  const ctx = { db, redis, timeout: env.timeout };

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
        runs.map((r) => `${r.side} ${fixed(r.jobs / r.seconds)} jobs/s`).join(', '),
    );
  }
  report(env, await machine(db, redis), { seconds: seedSeconds, others }, sides, rounds);
  if (env.cpuProfDir) {
    log(
      `\nCPU profiles (written as the processes stop): ${env.cpuProfDir}/{generation-worker,bare-worker}.cpuprofile`,
    );
  }
}

runBenchmark('bench:worker', workerBenchEnv, run);
