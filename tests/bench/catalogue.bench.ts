// npm run bench:catalogue — the catalogue API (compiled, its own process, real Postgres and
// Redis) against a bare Koa + pg baseline in the same run: for the list, the best equivalent
// handler (the fastest SQL found, answering the same bytes) and a same-bytes splice handler
// (baseline-splice.ts); for imports, the same upsert. The data is realistic (site links and rich
// snippets on, 3 languages, 6 parameters per product) and the service runs with the image's
// NODE_OPTIONS.
// Also a deep page against the first, and (BENCH_STALE=1) imports into an eshop of 300,000
// products the planner has no statistics of. See README.md.
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type autocannon from 'autocannon';
import { Redis } from 'ioredis';
import {
  catalogueRepository,
  contentListJson,
  entityListJson,
  type EntityWrite,
  type Knex,
  type ListedOutputs,
} from '@catalogue/db';
import { upsertSql } from './baseline-sql';
import { importNewSpecs, importPairFigure, reportImportNew, startEqualWork } from './import-bench';
import { checkEqualWork } from './import-capture';
import { importEqualWork, type EqualWorkItem } from './import-equal-work';
import { importItem, makeEshopRealistic } from './import-fixtures';
import { figure } from './results';
import { contentInsert, fillerInsert, productId, productItem as anyItem } from './fixtures';
import {
  baselineNodeArgs,
  baselineSettings,
  benchEnv,
  Cleanup,
  catalogueApiNodeArgs,
  cpuProfileArgs,
  createBenchDatabase,
  createBenchEshop,
  deleteKeys,
  freePort,
  imageNodeOptions,
  importParameters,
  measurePair,
  measureModes,
  measureSides,
  positive,
  REALISTIC,
  REPO_ROOT,
  startChild,
  table,
  type BenchEnv,
  type ChildServer,
  type LoadSpec,
  type Measurement,
  runBenchmark,
  verdict,
  spread,
} from './harness';

const SCENARIOS = ['list', 'list-depth', 'list-heap', 'import-new', 'import-update', 'import-stale'] as const;
type Scenario = (typeof SCENARIOS)[number];
/**
 * Service over baseline (list, imports), deep page over first page p50 (list-depth, at most),
 * stale over fresh (import-stale); each judged on the median of the interleaved rounds' ratios.
 * The list's baseline parses the stored JSON and serialises it again; the service serves
 * pre-serialised pieces (at least 1.5 times the parse-and-stringify handler).
 */
const TARGETS: Record<Scenario, number> = {
  list: 1.5,
  'list-depth': 1.5,
  'list-heap': 0,
  'import-new': 0.9,
  'import-update': 0.5,
  'import-stale': 0.8,
};
/** The list over the same-bytes splice handler (baseline-splice.ts): at least this (median of rounds). */
const LIST_SPLICE_TARGET = 1;
/** Answers the list may shed (503) at LIST_P99_CONNECTIONS on a healthy database: at most this. */
const LIST_SHED_TARGET = 0;
/** The list's p99 at this many connections, over the baseline's: at most this (median of rounds). */
const LIST_P99_CONNECTIONS = 50;
const LIST_P99_TARGET = 1;
/** Verdicts take the median of at least this many interleaved rounds. */
const MIN_ROUNDS = 3;
/** import-new's least warm-up of each side of a new set of processes, seconds. */
const IMPORT_WARMUP_S = 5;

const ESHOPS = 2;
const PRODUCTS_PER_ESHOP = 10_000;
const BATCH = 100;
const PAGES = PRODUCTS_PER_ESHOP / BATCH;
const SEED_CONCURRENCY = 4;
/** Products of the eshop import-stale writes into, all inserted after the last ANALYZE. */
const STALE_PRODUCTS = 300_000;
const LIST_QUERY = 'per_page=100&lang=all&include=nested,marketplace,variant';
/**
 * list-heap: the heap settings to compare, as node's command-line flags (BENCH_HEAP_OPTIONS,
 * `;`-separated): `--initial-old-space-size` is refused in NODE_OPTIONS, and the catalogue API
 * adds any of its heap flags a setting leaves out (libs/config heap-bounds.ts), so each setting
 * names all three. `--initial-old-space-size=0` is V8's own old-generation limit.
 */
const HEAP_OPTIONS = (
  process.env.BENCH_HEAP_OPTIONS ??
  [
    '--max-semi-space-size=32 --max-old-space-size=256 --initial-old-space-size=0',
    '--max-semi-space-size=32 --max-old-space-size=256 --initial-old-space-size=128',
    '--max-semi-space-size=16 --max-old-space-size=256 --initial-old-space-size=128',
    '--max-semi-space-size=8 --max-old-space-size=256 --initial-old-space-size=128',
  ].join(';')
).split(';');
/** list-heap's connections on each process (BENCH_HEAP_CONNECTIONS). */
const HEAP_CONNECTIONS = Math.round(positive('BENCH_HEAP_CONNECTIONS', 10));
/** A list-heap setting as the report names it: an empty one runs with the flags the service adds. */
const heapLabel = (options: string) => options || 'no flags (the service adds its own)';
const BASELINE_LANGS = 'default,cs,en';

