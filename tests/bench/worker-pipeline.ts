// bench:worker's pipeline (BENCH_PIPELINE, on by default): what a user waits for. v2 imports of
// new products in 3 languages through the compiled catalogue API, 100 a request, as eshops send
// them (one request at a time per eshop), while the generation worker (one process, its
// concurrency) renders what they queue; timed from the first request to the poll that sees every
// imported item `ready` with its content. Rounds of fresh products; median items/s against an
// absolute target, and the worker's CPU per item (Node, its Postgres backends).
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Redis } from 'ioredis';
import type { Knex } from '@catalogue/db';
import { LANGUAGES, productId, productItem } from './fixtures';
import {
  cpuDelta,
  cpuTimes,
  createBenchEshop,
  freePort,
  REPO_ROOT,
  spread,
  startChild,
  table,
  verdict,
  type ChildServer,
  type Cleanup,
} from './harness';
import { fixed, log } from './worker-report';

/** The pipeline's target: import → every item ready, one worker process. */
export const PIPELINE_TARGET_ITEMS_PER_S = 900;
export const PIPELINE_TARGET_CPU_MS = 1;
const BATCH = 100;
const POLL_MS = 20;

export interface PipelineEnv {
  items: number;
  rounds: number;
  eshops: number;
  timeout: number;
}

