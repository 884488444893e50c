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
import { LANGUAGES, productId } from './fixtures';
import { checkEqualWork } from './import-capture';
import { importEqualWork, type EqualWorkItem } from './import-equal-work';
import { importItem, makeEshopRealistic } from './import-fixtures';
import { figure } from './results';
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

/**
 * Import → every item ready, one worker process: items/s at least this share of the bare
 * pipeline's (worker-bare-pipeline.ts: the same statements and renders driven by a plain loop),
 * median of the interleaved rounds' ratios.
 */
export const PIPELINE_TARGET_RATIO = 0.8;
const BATCH = 100;
const POLL_MS = 20;

export interface PipelineEnv {
  items: number;
  rounds: number;
  eshops: number;
  timeout: number;
}

interface PipelineRun {
  side: 'service' | 'bare';
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
    /** The bare worker's process, which runs the bare pipeline (POST /pipeline). */
    bare: ChildServer;
    concurrency: number;
    nodeOptions: string;
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
      NODE_OPTIONS: ctx.nodeOptions,
      ...(process.env.DATABASE_STALL_CHECK_MS && {
        DATABASE_STALL_CHECK_MS: process.env.DATABASE_STALL_CHECK_MS,
      }),
      ...(process.env.DATABASE_CONNECT_TIMEOUT_MS && {
        DATABASE_CONNECT_TIMEOUT_MS: process.env.DATABASE_CONNECT_TIMEOUT_MS,
      }),
    },
    cleanup: ctx.cleanup,
  });
  const eshops: { id: number; token: string }[] = [];
  for (let i = 1; i <= env.eshops; i++) {
    const eshop = await createBenchEshop(ctx.db, `Pipeline eshop ${i}`, [...LANGUAGES]);
    // As the worker benchmark's eshops: site link and rich snippet rendered too, parameters linked.
    await makeEshopRealistic(ctx.db, eshop.id);
    eshops.push(eshop);
  }
  // The bare pipeline's import sends the service's statements (text and values).
  const sample = Array.from({ length: BATCH }, (_, i) =>
    importItem(productId('SQLCHECK', i), i),
  ) as EqualWorkItem[];
  await checkEqualWork(ctx.url, eshops[0]!.id, sample, (client) =>
    importEqualWork(client, eshops[0]!.id, sample, false),
  );
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
            importItem(productId(`${prefix}${e}-`, from + i), from + i),
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
      side: 'service',
      seconds,
      importSeconds,
      worker: workerBefore && workerAfter && cpuDelta(workerBefore, workerAfter),
      api: apiBefore && apiAfter && cpuDelta(apiBefore, apiAfter),
    };
  };

  /** The bare pipeline in the bare worker's process, timed from here as the service's is. */
  const onceBare = async (prefix: string, items: number): Promise<PipelineRun> => {
    const before = await cpuTimes(ctx.bare, ctx.db, ctx.redis);
    const started = performance.now();
    const res = await fetch(`${ctx.bare.url}/pipeline`, {
      method: 'POST',
      body: JSON.stringify({ eshops: eshopIds, prefix, items, concurrency: ctx.concurrency }),
      signal: AbortSignal.timeout(env.timeout * 1000),
    });
    if (res.status !== 200) throw new Error(`bare pipeline: ${res.status} ${await res.text()}`);
    const seconds = (performance.now() - started) / 1000;
    const after = await cpuTimes(ctx.bare, ctx.db, ctx.redis);
    const total = Math.ceil(items / eshops.length) * eshops.length;
    const ready = await readyCount(prefix);
    if (ready !== total) throw new Error(`bare pipeline: ${ready} of ${total} items ready with content`);
    const cpu = before && after && cpuDelta(before, after);
    return { side: 'bare', seconds, importSeconds: NaN, worker: cpu, api: undefined };
  };

  log(`pipeline warm-up: ${Math.min(env.items, 400)} items on each side…`);
  await once('W', Math.min(env.items, 400));
  await onceBare('WB', Math.min(env.items, 400));
  const rounds: { service: PipelineRun; bare: PipelineRun }[] = [];
  for (let round = 0; round < env.rounds; round++) {
    // Interleaved: service first in odd rounds, the bare pipeline first in even ones.
    const first = round % 2 ? await onceBare(`B${round}`, env.items) : await once(`R${round}`, env.items);
    const second = round % 2 ? await once(`R${round}`, env.items) : await onceBare(`B${round}`, env.items);
    const pair = round % 2 ? { service: second, bare: first } : { service: first, bare: second };
    rounds.push(pair);
    log(
      `pipeline round ${round + 1}/${env.rounds}: service ${fixed(env.items / pair.service.seconds)} items/s, ` +
        `bare ${fixed(env.items / pair.bare.seconds)} items/s`,
    );
  }
  const total = Math.ceil(env.items / eshops.length) * eshops.length;
  const per = (value: number | undefined) => (value === undefined ? '–' : fixed(value / total, 2));
  log('');
  log(
    `pipeline: ${fixed(total)} new products a round (${eshops.length} eshops, languages ${LANGUAGES.join(',')}, ` +
      `six parameters of two values each, site links and rich snippets on), imported ${BATCH} a request through ` +
      `one catalogue-api process (one request at a time per eshop) and rendered by one generation-worker process ` +
      `(concurrency ${ctx.concurrency}); the bare pipeline: the same statements and renders in a plain loop in one ` +
      'process; from the first request until every item is ready',
  );
  log(
    table(
      [
        'round',
        'side',
        'seconds',
        'imports done at',
        'items/s',
        'worker cpu ms/item: node',
        'pg',
        'api node',
        'api pg',
      ],
      rounds.flatMap((pair, i) =>
        [pair.service, pair.bare].map((r) => [
          String(i + 1),
          r.side === 'service' ? 'service' : 'bare pipeline',
          fixed(r.seconds, 2),
          Number.isNaN(r.importSeconds) ? '–' : fixed(r.importSeconds, 2),
          fixed(total / r.seconds),
          per(r.worker?.node),
          per(r.worker?.pg),
          per(r.api?.node),
          per(r.api?.pg),
        ]),
      ),
    ),
  );
  const ratio = spread(rounds.map((pair) => pair.bare.seconds / pair.service.seconds));
  const rate = spread(rounds.map((pair) => total / pair.service.seconds));
  const bareRate = spread(rounds.map((pair) => total / pair.bare.seconds));
  const cpu = rounds.every((pair) => pair.service.worker)
    ? spread(rounds.map((pair) => pair.service.worker!.node / total))
    : undefined;
  const met = ratio.median >= PIPELINE_TARGET_RATIO;
  log('');
  log(
    table(
      ['pipeline', 'min', 'median', 'max', 'target', 'result'],
      [
        [
          'items/s service / bare pipeline',
          fixed(ratio.min, 2),
          fixed(ratio.median, 2),
          fixed(ratio.max, 2),
          `≥ ${fixed(PIPELINE_TARGET_RATIO, 2)}`,
          verdict('pipeline service/bare', met),
        ],
        ['items/s service', fixed(rate.min), fixed(rate.median), fixed(rate.max), '–', '–'],
        ['items/s bare pipeline', fixed(bareRate.min), fixed(bareRate.median), fixed(bareRate.max), '–', '–'],
        cpu
          ? ['worker node cpu ms/item', fixed(cpu.min, 2), fixed(cpu.median, 2), fixed(cpu.max, 2), '–', '–']
          : ['worker node cpu ms/item', '–', '–', '–', '–', '–'],
      ],
    ),
  );
  figure({
    name: 'pipeline, items/s, service (catalogue-api + one generation-worker) / bare pipeline',
    unit: 'ratio',
    ...ratio,
    target: `>= ${PIPELINE_TARGET_RATIO}`,
    met,
  });
  figure({ name: 'pipeline, service', unit: 'items/s', ...rate });
  figure({ name: 'pipeline, bare pipeline', unit: 'items/s', ...bareRate });
  if (cpu) figure({ name: 'pipeline, generation-worker Node CPU per item', unit: 'ms', ...cpu });
  await api.stop();
}
