// bench:bulk — a bulk generation against the render pipeline, per worker process, in the same
// run: one generation-worker process (builtin provider) and one credit-service process. Each
// round imports BENCH_BULK_ITEMS new products (3 languages, 100 a request) through the compiled
// catalogue API and times them until every one is rendered (`ready` with content): the render
// pipeline's items/s. Then it starts a bulk generation over the same products (in `cs`, its
// budget the dry run's estimate) and times it until it ends: the batch's items/s. Meanwhile
// another eshop starts single generations one after another; their time from start to `done`
// is compared with the same eshop's single generations on the idle worker before the batch.
// Figures: batch items/s ÷ render items/s (target ≥ 1), the other eshop's single generation
// during the batch ÷ alone (reported; the fair queue bounds it), and the items/s themselves.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Config } from '@catalogue/config';
import { prepareDatabase } from '@catalogue/content-store';
import { createCreditMetrics } from '@catalogue/credits';
import { creditsRepository, generationJobsRepository } from '@catalogue/db';
import { requireEntityOrItem } from '@catalogue/generation';
import { createLogger } from '@catalogue/logger';
import { closeQueues, createQueues, createRedis } from '@catalogue/queue';
import { Registry } from 'prom-client';
import { startGeneration } from '@catalogue/white-label-api/dist/services/generate.service';
import { LANGUAGES, productId, productItem } from './fixtures';
import {
  createBenchDatabase,
  createBenchEshop,
  deleteKeys,
  freePort,
  positive,
  REPO_ROOT,
  runBenchmark,
  spread,
  startChild,
  table,
  verdict,
  type Cleanup,
} from './harness';
import { figure } from './results';

interface BulkEnv {
  items: number;
  rounds: number;
  concurrency: number;
  databaseUrl: string;
  redisUrl: string;
}

const env = (): BulkEnv => ({
  items: Math.round(positive('BENCH_BULK_ITEMS', 300)),
  rounds: Math.round(positive('BENCH_ROUNDS', 2)),
  concurrency: Math.round(positive('BENCH_WORKER_CONCURRENCY', 8)),
  databaseUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/catalogue',
  redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (line: string) => process.stdout.write(`${line}\n`);

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not done after ${timeoutMs / 1000} s`);
    await sleep(25);
  }
}

async function run(e: BulkEnv, cleanup: Cleanup): Promise<void> {
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
    ...(process.env.NODE_OPTIONS && { NODE_OPTIONS: process.env.NODE_OPTIONS }),
  };
  const [apiPort, workerPort, creditPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const api = await startChild({
    name: 'catalogue-api',
    script: join(REPO_ROOT, 'services', 'catalogue-api', 'dist', 'main.js'),
    port: apiPort,
    env: { ...common, CATALOGUE_API_PORT: String(apiPort) },
    cleanup,
    // A loaded machine starts three processes slowly.
    readyTimeoutMs: 180_000,
  });
  await startChild({
    name: 'generation-worker',
    script: join(REPO_ROOT, 'services', 'generation-worker', 'dist', 'main.js'),
    port: workerPort,
    env: { ...common, GENERATION_WORKER_PORT: String(workerPort) },
    cleanup,
    // A loaded machine starts three processes slowly.
    readyTimeoutMs: 180_000,
  });
  await startChild({
    name: 'credit-service',
    script: join(REPO_ROOT, 'services', 'credit-service', 'dist', 'main.js'),
    port: creditPort,
    env: { ...common, CREDIT_SERVICE_PORT: String(creditPort) },
    cleanup,
    // A loaded machine starts three processes slowly.
    readyTimeoutMs: 180_000,
  });

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

  const call = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${api.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 400)}`);
    return JSON.parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  };

  const other = await createBenchEshop(db, 'Other eshop', [...LANGUAGES]);
  await db.transaction((trx) => creditsRepository.topUp(trx, other.id, 1_000_000_000, 'bench'));
  const otherItems = Array.from({ length: 40 }, (_, i) => productItem(productId('O', i + 1)));
  await call(other.token, 'POST', '/api/v2/rest/products', otherItems);
  let nextOther = 0;
  /** One single generation of the other eshop, start to `done`, in ms. */
  const single = async (): Promise<number> => {
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
  };

  const rows: string[][] = [];
  const ratios: number[] = [];
  const renderRates: number[] = [];
  const bulkRates: number[] = [];
  const otherRatios: number[] = [];
  for (let round = 1; round <= e.rounds; round++) {
    const shop = await createBenchEshop(db, `Bulk eshop ${round}`, [...LANGUAGES]);
    await db.transaction((trx) => creditsRepository.topUp(trx, shop.id, 1_000_000_000, 'bench'));
    const prefix = `R${round}-`;

    // The render pipeline: import → every item rendered.
    const importStarted = performance.now();
    for (let i = 0; i < e.items; i += 100) {
      const items = Array.from({ length: Math.min(100, e.items - i) }, (_, j) =>
        productItem(productId(prefix, i + j + 1)),
      );
      await call(shop.token, 'POST', '/api/v2/rest/products', items);
    }
    await until(
      async () => {
        const { rows: r } = await db.raw<{ rows: { n: number }[] }>(
          `select count(*)::int as n from products p join content c
             on c.eshop_id = p.eshop_id and c.entity_type = 'product' and c.external_id = p.external_id
           where p.eshop_id = ? and p.status = 'ready'`,
          [shop.id],
        );
        return r[0]!.n >= e.items;
      },
      3_600_000,
      'render',
    );
    const renderSeconds = (performance.now() - importStarted) / 1000;

    // The other eshop's single generation on the idle worker.
    const alone = [await single(), await single(), await single()];

    // The bulk generation over the same products, its budget the dry run's estimate.
    const request = { entity_type: 'product', filter: { without_content: true }, languages: ['cs'] };
    const dry = await call(shop.token, 'POST', '/api/v2/rest/generation-batches', {
      ...request,
      budget: 1,
      dry_run: true,
    });
    const bulkStarted = performance.now();
    const batch = await call(shop.token, 'POST', '/api/v2/rest/generation-batches', {
      ...request,
      budget: dry.estimate.credits,
    });
    let ended: Record<string, any> | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
    const during: number[] = [];
    const watching = (async () => {
      for (;;) {
        const view = await call(shop.token, 'GET', `/api/v2/rest/generation-batches/${batch.id}`);
        if (view.finished_at) return view;
        await sleep(50);
      }
    })().then((view) => (ended = view));
    while (!ended) {
      during.push(await single());
      if (during.length >= 20) break;
    }
    await watching;
    const bulkSeconds = (performance.now() - bulkStarted) / 1000;
    if (ended!.counts.done !== e.items) throw new Error(`batch ended with ${JSON.stringify(ended!.counts)}`);

    const renderRate = e.items / renderSeconds;
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
    ]);
  }

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
  log(verdict('bulk items/s ≥ render pipeline items/s', met));
}

runBenchmark('bulk', env, run);
