// npm run bench:catalogue — the catalogue API (compiled, its own process, real Postgres and
// Redis) against a bare Koa + pg baseline running the same SQL, in the same run. See README.md.
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { catalogueRepository, type EntityWrite, type Knex } from '@catalogue/db';
import { COUNT_SQL, countBindings, LIST_SQL, listBindings, upsertSql } from './baseline-sql';
import { contentInsert, productId, productItem } from './fixtures';
import {
  benchEnv,
  Cleanup,
  cpuProfileArgs,
  createBenchDatabase,
  createBenchEshop,
  deleteKeys,
  freePort,
  measurePair,
  REPO_ROOT,
  startChild,
  table,
  type BenchEnv,
  type ChildServer,
  type LoadSpec,
  type Measurement,
  runBenchmark,
} from './harness';

const SCENARIOS = ['list', 'import-new', 'import-update'] as const;
type Scenario = (typeof SCENARIOS)[number];
const TARGETS: Record<Scenario, number> = { list: 0.6, 'import-new': 0.5, 'import-update': 0.5 };

const ESHOPS = 2;
const PRODUCTS_PER_ESHOP = 5_000;
const BATCH = 100;
const PAGES = PRODUCTS_PER_ESHOP / BATCH;
const SEED_CONCURRENCY = 4;
const LIST_QUERY = 'per_page=100&lang=all&include=nested,marketplace,variant';

interface BenchEshop {
  id: number;
  token: string;
}

interface PairResult {
  scenario: Scenario;
  service: Measurement;
  baseline: Measurement;
}

const json = { 'content-type': 'application/json' };
const bearer = (eshop: BenchEshop) => ({ authorization: `Bearer ${eshop.token}` });
const log = (line: string) => process.stdout.write(`${line}\n`);

function range(from: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => from + i);
}

/**
 * The baseline runs SQL copied from catalogueRepository; this stops the run when the
 * repository now generates something else for the same calls.
 */
async function checkBaselineSql(db: Knex, eshopId: number): Promise<void> {
  const seen: { sql: string; bindings: unknown[] }[] = [];
  const listen = (query: { sql: string; bindings?: unknown[] }) =>
    seen.push({ sql: query.sql, bindings: query.bindings ?? [] });
  db.on('query', listen);
  try {
    await catalogueRepository.listPage(db, 'product', eshopId, {
      isLoaded: true,
      page: 3,
      perPage: BATCH,
      outputs: { marketplace: true, nested: true, siteLink: false, richSnippet: false },
      withVariants: true,
    });
    await catalogueRepository.count(db, 'product', eshopId, { isLoaded: true });
    const writes: EntityWrite[] = range(1, BATCH).map((n) => ({
      externalId: productId('SQLCHECK', n),
      isVisible: true,
      status: 'generate',
      fields: {},
    }));
    const trx = await db.transaction();
    try {
      await catalogueRepository.upsert(trx, 'product', eshopId, writes);
    } finally {
      await trx.rollback();
    }
  } finally {
    db.off('query', listen);
  }
  const expected = [
    { sql: LIST_SQL, bindings: listBindings(eshopId, 3, BATCH) },
    { sql: COUNT_SQL, bindings: countBindings(eshopId) },
    { sql: upsertSql(BATCH) },
  ];
  const actual = seen.filter((q) => /^(select|insert)/.test(q.sql));
  expected.forEach((want, i) => {
    const got = actual[i];
    const sameBindings = !want.bindings || JSON.stringify(want.bindings) === JSON.stringify(got?.bindings);
    if (got?.sql !== want.sql || !sameBindings) {
      throw new Error(
        `tests/bench/baseline-sql.ts is out of date with catalogueRepository; it now runs:\n${got?.sql}\n` +
          `with bindings ${JSON.stringify(got?.bindings)}`,
      );
    }
  });
}