/** Connection counts of the list scenarios (BENCH_LIST_CONNECTIONS, comma list). */
function listConnections(): number[] {
  const raw = process.env.BENCH_LIST_CONNECTIONS || '1,10,50';
  const counts = raw.split(',').map(Number);
  if (!counts.every((n) => Number.isInteger(n) && n > 0)) {
    throw new Error(`BENCH_LIST_CONNECTIONS must be a comma list of positive integers (got "${raw}")`);
  }
  return counts;
}

/**
 * BENCH_SCENARIOS, else every scenario but import-stale, which BENCH_STALE=1 adds (it seeds
 * 300,000 more products), and list-heap (one service process per heap setting).
 */
function scenariosOf(env: BenchEnv): Set<string> {
  if (process.env.BENCH_SCENARIOS) return env.scenarios;
  return new Set(
    SCENARIOS.filter((s) => (s !== 'import-stale' || process.env.BENCH_STALE === '1') && s !== 'list-heap'),
  );
}

interface BenchEshop {
  id: number;
  token: string;
}

interface PairResult {
  scenario: Scenario;
  connections: number;
  /** The side whose figure is the numerator of the ratio (the service; the deep page; the stale eshop). */
  service: Measurement;
  baseline: Measurement;
  /** list: the same-bytes splice handler. */
  splice?: Measurement;
}

/** Every product has six parameters (imported with the eshop: importParameters). */
const productItem = (id: string, revision = 0) => anyItem(id, revision, true);

const json = { 'content-type': 'application/json' };
const bearer = (eshop: BenchEshop) => ({ authorization: `Bearer ${eshop.token}` });
const log = (line: string) => process.stdout.write(`${line}\n`);

function range(from: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => from + i);
}

/**
 * The baseline's import runs the upsert SQL copied from catalogueRepository; this stops the run
 * when the repository now generates something else for the same call. (The list is checked on
 * the response bytes instead: checkLists.)
 */
