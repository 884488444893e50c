// bench:bulk — bulk generation measured two ways (BENCH_SCENARIOS=builtin,provider; both by
// default), on one catalogue-api, one generation-worker and one credit-service process, each with
// the image's NODE_OPTIONS, for eshops with site links and rich snippets on:
// - builtin: against the render pipeline, per worker process, in the same run. Each round
//   imports BENCH_BULK_ITEMS new products (3 languages, six parameters, 100 a request) and times
//   them until every one is rendered (`ready` with content): the render pipeline's items/s. Then it starts a bulk
//   generation over the same products (in `cs`, its budget the dry run's estimate) and times it
//   until it ends: the batch's items/s. Meanwhile another eshop starts single generations one
//   after another; their time from start to `done` is compared with the same eshop's single
//   generations on the idle worker before the batch. Figures: batch items/s ÷ render items/s
//   (target ≥ 1), the other eshop's single generation during the batch ÷ alone, the items/s, and
//   the worker's and its PostgreSQL backends' CPU per item in each phase. Both phases are warmed
//   up on 100 products first.
// - provider: the OpenAI-compatible provider against a local endpoint answering in 1 s
//   (bulk-provider.ts): throughput against the configured concurrency, the requests-per-minute
//   limit held, the endpoint's 429s waited out without a failed item.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Config } from '@catalogue/config';
import { prepareDatabase } from '@catalogue/content-store';
import { createCreditMetrics } from '@catalogue/credits';
import { creditsRepository, generationJobsRepository, type Knex } from '@catalogue/db';
import { requireEntityOrItem } from '@catalogue/generation';
import { createLogger } from '@catalogue/logger';
import { closeQueues, createQueues, createRedis } from '@catalogue/queue';
import { Registry } from 'prom-client';
import { startGeneration } from '@catalogue/white-label-api/dist/services/generate.service';
import { LANGUAGES, productId, productItem as anyItem } from './fixtures';
import {
  cpuDelta,
  cpuTimes,
  type CpuTimes,
  createBenchDatabase,
  createBenchEshop,
  imageNodeOptions,
  importParameters,
  REALISTIC,
  deleteKeys,
  freePort,
  positive,
  REPO_ROOT,
  runBenchmark,
  spread,
  type ChildServer,
  startChild,
  table,
  verdict,
  type Cleanup,
} from './harness';
import { providerScenarios } from './bulk-provider';

/** A product of the run: three languages, six parameters, two variants, images and pages. */
const productItem = (id: string) => anyItem(id, 0, true);
import { figure } from './results';

export interface BulkEnv {
  items: number;
  rounds: number;
  concurrency: number;
  scenarios: Set<string>;
  databaseUrl: string;
  redisUrl: string;
}

const SCENARIOS = ['builtin', 'provider'];