async function createEshops(db: Knex): Promise<BenchEshop[]> {
  const eshops: BenchEshop[] = [];
  for (const n of range(1, ESHOPS)) {
    eshops.push(await createBenchEshop(db, `Bench eshop ${n}`, ['default', 'cs', 'en']));
  }
  return eshops;
}

/** 10,000 products through the real import endpoint, 100 per request. Returns the seconds taken. */
async function seed(service: ChildServer, eshops: BenchEshop[]): Promise<number> {
  const batches = eshops.flatMap((eshop) => range(0, PAGES).map((page) => ({ eshop, page })));
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    for (let batch = batches[next++]; batch; batch = batches[next++]) {
      const items = range(batch.page * BATCH + 1, BATCH).map((n) => productItem(productId('P', n)));
      const res = await fetch(`${service.url}/api/v2/rest/products`, {
        method: 'POST',
        headers: { ...json, ...bearer(batch.eshop) },
        body: JSON.stringify(items),
      });
      const body = (await res.json()) as { imported?: number; skipped?: number };
      if (res.status !== 200 || body.imported !== BATCH || body.skipped !== 0) {
        throw new Error(`seeding: ${res.status} ${JSON.stringify(body).slice(0, 500)}`);
      }
    }
  };
  await Promise.all(range(0, SEED_CONCURRENCY).map(worker));
  return (performance.now() - started) / 1000;
}

/** What the generation worker would do: ready, loaded, with a rendered content row. */
async function makeListable(db: Knex): Promise<void> {
  await db('products').update({ status: 'ready', is_loaded: true });
  const { sql, bindings } = contentInsert();
  await db.raw(sql, bindings);
  await db.raw('vacuum analyze products, product_variants, content');
}

/** Both sides list the same items before anything is measured. */
async function checkLists(service: ChildServer, baseline: ChildServer, eshop: BenchEshop): Promise<void> {
  const [fromService, fromBaseline] = (await Promise.all([
    fetch(`${service.url}/api/v2/rest/products?${LIST_QUERY}&page=2`, { headers: bearer(eshop) }).then((r) =>
      r.json(),
    ),
    fetch(`${baseline.url}/products?eshop=${eshop.id}&per_page=100&page=2`).then((r) => r.json()),
  ])) as { data: { id?: string; external_id?: string }[]; meta: { total: number } }[];
  const ids = (page: typeof fromService) => page!.data.map((item) => item.external_id ?? item.id).join();
  if (
    fromService?.data.length !== BATCH ||
    fromService.meta.total !== PRODUCTS_PER_ESHOP ||
    ids(fromService) !== ids(fromBaseline) ||
    fromBaseline?.meta.total !== PRODUCTS_PER_ESHOP
  ) {
    throw new Error(
      'the service and the baseline do not list the same 100 of 5,000 products: ' +
        JSON.stringify([fromService, fromBaseline].map((page) => [page?.meta, ids(page).slice(0, 60)])),
    );
  }
}