async function checkBaselineSql(db: Knex, eshopId: number): Promise<void> {
  const seen: { sql: string; bindings: unknown[] }[] = [];
  const listen = (query: { sql: string; bindings?: unknown[] }) =>
    seen.push({ sql: query.sql, bindings: query.bindings ?? [] });
  db.on('query', listen);
  try {
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
  const got = seen.find((q) => q.sql.startsWith('insert'));
  if (got?.sql !== upsertSql(BATCH)) {
    throw new Error(
      `tests/bench/baseline-sql.ts is out of date with catalogueRepository; it now runs:\n${got?.sql}`,
    );
  }
}

async function createEshops(db: Knex): Promise<BenchEshop[]> {
  const eshops: BenchEshop[] = [];
  for (const n of range(1, ESHOPS)) {
    eshops.push(await createBenchEshop(db, `Bench eshop ${n}`, ['default', 'cs', 'en'], REALISTIC));
  }
  return eshops;
}

/** PRODUCTS_PER_ESHOP products into each eshop through the real import endpoint, 100 per request. Returns the seconds taken. */
async function seed(service: ChildServer, eshops: BenchEshop[], db?: Knex): Promise<number> {
  for (const eshop of eshops) await importParameters(service.url, eshop.token);
  if (db) {
    // BENCH_SEED=sql: the same products by SQL (fillerInsert), for runs that only list.
    const started = performance.now();
    for (const eshop of eshops) {
      for (const statement of fillerInsert(eshop.id, PRODUCTS_PER_ESHOP, 'P')) {
        await db.raw(statement.sql, statement.bindings);
      }
    }
    return (performance.now() - started) / 1000;
  }
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

/**
 * The eshop import-stale writes into, made after the last ANALYZE (nothing analyses it: autovacuum
 * may be off or behind): STALE_PRODUCTS - PRODUCTS_PER_ESHOP filler products with their variants
 * inserted by SQL, then PRODUCTS_PER_ESHOP products through the import endpoint, the same ids
 * and data as the first eshop's. Returns the seconds the endpoint took for its part.
 */
async function createStaleEshop(
  db: Knex,
  service: ChildServer,
): Promise<{ eshop: BenchEshop; seconds: number }> {
  const eshop = await createBenchEshop(db, 'Bench eshop stale', ['default', 'cs', 'en'], REALISTIC);
  const filler = fillerInsert(eshop.id, STALE_PRODUCTS - PRODUCTS_PER_ESHOP);
  for (const statement of filler) await db.raw(statement.sql, statement.bindings);
  const seconds = await seed(service, [eshop]);
  return { eshop, seconds };
}

/**
 * What the generation worker would do: ready, loaded, with a rendered content row and its list
 * pieces (`list_json`, what every render writes with the outputs: contentListJson).
 */
async function makeListable(db: Knex): Promise<void> {
  await db('products').update({ status: 'ready', is_loaded: true });
  // Products written by SQL (BENCH_SEED=sql) get the pieces the import writes (entityListJson).
  for (;;) {
    const rows = await db('products')
      .select(
        'id',
        'name',
        'short_description',
        'description',
        'url',
        'seo_title',
        'seo_description',
        'images',
      )
      .whereNull('list_json')
      .limit(2_000);
    if (!rows.length) break;
    await db.raw(
      `update products p set list_json = v.list_json
         from unnest(?::bigint[], ?::text[]) as v(id, list_json) where p.id = v.id`,
      [
        rows.map((r: { id: number }) => r.id),
        rows.map((r: Record<string, unknown>) => entityListJson('product', r)),
      ],
    );
  }
  const { sql, bindings } = contentInsert();
  await db.raw(sql, bindings);
  for (let after = ''; ;) {
    const rows = await db('content')
      .select('eshop_id', 'external_id', ...CONTENT_OUTPUTS)
      .where('external_id', '>', after)
      .orderBy('external_id')
      .limit(2_000);
    if (!rows.length) break;
    after = (rows[rows.length - 1] as { external_id: string }).external_id;
    const pieces = rows.map((r: ListedOutputs) => contentListJson(r));
    await db.raw(
      `update content c set list_json = v.list_json, list_json_seo = v.list_json_seo
         from unnest(?::bigint[], ?::text[], ?::text[], ?::text[]) as v(eshop_id, external_id, list_json, list_json_seo)
        where c.eshop_id = v.eshop_id and c.entity_type = 'product' and c.external_id = v.external_id`,
      [
        rows.map((r: { eshop_id: number }) => r.eshop_id),
        rows.map((r: { external_id: string }) => r.external_id),
        pieces.map((p) => p.listJson),
        pieces.map((p) => p.listJsonSeo),
      ],
    );
  }
  const missing = await db('products').whereNull('list_json').count<{ n: number }[]>('* as n');
  if (Number(missing[0]!.n) !== 0) throw new Error(`${missing[0]!.n} products have no list pieces`);
  await db.raw('vacuum analyze products, product_variants, content');
}

const CONTENT_OUTPUTS = ['html', 'marketplace', 'nested', 'site_link', 'rich_snippet', 'languages_complete'];

/**
 * The baseline answers the bytes the service answers: the first, a middle, the last and a page
 * past the end of an eshop's list, before anything is measured.
 */
async function checkLists(service: ChildServer, baseline: ChildServer, eshop: BenchEshop): Promise<void> {
  for (const page of [1, 2, PAGES / 2, PAGES, PAGES + 1]) {
    const [fromService, fromBaseline, fromSplice] = await Promise.all([
      fetch(`${service.url}/api/v2/rest/products?${LIST_QUERY}&page=${page}`, {
        headers: bearer(eshop),
      }).then((r) => r.text()),
      ...['products', 'products-splice'].map((path) =>
        fetch(
          `${baseline.url}/${path}?eshop=${eshop.id}&per_page=100&page=${page}&langs=${BASELINE_LANGS}`,
        ).then((r) => r.text()),
      ),
    ]);
    const parsed = JSON.parse(fromService) as { data: unknown[]; meta: { total: number } };
    const expected = page <= PAGES ? BATCH : 0;
    if (parsed.data.length !== expected || parsed.meta.total !== PRODUCTS_PER_ESHOP) {
      throw new Error(`the service lists ${parsed.data.length} of ${parsed.meta.total} on page ${page}`);
    }
    for (const [name, other] of [
      ['baseline', fromBaseline!],
      ['splice baseline', fromSplice!],
    ] as const) {
      if (fromService === other) continue;
      let at = 0;
      while (fromService[at] === other[at]) at++;
      throw new Error(
        `the ${name} does not answer the service's bytes on page ${page}; first difference at ${at}:\n` +
          `service:  …${fromService.slice(Math.max(0, at - 80), at + 80)}\n` +
          `${name}: …${other.slice(Math.max(0, at - 80), at + 80)}`,
      );
    }
  }
}

interface Sides {
  service: ChildServer;
  baseline: ChildServer;
  eshops: BenchEshop[];
  /** import-stale's eshop of STALE_PRODUCTS products (when that scenario runs). */
  stale?: BenchEshop;
}

/**
 * The two sides of each scenario, the numerator of its ratio first: the service and the
 * baseline (list, imports: same items, same order); the service's deep page and its first page
 * (list-depth); the service writing into the unanalysed eshop and into the first eshop
 * (import-stale: same items, same data).
 */
function scenarioSpecs(
  scenario: Scenario,
  { service, baseline, eshops, stale }: Sides,
): [LoadSpec, LoadSpec] {
  const importRequest = (server: ChildServer, eshop: BenchEshop, items: unknown[]): autocannon.Request =>
    server === service
      ? {
          method: 'POST',
          path: '/api/v2/rest/products',
          headers: { ...json, ...bearer(eshop) },
          body: JSON.stringify(items),
        }
      : { method: 'POST', path: `/products?eshop=${eshop.id}`, headers: json, body: JSON.stringify(items) };
  const wrote = (server: ChildServer, field: 'imported' | 'updated') => (body: string) =>
    server === service
      ? body.includes('"success":true') && body.includes(`"${field}":${BATCH}`)
      : body.includes(`"written":${BATCH}`);
  const serviceList = (eshop: BenchEshop, page: number): autocannon.Request => ({
    method: 'GET',
    path: `/api/v2/rest/products?${LIST_QUERY}&page=${page}`,
    headers: bearer(eshop),
  });
  const sides = [
    { server: service, label: 'catalogue-api', newPrefix: 'NS' },
    { server: baseline, label: 'baseline', newPrefix: 'NB' },
  ] as const;
  switch (scenario) {
    case 'list':
    case 'list-heap':
      // Only listSpecs' sides measure these.
      throw new Error(`${scenario} has its own sides (listSpecs)`);
    case 'list-depth':
      return [PAGES, 1].map((page): LoadSpec => {
        let count = 0;
        return {
          scenario,
          side: `catalogue-api page ${page}`,
          server: service,
          itemsPerRequest: BATCH,
          next: () => serviceList(eshops[count++ % ESHOPS]!, page),
        };
      }) as [LoadSpec, LoadSpec];
    case 'import-new':
      // Every request creates 100 products never seen before.
      return sides.map(({ server, label, newPrefix }): LoadSpec => {
        let count = 0;
        return {
          scenario,
          side: label,
          server,
          itemsPerRequest: BATCH,
          check: wrote(server, 'imported'),
          next: () => {
            const n = count++;
            const items = range(n * BATCH + 1, BATCH).map((i) => productItem(productId(newPrefix, i)));
            return importRequest(server, eshops[n % ESHOPS]!, items);
          },
        };
      }) as [LoadSpec, LoadSpec];
    case 'import-update':
      // Re-sends the seeded products with changed descriptions: every item is a real update.
      return sides.map(({ server, label }): LoadSpec => {
        let count = 0;
        return {
          scenario,
          side: label,
          server,
          itemsPerRequest: BATCH,
          check: wrote(server, 'updated'),
          next: () => {
            const n = count++;
            const page = Math.floor(n / ESHOPS) % PAGES;
            const revision = Math.floor(n / (ESHOPS * PAGES)) + 1;
            const items = range(page * BATCH + 1, BATCH).map((i) =>
              importItem(productId('P', i), i, revision),
            );
            return importRequest(server, eshops[n % ESHOPS]!, items);
          },
        };
      }) as [LoadSpec, LoadSpec];
    case 'import-stale':
      // The same updates (revisions import-update never sent) into the two eshops.
      return [
        { eshop: stale!, label: `catalogue-api, ${STALE_PRODUCTS.toLocaleString('en-US')} unanalysed` },
        { eshop: eshops[0]!, label: `catalogue-api, ${PRODUCTS_PER_ESHOP.toLocaleString('en-US')} analysed` },
      ].map(({ eshop, label }): LoadSpec => {
        let count = 0;
        return {
          scenario,
          side: label,
          server: service,
          itemsPerRequest: BATCH,
          check: wrote(service, 'updated'),
          next: () => {
            const n = count++;
            const page = n % PAGES;
            const revision = 1_000 + Math.floor(n / PAGES);
            const items = range(page * BATCH + 1, BATCH).map((i) => productItem(productId('P', i), revision));
            return importRequest(service, eshop, items);
          },
        };
      }) as [LoadSpec, LoadSpec];
  }
}

/**
 * The sides of the list: the service (its 503s counted as shed, not failures), then the
 * parse-and-stringify handler and the same-bytes splice handler (list); or one service process
 * per heap setting (list-heap). Every side walks the same pages of both eshops in the same order.
 */
function listSpecs(
  scenario: 'list' | 'list-heap',
  sides: Sides,
  heapServices: ChildServer[] = [],
): LoadSpec[] {
  const { service, baseline, eshops } = sides;
  const spec = (
    server: ChildServer,
    side: string,
    path: (eshop: BenchEshop, page: number) => string,
  ): LoadSpec => {
    let count = 0;
    const isService = server !== baseline;
    return {
      scenario,
      side,
      server,
      itemsPerRequest: BATCH,
      countShed: isService,
      next: () => {
        const n = count++;
        const eshop = eshops[n % ESHOPS]!;
        const page = (Math.floor(n / ESHOPS) % PAGES) + 1;
        return { method: 'GET', path: path(eshop, page), ...(isService && { headers: bearer(eshop) }) };
      },
    };
  };
  const servicePath = (_eshop: BenchEshop, page: number) =>
    `/api/v2/rest/products?${LIST_QUERY}&page=${page}`;
  if (scenario === 'list-heap') {
    return heapServices.map((server, i) =>
      spec(server, `catalogue-api ${heapLabel(HEAP_OPTIONS[i]!)}`, servicePath),
    );
  }
  const baselinePath = (route: string) => (eshop: BenchEshop, page: number) =>
    `/${route}?eshop=${eshop.id}&per_page=100&page=${page}&langs=${BASELINE_LANGS}`;
  return [
    spec(service, 'catalogue-api', servicePath),
    spec(baseline, 'baseline parse-and-stringify', baselinePath('products')),
    spec(baseline, 'baseline splice', baselinePath('products-splice')),
  ];
}

/**
 * PostgreSQL's shared buffers and the size of what the list reads (heap and TOAST of products
 * and content, as seeded): when those outgrow the buffers, a page's blocks come from the kernel, and the
 * side whose columns sit in TOAST pays for it (docs/decisions/0116-list-pieces-in-the-row.md).
 */
async function bufferLine(db: Knex): Promise<string> {
  const { rows } = await db.raw<{
    rows: { buffers: string; relname: string; heap: string; toast: string }[];
  }>(
    `select current_setting('shared_buffers') as buffers, c.relname,
            pg_size_pretty(pg_relation_size(c.oid)) as heap,
            pg_size_pretty(coalesce(pg_total_relation_size(nullif(c.reltoastrelid, 0)), 0)) as toast
       from pg_class c where c.relname in ('products', 'content') order by c.relname desc`,
  );
  const tables = rows.map((r) => `${r.relname} ${r.heap} + TOAST ${r.toast}`).join(', ');
  return `PostgreSQL shared_buffers ${rows[0]?.buffers ?? '?'}; ${tables}`;
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

/** The ratio of a pair, overall and per interleaved round (adjacent slices of the two sides). */
function ratios(r: PairResult): { overall: number; rounds: number[] } {
  if (r.scenario === 'list-depth') {
    return {
      overall: r.service.p50 / r.baseline.p50,
      rounds: r.service.rounds.map((round, i) => round.p50 / r.baseline.rounds[i]!.p50),
    };
  }
  return {
    overall: r.service.itemsPerSec / r.baseline.itemsPerSec,
    rounds: r.service.rounds.map((round, i) => round.itemsPerSec / r.baseline.rounds[i]!.itemsPerSec),
  };
}

function report(
  env: BenchEnv,
  machineLine: string,
  buffers: string,
  seeding: { seconds: number; staleSeconds?: number; bySql?: boolean },
  results: PairResult[],
  serviceNodeOptions: string,
): void {
  const fixed = (value: number, digits = 0) =>
    value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const seeded = ESHOPS * PRODUCTS_PER_ESHOP;
  log('');
  log(
    `catalogue API benchmark: ${fixed(seeded)} products (${ESHOPS} eshops × ${fixed(PRODUCTS_PER_ESHOP)}), ` +
      `${env.duration} s per side (${env.rounds} interleaved rounds) after a ${env.warmup} s warm-up; ` +
      `list connections ${listConnections().join(', ')}, imports ${env.connections}`,
  );
  log(
    `machine: ${machineLine}; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
  log(buffers);
  log(
    `service NODE_OPTIONS: ${serviceNodeOptions || '(none)'}; baselines: ${baselineSettings()}; data: site links ` +
      'and rich snippets on, 3 languages, 6 parameters and 2 variants per product',
  );
  log(
    seeding.bySql
      ? `seeded by SQL (BENCH_SEED=sql): ${fixed(seeded)} items in ${fixed(seeding.seconds, 1)} s`
      : `seeded through POST /api/v2/rest/products: ${fixed(seeded)} items in ${fixed(seeding.seconds, 1)} s ` +
          `(${fixed(seeded / seeding.seconds)} items/s, ${SEED_CONCURRENCY} concurrent requests of ${BATCH})`,
  );
  if (seeding.staleSeconds !== undefined) {
    log(
      `import-stale's eshop: ${fixed(STALE_PRODUCTS - PRODUCTS_PER_ESHOP)} products by SQL, then ` +
        `${fixed(PRODUCTS_PER_ESHOP)} through the endpoint in ${fixed(seeding.staleSeconds, 1)} s ` +
        `(${fixed(PRODUCTS_PER_ESHOP / seeding.staleSeconds)} items/s), never analysed`,
    );
  }
  log('');
  const measured = results.flatMap((r) =>
    [r.service, r.baseline, ...(r.splice ? [r.splice] : [])].map((m) => ({ m, c: r.connections })),
  );
  log(
    table(
      [
        'scenario',
        'conn',
        'side',
        'req/s',
        'items/s',
        'p50 ms',
        'p99 ms',
        'kB/resp',
        'cpu ms/req: node',
        'pg',
        'redis',
        'shed',
        'rss MB',
      ],
      measured.map(({ m, c }) => [
        m.scenario,
        String(c),
        m.side,
        fixed(m.reqPerSec, 1),
        fixed(m.itemsPerSec),
        fixed(m.p50),
        fixed(m.p99),
        fixed(m.bytesPerResponse / 1000, 1),
        ...(['node', 'pg', 'redis'] as const).map((k) =>
          m.cpuPerRequest ? fixed(m.cpuPerRequest[k], 1) : '–',
        ),
        String(m.shed),
        m.rssMb.length ? fixed(Math.max(...m.rssMb)) : '–',
      ]),
      3,
    ),
  );
  log(
    'cpu ms/req: CPU time per request of the side’s Node process, of its Postgres backends and of the ' +
      'whole Redis server (anything else using that Redis included)',
  );
  log('');
  log(
    table(
      ['scenario', 'conn', 'ratio', 'overall', 'rounds: min', 'median', 'max', 'target', 'result'],
      results.map((r) => {
        const { overall, rounds } = ratios(r);
        const { min, median, max } = spread(rounds);
        const target = TARGETS[r.scenario];
        const atMost = r.scenario === 'list-depth';
        // A round in which a side completed nothing has no ratio: never a pass.
        const met = Number.isFinite(median) && (atMost ? median <= target : median >= target);
        figure({
          name: `${r.scenario}, ${r.connections} connections, ${
            atMost
              ? 'p50 of the deepest page over the first'
              : r.scenario === 'import-stale'
                ? 'unanalysed eshop over analysed'
                : r.scenario === 'list'
                  ? 'service over the parse-and-stringify handler'
                  : 'service over the same-work handler'
          }`,
          unit: 'ratio',
          min,
          median,
          max,
          target: `${atMost ? '<=' : '>='} ${target}`,
          met,
        });
        return [
          r.scenario,
          String(r.connections),
          atMost ? 'p50 deep/first' : r.scenario === 'import-stale' ? 'stale/fresh' : 'service/baseline',
          fixed(overall, 2),
          fixed(min, 2),
          fixed(median, 2),
          fixed(max, 2),
          `${atMost ? '≤' : '≥'} ${fixed(target, 2)}`,
          verdict(`${r.scenario} at ${r.connections} connections`, met, atMost ? 'ABOVE' : 'BELOW'),
        ];
      }),
      3,
    ),
  );
  const lists = results.filter((r) => r.splice);
  if (lists.length) {
    log('');
    log(
      table(
        ['scenario', 'conn', 'ratio', 'overall', 'rounds: min', 'median', 'max', 'target', 'result'],
        lists.flatMap((r) => {
          const splice = r.splice!;
          const rounds = r.service.rounds.map(
            (round, i) => round.itemsPerSec / splice.rounds[i]!.itemsPerSec,
          );
          const { min, median, max } = spread(rounds);
          const met = Number.isFinite(median) && median >= LIST_SPLICE_TARGET;
          figure({
            name: `list, ${r.connections} connections, service over the same-bytes splice handler`,
            unit: 'ratio',
            min,
            median,
            max,
            target: `>= ${LIST_SPLICE_TARGET}`,
            met,
          });
          const rows = [
            [
              'list',
              String(r.connections),
              'service/splice',
              fixed(r.service.itemsPerSec / splice.itemsPerSec, 2),
              fixed(min, 2),
              fixed(median, 2),
              fixed(max, 2),
              `≥ ${fixed(LIST_SPLICE_TARGET, 2)}`,
              verdict(`list over splice at ${r.connections} connections`, met),
            ],
          ];
          if (r.connections === LIST_P99_CONNECTIONS) {
            const shed = r.service.shed;
            const share = shed / (shed + r.service.requests);
            const shedMet = shed <= LIST_SHED_TARGET;
            figure({
              name: `list, ${r.connections} connections, answers shed (503) by the service`,
              unit: 'answers',
              min: shed,
              median: shed,
              max: shed,
              target: `<= ${LIST_SHED_TARGET}`,
              met: shedMet,
            });
            rows.push([
              'list',
              String(r.connections),
              'shed (503)',
              `${shed} (${fixed(share * 100, 1)} %)`,
              '',
              '',
              '',
              `≤ ${LIST_SHED_TARGET}`,
              verdict(`list shed at ${r.connections} connections`, shedMet, 'ABOVE'),
            ]);
          }
          return rows;
        }),
        3,
      ),
    );
  }
  const tail = results.find((r) => r.scenario === 'list' && r.connections === LIST_P99_CONNECTIONS);
  if (tail) {
    const rounds = tail.service.rounds.map((round, i) => round.p99 / tail.baseline.rounds[i]!.p99);
    const { min, median, max } = spread(rounds);
    figure({
      name: `list, ${LIST_P99_CONNECTIONS} connections, p99 of the service over the parse-and-stringify handler's`,
      unit: 'ratio',
      min,
      median,
      max,
      target: `<= ${LIST_P99_TARGET}`,
      met: Number.isFinite(median) && median <= LIST_P99_TARGET,
    });
    log('');
    log(
      table(
        ['scenario', 'conn', 'ratio', 'overall', 'rounds: min', 'median', 'max', 'target', 'result'],
        [
          [
            'list',
            String(LIST_P99_CONNECTIONS),
            'p99 service/baseline',
            `${fixed(tail.service.p99 / tail.baseline.p99, 2)} (${fixed(tail.service.p99)} / ${fixed(tail.baseline.p99)} ms)`,
            fixed(min, 2),
            fixed(median, 2),
            fixed(max, 2),
            `≤ ${fixed(LIST_P99_TARGET, 2)}`,
            verdict(
              `list p99 at ${LIST_P99_CONNECTIONS} connections`,
              Number.isFinite(median) && median <= LIST_P99_TARGET,
              'ABOVE',
            ),
          ],
        ],
        3,
      ),
    );
  }
  log('');
  log(
    `verdicts on the median of the ${env.rounds} interleaved rounds' ratios; list: the service against the ` +
      'parse-and-stringify handler (reads the rows, parses their stored JSON, serialises the same bytes) ' +
      'and the same-bytes splice handler (reads the stored list pieces and splices them, no parsing)',
  );
}

/**
 * list-heap: one service process per heap setting, the same list load interleaved;
 * throughput over the first setting's, round by round, and each process's largest RSS.
 */
function heapReport(heap: { options: string; m: Measurement }[]): void {
  const first = heap[0]!.m;
  const fixed = (value: number, digits = 0) =>
    value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  log('');
  log(
    table(
      ['node flags', 'items/s', 'p99 ms', 'cpu ms/req', 'rss MB: max', 'vs first: min', 'median', 'max'],
      heap.map(({ options, m }) => {
        const { min, median, max } = spread(
          m.rounds.map((round, i) => round.itemsPerSec / first.rounds[i]!.itemsPerSec),
        );
        const rss = m.rssMb.length ? Math.max(...m.rssMb) : NaN;
        figure({
          name: `list-heap, ${heapLabel(options)}, throughput over ${heapLabel(heap[0]!.options)}`,
          unit: 'ratio',
          min,
          median,
          max,
        });
        figure({
          name: `list-heap, ${heapLabel(options)}, largest RSS`,
          unit: 'MB',
          min: Math.min(...m.rssMb),
          median: spread(m.rssMb).median,
          max: rss,
        });
        return [
          heapLabel(options),
          fixed(m.itemsPerSec),
          fixed(m.p99),
          m.cpuPerRequest ? fixed(m.cpuPerRequest.node, 1) : '–',
          fixed(rss),
          fixed(min, 2),
          fixed(median, 2),
          fixed(max, 2),
        ];
      }),
      1,
    ),
  );
  log(
    `list-heap: ${HEAP_CONNECTIONS} connections on each process in turn; RSS read at the end of each round`,
  );
}

/** Node flags for BENCH_CPU_PROF: one profile per process, replaced by the next run. */
async function run(given: BenchEnv, cleanup: Cleanup): Promise<void> {
  if (given.rounds < MIN_ROUNDS)
    log(`BENCH_ROUNDS=${given.rounds}: measuring ${MIN_ROUNDS} rounds, the least a verdict's median takes`);
  const env = { ...given, rounds: Math.max(given.rounds, MIN_ROUNDS) };
  // import-new's sets of processes (BENCH_PROCESSES), each measured for BENCH_DURATION in
  // BENCH_ROUNDS rounds.
  const importProcesses = Math.round(positive('BENCH_PROCESSES', 4));
  const runId = `${process.pid}`;
  const queuePrefix = `catalogue-bench-${runId}`;
  const { url, db } = await createBenchDatabase(env.databaseUrl, `catalogue_bench_${runId}`, cleanup);
  cleanup.defer(
    `delete Redis keys ${queuePrefix}:*`,
    async () => void (await deleteKeys(env.redisUrl, queuePrefix)),
  );
  const eshops = await createEshops(db);
  await checkBaselineSql(db, eshops[0]!.id);
  // Realistic eshops: site links and rich snippets on, parameters that imports link (import-fixtures.ts).
  for (const eshop of eshops) await makeEshopRealistic(db, eshop.id);
  const checkItems = range(1, BATCH).map((i) => importItem(productId('SQLCHECK', i), i)) as EqualWorkItem[];
  const equalWorkStatements = await checkEqualWork(url, eshops[0]!.id, checkItems, (client) =>
    importEqualWork(client, eshops[0]!.id, checkItems, false),
  );
  const nodeOptions = imageNodeOptions();

  // The service runs as the image runs it (BENCH_SERVICE_NODE_OPTIONS replaces the image's
  // NODE_OPTIONS); the baselines with the image's NODE_OPTIONS and the service's heap flags
  // (baselineNodeArgs).
  const serviceNodeOptions = process.env.BENCH_SERVICE_NODE_OPTIONS ?? imageNodeOptions();
  // heapFlags: node's command-line flags (list-heap's settings), NODE_OPTIONS then left out.
  const startService = async (name: string, nodeOptions: string, heapFlags?: string) => {
    const port = await freePort();
    return startChild({
      // On a loaded machine a process takes a while to load everything it requires.
      readyTimeoutMs: 90_000,
      name,
      // BENCH_CATALOGUE_API_MAIN: another build's main.js, for a before/after on the same data.
      script:
        process.env.BENCH_CATALOGUE_API_MAIN ||
        join(REPO_ROOT, 'services', 'catalogue-api', 'dist', 'main.js'),
      port,
      env: {
        ...(nodeOptions && { NODE_OPTIONS: nodeOptions }),
        ...serviceEnv(port),
      },
      // list-heap's setting, or the flags the service would add itself (it would restart with them).
      nodeArgs: [
        ...(heapFlags?.split(' ').filter(Boolean) ?? catalogueApiNodeArgs(nodeOptions)),
        ...cpuProfileArgs(env.cpuProfDir, name),
      ],
      // As the service names its Postgres connections (libs/http runtime).
      applicationName: 'catalogue-api',
      cleanup,
    });
  };
  const serviceEnv = (port: number): Record<string, string> => ({
    DATABASE_URL: url,
    REDIS_URL: env.redisUrl,
    QUEUE_PREFIX: queuePrefix,
    CATALOGUE_API_PORT: String(port),
    LOG_LEVEL: 'info',
    NODE_ENV: 'production',
    // The limiter stays in the measured path (one Redis round trip per request) with budgets
    // the load never reaches: a benchmark token sends far more than a client may. The pool's
    // queue keeps its defaults: what it sheds is counted (LIST_SHED_TARGET).
    RATE_LIMIT_READ_PER_MINUTE: '1000000',
    RATE_LIMIT_WRITE_PER_MINUTE: '1000000',
  });
  const service = await startService('catalogue-api', serviceNodeOptions);
  // list-heap's processes, one after another (started at once they starve each other).
  const startHeapServices = async () => {
    const started: ChildServer[] = [];
    for (const [i, options] of HEAP_OPTIONS.entries()) {
      started.push(await startService(`catalogue-api-heap-${i}`, '', options));
    }
    return started;
  };
  const startBaseline = async (name: string) => {
    const port = await freePort();
    return startChild({
      name,
      script: join(__dirname, 'baseline.js'),
      port,
      env: {
        DATABASE_URL: url,
        PORT: String(port),
        NODE_ENV: 'production',
        BASELINE_STREAM: process.env.BENCH_BASELINE_STREAM === '0' ? '0' : '1',
        NODE_OPTIONS: nodeOptions,
      },
      nodeArgs: [...baselineNodeArgs(nodeOptions), ...cpuProfileArgs(env.cpuProfDir, name)],
      applicationName: 'baseline',
      cleanup,
    });
  };
  const baseline = await startBaseline('baseline');
  // import-new's sides, a set of processes started afresh: two processes of one build differ by
  // themselves by 10-30 % in CPU per request for their whole life, so one process per side would
  // make the ratios one draw of that (measureModes runs `importProcesses` sets in turn).
  const startImportSet = async (index: number) => ({
    service: await startService(`catalogue-api-import-${index}`, serviceNodeOptions),
    baseline: await startBaseline(`baseline-import-${index}`),
    equalWork: await startEqualWork({
      name: `import-equal-work-${index}`,
      url,
      redisUrl: env.redisUrl,
      queuePrefix,
      port: await freePort(),
      nodeOptions,
      nodeArgs: [
        ...baselineNodeArgs(nodeOptions),
        ...cpuProfileArgs(env.cpuProfDir, `import-equal-work-${index}`),
      ],
      cleanup,
    }),
  });

  const bySql = process.env.BENCH_SEED === 'sql';
  log(`seeding ${ESHOPS * PRODUCTS_PER_ESHOP} products ${bySql ? 'by SQL' : 'through the import endpoint'}…`);
  const seedSeconds = await seed(service, eshops, bySql ? db : undefined);
  await makeListable(db);
  await checkLists(service, baseline, eshops[0]!);

  const redis = new Redis(env.redisUrl);
  cleanup.defer('close Redis connection', async () => redis.disconnect());
  const sides: Sides = { service, baseline, eshops };
  const seeding: { seconds: number; staleSeconds?: number; bySql?: boolean } = {
    seconds: seedSeconds,
    bySql,
  };
  // Read before the scenarios: the imports add products.
  const buffers = await bufferLine(db);
  const results: PairResult[] = [];
  let importNew: Measurement[] | undefined;
  const heap: { options: string; m: Measurement }[] = [];
  for (const scenario of SCENARIOS.filter((s) => scenariosOf(env).has(s))) {
    if (scenario === 'list' || scenario === 'list-heap') {
      const heapServices = scenario === 'list-heap' ? await startHeapServices() : [];
      const connections = scenario === 'list' ? listConnections() : [HEAP_CONNECTIONS];
      for (const c of connections) {
        log(
          `${scenario} (${c} connections): ${env.warmup} s warm-up, then ${env.duration} s of each side in ` +
            `${env.rounds} rounds…`,
        );
        const measured = await measureSides(listSpecs(scenario, sides, heapServices), {
          ...env,
          connections: c,
          db,
          redis,
        });
        if (scenario === 'list') {
          results.push({
            scenario,
            connections: c,
            service: measured[0]!,
            baseline: measured[1]!,
            splice: measured[2]!,
          });
        } else {
          heap.push(...measured.map((m, i) => ({ options: HEAP_OPTIONS[i]!, m })));
        }
      }
      await Promise.all(heapServices.map((server) => server.stop()));
      continue;
    }
    if (scenario === 'import-stale') {
      log(`import-stale: an eshop of ${STALE_PRODUCTS} products, none analysed…`);
      const made = await createStaleEshop(db, service);
      sides.stale = made.eshop;
      seeding.staleSeconds = made.seconds;
    }
    const connections = scenario.startsWith('list') ? listConnections() : [env.connections];
    for (const c of connections) {
      log(
        `${scenario} (${c} connections): ${env.warmup} s warm-up, then ${env.duration} s of each side in ` +
          `${env.rounds} rounds…`,
      );
      if (scenario === 'import-new') {
        log(
          `  … in each of ${importProcesses} sets of processes started afresh, after a warm-up of ` +
            `${Math.max(env.warmup, IMPORT_WARMUP_S)} s of each`,
        );
        importNew = await measureModes(
          async (index) => {
            const set = await startImportSet(index);
            const specs = importNewSpecs(set, eshops, index);
            return {
              spec: (side) => specs[side]!,
              // The sides are the set's processes, not modes of one.
              setMode: async () => {},
              stop: async () => void (await Promise.all(Object.values(set).map((server) => server.stop()))),
            };
          },
          3,
          {
            ...env,
            duration: env.duration * importProcesses,
            // New processes compile what they run first: with a short warm-up the rounds measured
            // their first imports. The warm-up runs at 2 connections: at 10, a process that has
            // not compiled them yet answers in over DATABASE_POOL_QUEUE_BUDGET_MS and sheds some.
            warmup: Math.max(env.warmup, IMPORT_WARMUP_S),
            warmupConnections: Math.min(c, 2),
            connections: c,
            db,
            redis,
            processes: importProcesses,
          },
        );
        continue;
      }
      const specs = scenarioSpecs(scenario, sides);
      const [first, second] = await measurePair(specs, { ...env, connections: c, db, redis });
      results.push({ scenario, connections: c, service: first, baseline: second });
    }
  }
  report(env, await machine(db, redis), buffers, seeding, results, serviceNodeOptions);
  if (heap.length) heapReport(heap);
  if (importNew) reportImportNew(importNew, equalWorkStatements, log);
  for (const r of results) {
    if (r.scenario === 'import-update')
      importPairFigure(r.scenario, r.service, r.baseline, TARGETS[r.scenario], 'service / bare handler');
    if (r.scenario === 'import-stale')
      importPairFigure(r.scenario, r.service, r.baseline, TARGETS[r.scenario], 'unanalysed / analysed eshop');
  }
  if (env.cpuProfDir) {
    log(
      `\nCPU profiles (written as the processes stop): ${env.cpuProfDir}/{catalogue-api,baseline}.cpuprofile`,
    );
  }
}

runBenchmark('bench:catalogue', () => benchEnv(SCENARIOS), run);