interface PipelineRun {
  seconds: number;
  importSeconds: number;
  worker: { node: number; pg: number; redis: number } | undefined;
  api: { node: number; pg: number } | undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function post(api: ChildServer, token: string, body: unknown): Promise<void> {
  const res = await fetch(`${api.url}/api/v2/rest/products`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200 && res.status !== 201) {
    throw new Error(`import answered ${res.status}: ${text.slice(0, 500)}\n${api.output()}`);
  }
  const answer = JSON.parse(text) as { imported?: number; errors?: unknown[] };
  if (answer.imported !== (body as unknown[]).length) {
    throw new Error(`import did not take every item: ${text.slice(0, 500)}`);
  }
}

export async function runPipeline(
  env: PipelineEnv,
  ctx: {
    db: Knex;
    redis: Redis;
    url: string;
    redisUrl: string;
    queuePrefix: string;
    worker: ChildServer;
    cleanup: Cleanup;
  },
): Promise<void> {
  const port = await freePort();
  const api = await startChild({
    name: 'catalogue-api',
    script: join(REPO_ROOT, 'services', 'catalogue-api', 'dist', 'main.js'),
    port,
    env: {
      DATABASE_URL: ctx.url,
      REDIS_URL: ctx.redisUrl,
      QUEUE_PREFIX: ctx.queuePrefix,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      CATALOGUE_API_PORT: String(port),
      RATE_LIMIT_READ_PER_MINUTE: '1000000',
      RATE_LIMIT_WRITE_PER_MINUTE: '1000000',
      ...(process.env.DATABASE_STALL_CHECK_MS && {
        DATABASE_STALL_CHECK_MS: process.env.DATABASE_STALL_CHECK_MS,
      }),
    },
    cleanup: ctx.cleanup,
  });
  const eshops: { id: number; token: string }[] = [];
  for (let i = 1; i <= env.eshops; i++) {
    const eshop = await createBenchEshop(ctx.db, `Pipeline eshop ${i}`, [...LANGUAGES]);
    // As the worker benchmark's eshops: site link and rich snippet rendered too.
    await ctx
      .db('eshops')
      .where({ id: eshop.id })
      .update({ enable_site_link: true, enable_rich_snippet: true });
    eshops.push(eshop);
  }
  const eshopIds = eshops.map((e) => e.id);
  const readyCount = async (prefix: string): Promise<number> => {
    const { rows } = await ctx.db.raw<{ rows: { n: number }[] }>(
      `select count(*)::int as n from products p
        join content c on c.eshop_id = p.eshop_id and c.entity_type = 'product' and c.external_id = p.external_id
       where p.eshop_id = any(?) and p.external_id like ? and p.status = 'ready'`,
      [eshopIds, `${prefix}%`],
    );
    return rows[0]!.n;
  };

  const once = async (prefix: string, items: number): Promise<PipelineRun> => {
    const perEshop = Math.ceil(items / eshops.length);
    const workerBefore = await cpuTimes(ctx.worker, ctx.db, ctx.redis);
    const apiBefore = await cpuTimes(api, ctx.db, ctx.redis);
    const started = performance.now();
    let importSeconds = 0;
    let apiAfter: Awaited<ReturnType<typeof cpuTimes>>;
    let importsDone = false;
    const imports = Promise.all(
      eshops.map(async (eshop, e) => {
        for (let from = 0; from < perEshop; from += BATCH) {
          const body = Array.from({ length: Math.min(BATCH, perEshop - from) }, (_, i) =>
            productItem(productId(`${prefix}${e}-`, from + i)),
          );
          await post(api, eshop.token, body);
        }
      }),
    ).then(async () => {
      importSeconds = (performance.now() - started) / 1000;
      // Now, while the API's connections are open (its pool closes idle ones before the end).
      apiAfter = await cpuTimes(api, ctx.db, ctx.redis);
      importsDone = true;
    });
    let failed: unknown;
    imports.catch((err: unknown) => void (failed = err));
    const total = perEshop * eshops.length;
    for (;;) {
      if (failed) throw failed;
      if (importsDone && (await readyCount(prefix)) >= total) break;
      if (performance.now() - started > env.timeout * 1000) {
        throw new Error(
          `pipeline: ${await readyCount(prefix)} of ${total} items ready after ${env.timeout} s (BENCH_TIMEOUT)\n` +
            `--- generation-worker output ---\n${ctx.worker.output()}`,
        );
      }
      await sleep(POLL_MS);
    }
    const seconds = (performance.now() - started) / 1000;
    const workerAfter = await cpuTimes(ctx.worker, ctx.db, ctx.redis);
    return {
      seconds,
      importSeconds,
      worker: workerBefore && workerAfter && cpuDelta(workerBefore, workerAfter),
      api: apiBefore && apiAfter && cpuDelta(apiBefore, apiAfter),
    };
  };

  log(`pipeline warm-up: ${Math.min(env.items, 400)} items…`);
  await once('W', Math.min(env.items, 400));
  const runs: PipelineRun[] = [];
  for (let round = 0; round < env.rounds; round++) {
    const run = await once(`R${round}`, env.items);
    runs.push(run);
    log(`pipeline round ${round + 1}/${env.rounds}: ${fixed(env.items / run.seconds)} items/s`);
  }
  const total = Math.ceil(env.items / eshops.length) * eshops.length;
  const per = (value: number | undefined) => (value === undefined ? '–' : fixed(value / total, 2));
  log('');
  log(
    `pipeline: ${fixed(total)} new products a round (${eshops.length} eshops, languages ${LANGUAGES.join(',')}), ` +
      `imported ${BATCH} a request through one catalogue-api process (one request at a time per eshop) and ` +
      `rendered by one generation-worker process; from the first request until every item is ready`,
  );
  log(
    table(
      [
        'round',
        'seconds',
        'imports done at',
        'items/s',
        'worker cpu ms/item: node',
        'pg',
        'api node',
        'api pg',
      ],
      runs.map((r, i) => [
        String(i + 1),
        fixed(r.seconds, 2),
        fixed(r.importSeconds, 2),
        fixed(total / r.seconds),
        per(r.worker?.node),
        per(r.worker?.pg),
        per(r.api?.node),
        per(r.api?.pg),
      ]),
    ),
  );
  const rate = spread(runs.map((r) => total / r.seconds));
  const cpu = runs.every((r) => r.worker) ? spread(runs.map((r) => r.worker!.node / total)) : undefined;
  log('');
  log(
    table(
      ['pipeline', 'min', 'median', 'max', 'target', 'result'],
      [
        [
          'items/s',
          fixed(rate.min),
          fixed(rate.median),
          fixed(rate.max),
          `≥ ${fixed(PIPELINE_TARGET_ITEMS_PER_S)}`,
          verdict('pipeline items/s', rate.median >= PIPELINE_TARGET_ITEMS_PER_S),
        ],
        cpu
          ? [
              'worker node cpu ms/item',
              fixed(cpu.min, 2),
              fixed(cpu.median, 2),
              fixed(cpu.max, 2),
              `≤ ${fixed(PIPELINE_TARGET_CPU_MS, 2)}`,
              verdict('pipeline worker cpu ms/item', cpu.median <= PIPELINE_TARGET_CPU_MS, 'ABOVE'),
            ]
          : ['worker node cpu ms/item', '–', '–', '–', `≤ ${fixed(PIPELINE_TARGET_CPU_MS, 2)}`, '–'],
      ],
    ),
  );
  await api.stop();
}