/** The requests of each scenario, for the service and for the baseline (same items, same order). */
function scenarioSpecs(
  scenario: Scenario,
  service: ChildServer,
  baseline: ChildServer,
  eshops: BenchEshop[],
): [LoadSpec, LoadSpec] {
  const sides = [
    { server: service, label: 'catalogue-api', newPrefix: 'NS' },
    { server: baseline, label: 'baseline', newPrefix: 'NB' },
  ] as const;
  return sides.map(({ server, label, newPrefix }): LoadSpec => {
    const isService = server === service;
    let count = 0;
    const importRequest = (eshop: BenchEshop, items: unknown[]): autocannon.Request => ({
      method: 'POST',
      path: isService ? '/api/v2/rest/products' : `/products?eshop=${eshop.id}`,
      headers: isService ? { ...json, ...bearer(eshop) } : json,
      body: JSON.stringify(items),
    });
    const wrote = (field: 'imported' | 'updated') => (body: string) =>
      isService
        ? body.includes('"success":true') && body.includes(`"${field}":${BATCH}`)
        : body.includes(`"written":${BATCH}`);
    switch (scenario) {
      case 'list':
        return {
          scenario,
          side: label,
          server,
          itemsPerRequest: BATCH,
          next: () => {
            const n = count++;
            const eshop = eshops[n % ESHOPS]!;
            const page = (Math.floor(n / ESHOPS) % PAGES) + 1;
            return isService
              ? {
                  method: 'GET',
                  path: `/api/v2/rest/products?${LIST_QUERY}&page=${page}`,
                  headers: bearer(eshop),
                }
              : { method: 'GET', path: `/products?eshop=${eshop.id}&per_page=100&page=${page}` };
          },
        };
      case 'import-new':
        // Every request creates 100 products never seen before.
        return {
          scenario,
          side: label,
          server,
          itemsPerRequest: BATCH,
          check: wrote('imported'),
          next: () => {
            const n = count++;
            const items = range(n * BATCH + 1, BATCH).map((i) => productItem(productId(newPrefix, i)));
            return importRequest(eshops[n % ESHOPS]!, items);
          },
        };
      case 'import-update':
        // Re-sends the seeded products with changed descriptions: every item is a real update.
        return {
          scenario,
          side: label,
          server,
          itemsPerRequest: BATCH,
          check: wrote('updated'),
          next: () => {
            const n = count++;
            const page = Math.floor(n / ESHOPS) % PAGES;
            const revision = Math.floor(n / (ESHOPS * PAGES)) + 1;
            const items = range(page * BATCH + 1, BATCH).map((i) => productItem(productId('P', i), revision));
            return importRequest(eshops[n % ESHOPS]!, items);
          },
        };
    }
  }) as [LoadSpec, LoadSpec];
}

async function machine(db: Knex, redis: Redis): Promise<string> {
  const cores = cpus();
  const pg = (await db.raw<{ rows: { v: string }[] }>(`select current_setting('server_version') as v`))
    .rows[0]?.v;
  const info = await redis.info('server');
  const redisVersion = /redis_version:(\S+)/.exec(info)?.[1];
  return (
    `${cores.length} × ${cores[0]?.model.trim()}, Node ${process.version}, PostgreSQL ${pg?.split(' ')[0]}, Redis ${redisVersion}` +
    ' (service, baseline, Postgres, Redis and autocannon share them)'
  );
}

function report(env: BenchEnv, machineLine: string, seedSeconds: number, results: PairResult[]): void {
  const fixed = (value: number, digits = 0) =>
    value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const seeded = ESHOPS * PRODUCTS_PER_ESHOP;
  log('');
  log(
    `catalogue API benchmark: ${fixed(seeded)} products (${ESHOPS} eshops × ${fixed(PRODUCTS_PER_ESHOP)}), ` +
      `${env.connections} connections, ${env.duration} s per side (${env.rounds} interleaved rounds) ` +
      `after a ${env.warmup} s warm-up`,
  );
  log(`machine: ${machineLine}`);
  log(
    `seeded through POST /api/v2/rest/products: ${fixed(seeded)} items in ${fixed(seedSeconds, 1)} s ` +
      `(${fixed(seeded / seedSeconds)} items/s, ${SEED_CONCURRENCY} concurrent requests of ${BATCH})`,
  );
  log('');
  const measured = results.flatMap((r) => [r.service, r.baseline]);
  log(
    table(
      [
        'scenario',
        'side',
        'req/s',
        'items/s',
        'p50 ms',
        'p99 ms',
        'kB/resp',
        'cpu ms/req: node',
        'pg',
        'redis',
      ],
      measured.map((m) => [
        m.scenario,
        m.side,
        fixed(m.reqPerSec, 1),
        fixed(m.itemsPerSec),
        fixed(m.p50),
        fixed(m.p99),
        fixed(m.bytesPerResponse / 1000, 1),
        ...(['node', 'pg', 'redis'] as const).map((k) =>
          m.cpuPerRequest ? fixed(m.cpuPerRequest[k], 1) : '–',
        ),
      ]),
      2,
    ),
  );
  log(
    'cpu ms/req: CPU time per request of the side’s Node process, of its Postgres backends and of the ' +
      'whole Redis server (anything else using that Redis included)',
  );
  log('');
  log(
    table(
      ['scenario', 'service/baseline', 'target', 'result'],
      results.map((r) => {
        const ratio = r.service.itemsPerSec / r.baseline.itemsPerSec;
        const target = TARGETS[r.scenario];
        return [r.scenario, fixed(ratio, 2), `≥ ${fixed(target, 2)}`, ratio >= target ? 'PASS' : 'BELOW'];
      }),
    ),
  );
}