const env = (): BulkEnv => {
  const scenarios = (process.env.BENCH_SCENARIOS || SCENARIOS.join(',')).split(',').filter(Boolean);
  const unknown = scenarios.filter((name) => !SCENARIOS.includes(name));
  if (unknown.length)
    throw new Error(`BENCH_SCENARIOS: unknown ${unknown.join(', ')} (known: ${SCENARIOS.join(', ')})`);
  return {
    items: Math.round(positive('BENCH_BULK_ITEMS', 300)),
    rounds: Math.round(positive('BENCH_ROUNDS', 2)),
    concurrency: Math.round(positive('BENCH_WORKER_CONCURRENCY', 8)),
    scenarios: new Set(scenarios),
    databaseUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/catalogue',
    redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  };
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const log = (line: string) => process.stdout.write(`${line}\n`);

export async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not done after ${timeoutMs / 1000} s`);
    await sleep(25);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** What both scenarios use: the database, the API, a worker of given settings, the other eshop. */
export interface BulkRun {
  e: BulkEnv;
  db: Knex;
  cleanup: Cleanup;
  call(token: string, method: string, path: string, body?: unknown): Promise<Json>;
  /** A generation worker with the run's settings and `env` over them; stop it before the next. */
  startWorker(env: Record<string, string>): Promise<ChildServer>;
  /** CPU used so far by a process of the run and its PostgreSQL backends (undefined off Linux). */
  cpu(server: ChildServer): Promise<CpuTimes | undefined>;
  /** A new eshop with credit, its `count` products imported (`prefix`) and rendered. */
  shopWithProducts(name: string, prefix: string, count: number): Promise<{ token: string; seconds: number }>;
  /** One single generation of the other eshop, start to `done`, in ms. */
  single(): Promise<number>;
  /** Starts a bulk generation of every product without content, in `cs`, budget the dry run's estimate. */
  startBatch(token: string): Promise<Json>;
  /** The batch's view once it has ended. */
  ended(token: string, batchId: number): Promise<Json>;
}

async function setUp(e: BulkEnv, cleanup: Cleanup): Promise<BulkRun> {
  const runId = `${process.pid}`;
  const queuePrefix = `catalogue-bulk-bench-${runId}`;
  const { url, db } = await createBenchDatabase(e.databaseUrl, `catalogue_bulk_bench_${runId}`, cleanup);
  cleanup.defer(
    `delete Redis keys ${queuePrefix}:*`,
    async () => void (await deleteKeys(e.redisUrl, queuePrefix)),
  );
  await prepareDatabase(db);

  const common = {
    DATABASE_URL: url,
    REDIS_URL: e.redisUrl,
    QUEUE_PREFIX: queuePrefix,
    WORKER_CONCURRENCY: String(e.concurrency),
    GENERATION_PROVIDER: 'builtin',
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_READ_PER_MINUTE: '1000000',
    RATE_LIMIT_WRITE_PER_MINUTE: '1000000',
    // As the image runs its processes (a NODE_OPTIONS of the run, e.g. --cpu-prof, is added).
    NODE_OPTIONS: [imageNodeOptions(), process.env.NODE_OPTIONS].filter(Boolean).join(' '),
  };
  const service = async (name: string, portVariable: string, env: Record<string, string> = {}) => {
    const port = await freePort();
    return startChild({
      name,
      script: join(REPO_ROOT, 'services', name, 'dist', 'main.js'),
      port,
      env: { ...common, ...env, [portVariable]: String(port) },
      cleanup,
      // A loaded machine starts three processes slowly.
      readyTimeoutMs: 180_000,
    });
  };
  const api = await service('catalogue-api', 'CATALOGUE_API_PORT');
  await service('credit-service', 'CREDIT_SERVICE_PORT');

  // The other eshop's single generations are started as the white-label API starts them.
  const redis = createRedis(e.redisUrl, 'bench');
  const queues = createQueues(redis, queuePrefix);
  cleanup.defer('close bench queues', async () => {
    await closeQueues(queues);
    redis.disconnect();
  });
  const generateDeps = {
    db,
    queues,
    creditMetrics: createCreditMetrics(new Registry()),
    logger: createLogger({ service: 'bench', level: 'warn' }),
    config: { generation: { research: { maxUrls: 5 } } } as unknown as Config,
  };

  const call = async (token: string, method: string, path: string, body?: unknown): Promise<Json> => {
    const res = await fetch(`${api.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 400)}`);
    return JSON.parse(text) as Json;
  };

  /** An eshop as shops run: three languages, site links and rich snippets on, the six parameters imported. */
  const realisticShop = async (name: string) => {
    const shop = await createBenchEshop(db, name, [...LANGUAGES], REALISTIC);
    await importParameters(api.url, shop.token);
    return shop;
  };
  const other = await realisticShop('Other eshop');
  await db.transaction((trx) => creditsRepository.topUp(trx, other.id, 1_000_000_000, 'bench'));
  const otherItems = Array.from({ length: 40 }, (_, i) => productItem(productId('O', i + 1)));
  await call(other.token, 'POST', '/api/v2/rest/products', otherItems);
  let nextOther = 0;
  let shops = 0;

  return {
    e,
    db,
    cleanup,
    call,
    startWorker: (env) => service('generation-worker', 'GENERATION_WORKER_PORT', env),
    cpu: (server) => cpuTimes(server, db, redis),
    async shopWithProducts(name, prefix, count) {
      const shop = await realisticShop(`${name} ${++shops}`);
      await db.transaction((trx) => creditsRepository.topUp(trx, shop.id, 1_000_000_000, 'bench'));
      const started = performance.now();
      for (let i = 0; i < count; i += 100) {
        const items = Array.from({ length: Math.min(100, count - i) }, (_, j) =>
          productItem(productId(prefix, i + j + 1)),
        );
        await call(shop.token, 'POST', '/api/v2/rest/products', items);
      }
      await until(
        async () => {
          const { rows } = await db.raw<{ rows: { n: number }[] }>(
            `select count(*)::int as n from products p join content c
               on c.eshop_id = p.eshop_id and c.entity_type = 'product' and c.external_id = p.external_id
             where p.eshop_id = ? and p.status = 'ready'`,
            [shop.id],
          );
          return rows[0]!.n >= count;
        },
        3_600_000,
        'render',
      );
      return { token: shop.token, seconds: (performance.now() - started) / 1000 };
    },
    async single() {
      const id = String(otherItems[nextOther++ % otherItems.length]!.id);
      const eshop = (await db('eshops').where({ id: other.id }).first())!;
      await db.transaction((trx) => requireEntityOrItem(trx, other.id, 'product', id));
      const started = performance.now();
      const job = await startGeneration(generateDeps as never, {
        eshop: { ...eshop, languages: eshop.languages } as never,
        entityType: 'product',
        entityId: id,
        body: { lang: 'cs' },
      });
      await until(
        async () => (await generationJobsRepository.find(db, other.id, job.id))?.status === 'done',
        600_000,
        'single generation',
      );
      return performance.now() - started;
    },
    async startBatch(token) {
      const request = { entity_type: 'product', filter: { without_content: true }, languages: ['cs'] };
      const dry = await call(token, 'POST', '/api/v2/rest/generation-batches', {
        ...request,
        budget: 1,
        dry_run: true,
      });
      return call(token, 'POST', '/api/v2/rest/generation-batches', {
        ...request,
        budget: dry.estimate.credits,
      });
    },
    async ended(token, batchId) {
      for (;;) {
        const view = await call(token, 'GET', `/api/v2/rest/generation-batches/${batchId}`);
        if (view.finished_at) return view;
        await sleep(50);
      }
    },
  };
}

/** The builtin provider's batch against the render pipeline, in rounds. */
async function builtinRounds(run: BulkRun): Promise<void> {
  const { e } = run;
  const worker = await run.startWorker({});
  const rows: string[][] = [];
  const ratios: number[] = [];
  const renderRates: number[] = [];
  const bulkRates: number[] = [];
  const otherRatios: number[] = [];
  /** The worker's Node CPU and its PostgreSQL backends' CPU per item, ms, in each phase. */
  const perItem = {
    render: { node: [] as number[], pg: [] as number[] },
    batch: { node: [] as number[], pg: [] as number[] },
  };
  const phaseCpu = (phase: keyof typeof perItem, before?: CpuTimes, after?: CpuTimes) => {
    if (!before || !after) return '–';
    const used = cpuDelta(before, after);
    perItem[phase].node.push(used.node / e.items);
    perItem[phase].pg.push(used.pg / e.items);
    return `${(used.node / e.items).toFixed(2)} / ${(used.pg / e.items).toFixed(2)}`;
  };
  // A warm-up of both phases, not measured: a new worker's first renders and generations run
  // before the JIT has compiled them (about twice the CPU per item of the next round).
  const warm = await run.shopWithProducts('Warm-up eshop', 'W-', Math.min(e.items, 100));
  await run.ended(warm.token, (await run.startBatch(warm.token)).id);
  for (let round = 1; round <= e.rounds; round++) {
    // The render pipeline: import → every item rendered.
    const renderBefore = await run.cpu(worker);
    const shop = await run.shopWithProducts('Bulk eshop', `R${round}-`, e.items);
    const renderCpu = phaseCpu('render', renderBefore, await run.cpu(worker));

    // The other eshop's single generation on the idle worker.
    const alone = [await run.single(), await run.single(), await run.single()];

    // The bulk generation over the same products, its budget the dry run's estimate.
    const batchBefore = await run.cpu(worker);
    const bulkStarted = performance.now();
    const batch = await run.startBatch(shop.token);
    let ended: Json | undefined;
    const watching = run.ended(shop.token, batch.id).then((view) => (ended = view));
    const during: number[] = [];
    while (!ended) {
      during.push(await run.single());
      if (during.length >= 20) break;
    }
    await watching;
    const bulkSeconds = (performance.now() - bulkStarted) / 1000;
    const batchCpu = phaseCpu('batch', batchBefore, await run.cpu(worker));
    if (ended!.counts.done !== e.items) throw new Error(`batch ended with ${JSON.stringify(ended!.counts)}`);

    const renderRate = e.items / shop.seconds;
    const bulkRate = e.items / bulkSeconds;
    const aloneMs = spread(alone).median;
    const duringMs = spread(during).median;
    renderRates.push(renderRate);
    bulkRates.push(bulkRate);
    ratios.push(bulkRate / renderRate);
    otherRatios.push(duringMs / aloneMs);
    rows.push([
      String(round),
      renderRate.toFixed(1),
      bulkRate.toFixed(1),
      (bulkRate / renderRate).toFixed(2),
      aloneMs.toFixed(0),
      `${duringMs.toFixed(0)} (${during.length})`,
      `${ended!.credits.charged}/${ended!.credits.budget}`,
      renderCpu,
      batchCpu,
    ]);
  }
  await worker.stop();

  log(
    table(
      [
        'round',
        'render items/s',
        'batch items/s',
        'ratio',
        'other single alone ms',
        'during ms (n)',
        'charged/budget',
        'worker cpu ms/item render: node / pg',
        'batch: node / pg',
      ],
      rows,
    ),
  );
  const ratio = spread(ratios);
  const met = ratio.median >= 1;
  figure({
    name: `bulk generation items/s ÷ render pipeline items/s, one worker process, ${e.items} items`,
    unit: 'ratio',
    ...ratio,
    target: '>= 1',
    met,
  });
  figure({
    name: "another eshop's single generation during the batch ÷ alone (median ms)",
    unit: 'ratio',
    ...spread(otherRatios),
  });
  figure({ name: 'render pipeline, items/s, one worker process', unit: 'items/s', ...spread(renderRates) });
  figure({ name: 'bulk generation, items/s, one worker process', unit: 'items/s', ...spread(bulkRates) });
  // What bounds the ratio: a builtin item renders every language as a rendered item does, and
  // generates, fills the design and keeps a revision besides (the other eshop's singles during
  // the batch are in its figure: at most 20 items against the batch's).
  for (const [phase, what] of [
    ['render', 'render pipeline'],
    ['batch', 'bulk generation'],
  ] as const) {
    if (perItem[phase].node.length === 0) continue;
    figure({
      name: `${what}, generation-worker Node CPU per item`,
      unit: 'ms',
      ...spread(perItem[phase].node),
    });
    figure({
      name: `${what}, its PostgreSQL backends' CPU per item`,
      unit: 'ms',
      ...spread(perItem[phase].pg),
    });
  }
  log(verdict('bulk items/s ≥ render pipeline items/s', met));
}

async function run(e: BulkEnv, cleanup: Cleanup): Promise<void> {
  const bulk = await setUp(e, cleanup);
  if (e.scenarios.has('builtin')) await builtinRounds(bulk);
  if (e.scenarios.has('provider')) await providerScenarios(bulk);
}

runBenchmark('bulk', env, run);