/** Node flags for BENCH_CPU_PROF: one profile per process, replaced by the next run. */
async function run(env: BenchEnv, cleanup: Cleanup): Promise<void> {
  const runId = `${process.pid}`;
  const queuePrefix = `catalogue-bench-${runId}`;
  const { url, db } = await createBenchDatabase(env.databaseUrl, `catalogue_bench_${runId}`, cleanup);
  cleanup.defer(
    `delete Redis keys ${queuePrefix}:*`,
    async () => void (await deleteKeys(env.redisUrl, queuePrefix)),
  );
  const eshops = await createEshops(db);
  await checkBaselineSql(db, eshops[0]!.id);

  const [servicePort, baselinePort] = await Promise.all([freePort(), freePort()]);
  const service = await startChild({
    name: 'catalogue-api',
    script: join(REPO_ROOT, 'services', 'catalogue-api', 'dist', 'main.js'),
    port: servicePort,
    env: {
      DATABASE_URL: url,
      REDIS_URL: env.redisUrl,
      QUEUE_PREFIX: queuePrefix,
      CATALOGUE_API_PORT: String(servicePort),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      // The limiter stays in the measured path (one Redis round trip per request) with budgets
      // the load never reaches: a benchmark token sends far more than a client may.
      RATE_LIMIT_READ_PER_MINUTE: '1000000',
      RATE_LIMIT_WRITE_PER_MINUTE: '1000000',
    },
    nodeArgs: cpuProfileArgs(env.cpuProfDir, 'catalogue-api'),
    cleanup,
  });
  const baseline = await startChild({
    name: 'baseline',
    script: join(__dirname, 'baseline.js'),
    port: baselinePort,
    env: { DATABASE_URL: url, PORT: String(baselinePort), NODE_ENV: 'production' },
    nodeArgs: cpuProfileArgs(env.cpuProfDir, 'baseline'),
    cleanup,
  });

  log(`seeding ${ESHOPS * PRODUCTS_PER_ESHOP} products through the import endpoint…`);
  const seedSeconds = await seed(service, eshops);
  await makeListable(db);
  await checkLists(service, baseline, eshops[0]!);

  const redis = new Redis(env.redisUrl);
  cleanup.defer('close Redis connection', async () => redis.disconnect());
  const results: PairResult[] = [];
  for (const scenario of SCENARIOS.filter((s) => env.scenarios.has(s))) {
    log(`${scenario}: ${env.warmup} s warm-up, then ${env.duration} s of each side in ${env.rounds} rounds…`);
    const specs = scenarioSpecs(scenario, service, baseline, eshops);
    const [serviceRun, baselineRun] = await measurePair(specs, { ...env, db, redis });
    results.push({ scenario, service: serviceRun, baseline: baselineRun });
  }
  report(env, await machine(db, redis), seedSeconds, results);
  if (env.cpuProfDir) {
    log(
      `\nCPU profiles (written as the processes stop): ${env.cpuProfDir}/{catalogue-api,baseline}.cpuprofile`,
    );
  }
}

runBenchmark('bench:catalogue', () => benchEnv(SCENARIOS), run);
