// npm run bench:memory — memory that stays put: the four
// services, compiled, in their own processes on the run's own database and queue prefix, through
// four phases:
//   soak      BENCH_MEMORY_MINUTES (10) of mixed load: v2 imports (which the worker renders), v2
//             list pages, whoami, the change feed, and the white-label editor's calls (register,
//             fill a design, read content, generate with the builtin provider, whose settlement
//             the credit service applies);
//   pipeline  BENCH_MEMORY_RENDER_PRODUCTS (2,000) products imported 100 per request, waited for
//             until the worker has rendered every one;
//   list      BENCH_MEMORY_LIST_SECONDS (60) of 50 connections (BENCH_MEMORY_LIST_CONNECTIONS)
//             reading list pages with every include (100 products with content: about 1.5 MB);
//   idle      60 s of nothing.
// RSS (/proc/<pid>/status), V8 heap in use and committed, and external memory (each service's
// /metrics) are sampled every 5 s. Targets (with --check a miss exits 1): the catalogue API at
// most 300 MiB from the list phase on (its tail included) and 200 MiB at the end of the idle
// minute, the generation worker at most 250 MiB over the whole run, and no service's RSS at the
// end of the soak above 1.2 times its RSS after the first minute (the leak check). A failed
// request fails the run.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { adminService } from '@catalogue/admin';
import { contentInsert, fillerInsert, productId, productItem } from './fixtures';
import { figure, spread } from './results';
import {
  createBenchDatabase,
  deleteKeys,
  freePort,
  imageNodeOptions,
  positive,
  REPO_ROOT,
  runBenchmark,
  verdict,
  startChild,
  table,
  type ChildServer,
} from './harness';

const ORIGIN = 'https://admin.memory.bench';
const SAMPLE_MS = 5_000;
const IDLE_MS = 60_000;
/** The list phase's pages: every include, 100 products with their content (about 1.5 MB). */
const LIST_QUERY = 'per_page=100&lang=all&include=nested,marketplace,site_link,rich_snippet,variant';
const LIST_PAGES = 10;
const log = (line: string) => process.stdout.write(`${line}\n`);

interface Env {
  minutes: number;
  limit: number;
  connections: number;
  listSeconds: number;
  listConnections: number;
  renderProducts: number;
  apiLoadMiB: number;
  apiIdleMiB: number;
  workerMiB: number;
  /** Settings of every service beyond the production ones (BENCH_MEMORY_ENV, `K=V,K=V`): to try a change. */
  extraEnv: Record<string, string>;
  databaseUrl: string;
  redisUrl: string;
}

const env = (): Env => ({
  minutes: positive('BENCH_MEMORY_MINUTES', 10),
  limit: positive('BENCH_MEMORY_LIMIT', 1.2),
  connections: Math.round(positive('BENCH_CONNECTIONS', 6)),
  listSeconds: positive('BENCH_MEMORY_LIST_SECONDS', 60),
  listConnections: Math.round(positive('BENCH_MEMORY_LIST_CONNECTIONS', 50)),
  renderProducts: Math.ceil(positive('BENCH_MEMORY_RENDER_PRODUCTS', 2000) / 100) * 100,
  apiLoadMiB: positive('BENCH_MEMORY_API_LOAD_MIB', 300),
  apiIdleMiB: positive('BENCH_MEMORY_API_IDLE_MIB', 200),
  workerMiB: positive('BENCH_MEMORY_WORKER_MIB', 250),
  extraEnv: Object.fromEntries(
    (process.env.BENCH_MEMORY_ENV ?? '')
      .split(',')
      .filter(Boolean)
      .map((pair) => {
        const at = pair.indexOf('=');
        if (at < 1) throw new Error(`BENCH_MEMORY_ENV: "${pair}" is not K=V`);
        return [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
      }),
  ),
  databaseUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/catalogue',
  redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
});

/** Resident set size of a process in MiB (VmRSS of /proc/<pid>/status). */
async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** V8 heap in use and committed, and external memory of a service in MiB, from its /metrics (prom-client's default gauges). */
async function heapMiB(server: ChildServer): Promise<{ heap: number; committed: number; external: number }> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const gauge = (name: string) =>
    Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) / 1024 / 1024;
  return {
    heap: gauge('nodejs_heap_size_used_bytes'),
    committed: gauge('nodejs_heap_size_total_bytes'),
    external: gauge('nodejs_external_memory_bytes'),
  };
}

type Phase = 'soak' | 'pipeline' | 'list' | 'idle';
interface Sample {
  at: number;
  phase: Phase;
  mib: number;
  heap: number;
  /** V8 heap committed (in use or not). */
  committed: number;
  external: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

runBenchmark('bench:memory', env, async (settings, cleanup) => {
  const prefix = `bench-memory-${process.pid}`;
  const dbName = `catalogue_bench_memory_${process.pid}`;
  const { url, db } = await createBenchDatabase(settings.databaseUrl, dbName, cleanup);
  cleanup.defer('delete queue keys', () => deleteKeys(settings.redisUrl, prefix).then(() => undefined));
  const { prepareDatabase } = await import('@catalogue/content-store');
  await prepareDatabase(db);
  const shop = await adminService(db).createEshop({
    name: 'memory bench',
    languages: ['default', 'cs', 'en'],
    origins: [ORIGIN],
    credits: 1_000_000,
    enableSiteLink: true,
    enableRichSnippet: true,
    reviewRequired: false,
    licenceValidUntil: '2099-12-31',
  });
  // The list phase's eshop: LIST_PAGES pages of products with their content, inserted by SQL as
  // the worker would leave them (before any import: the content statement fills every product).
  const listShop = await adminService(db).createEshop({
    name: 'memory bench list',
    languages: ['default', 'cs', 'en'],
    origins: [],
    credits: 0,
    enableSiteLink: true,
    enableRichSnippet: true,
    reviewRequired: false,
    licenceValidUntil: '2099-12-31',
  });
  for (const statement of fillerInsert(listShop.eshop.id, LIST_PAGES * 100))
    await db.raw(statement.sql, statement.bindings);
  const filled = contentInsert();
  await db.raw(filled.sql, filled.bindings);
  await db.raw('vacuum analyze products, product_variants, content');
  // The pipeline phase's eshop: its imports are rendered by the worker.
  const pipelineShop = await adminService(db).createEshop({
    name: 'memory bench pipeline',
    languages: ['default', 'cs', 'en'],
    origins: [],
    credits: 0,
    enableSiteLink: false,
    enableRichSnippet: false,
    reviewRequired: false,
    licenceValidUntil: '2099-12-31',
  });

  const common = {
    DATABASE_URL: url,
    REDIS_URL: settings.redisUrl,
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'info',
    NODE_ENV: 'production',
    RATE_LIMIT_READ_PER_MINUTE: '1000000',
    RATE_LIMIT_WRITE_PER_MINUTE: '1000000',
    RATE_LIMIT_GENERATE_PER_MINUTE: '1000000',
    GENERATION_PROVIDER: 'builtin',
    NODE_OPTIONS: imageNodeOptions(),
    ...settings.extraEnv,
  };
  const start = async (name: string, dir: string, portVar: string): Promise<ChildServer> => {
    const port = await freePort();
    return startChild({
      name,
      script: join(REPO_ROOT, 'services', dir, 'dist', 'main.js'),
      port,
      env: { ...common, [portVar]: String(port) },
      cleanup,
      // Four services starting on a loaded machine: the worker took more than 20 s once.
      readyTimeoutMs: 60_000,
    });
  };
  const services = [
    await start('catalogue-api', 'catalogue-api', 'CATALOGUE_API_PORT'),
    await start('white-label-api', 'white-label-api', 'WHITE_LABEL_API_PORT'),
    await start('generation-worker', 'generation-worker', 'GENERATION_WORKER_PORT'),
    await start('credit-service', 'credit-service', 'CREDIT_SERVICE_PORT'),
  ];
  const [catalogue, whiteLabel] = services as [ChildServer, ChildServer];

  /** A request whose status must be 2xx or one of `also` (anything else fails the run). */
  const call = async (
    base: string,
    headers: Record<string, string>,
    method: string,
    path: string,
    body?: unknown,
    also: number[] = [],
  ) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...headers, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300 && !also.includes(res.status))
      throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };
  const api = (method: string, path: string, body?: unknown) =>
    call(catalogue.url, { Authorization: `Bearer ${shop.apiToken}` }, method, path, body);
  const host = (method: string, path: string, body?: unknown, also: number[] = []) =>
    call(
      whiteLabel.url,
      { 'service-white-label-token': shop.whiteLabelToken, Origin: ORIGIN },
      method,
      `/api/v3/white-label${path}`,
      body,
      also,
    );

  const designs = (await host('GET', '/design?type=product')).data as Array<{ id: number; category: string }>;
  const designId = designs.find((d) => d.category === 'product')!.id;
  const structure = (await host('GET', `/design/${designId}/structure`)) as {
    widget: Array<{ design_widget_id: number; type: string; fillable: boolean }>;
  };
  const section = structure.widget.find((w) => w.fillable && w.type === 'section')!.design_widget_id;
  const product = (n: number) => ({
    id: `M-${n}`,
    name: { default: `Trail shoe ${n}`, cs: `Trailová bota ${n}`, en: `Trail shoe ${n}` },
    short_description: { default: 'A light trail shoe with a grippy sole. It drains water fast.' },
    description: { default: `<p>Made for wet mountain paths. Model ${n} weighs 280 g per shoe.</p>` },
    url: { default: `https://shop.example/p/${n}` },
  });

  let counter = 0;
  let requests = 0;
  let cursor = '';
  /** One request of connection `c`; its ids are its own (100 of them), so imports never wait on each other. */
  const step = async (c: number): Promise<void> => {
    const n = ++counter;
    // A bounded catalogue: memory must not grow with the data.
    const id = c * 100 + (n % 100);
    switch (n % 8) {
      case 0: {
        const from = c * 100 + (n % 5) * 20;
        await api(
          'POST',
          '/api/v2/rest/products',
          Array.from({ length: 20 }, (_, i) => product(from + i)),
        );
        break;
      }
      case 1:
        await api(
          'GET',
          `/api/v2/rest/products?lang=all&include=marketplace,site_link,rich_snippet&page=${1 + (n % 5)}`,
        );
        break;
      case 2: {
        const page = await api('GET', `/api/v2/rest/changes?limit=100${cursor ? `&after=${cursor}` : ''}`);
        cursor = String(page.next_cursor ?? '');
        break;
      }
      case 3:
        await host('POST', '/register-entity', {
          entity_id: `M-${id}`,
          type: 'product',
          title: `Trail shoe ${id}`,
        });
        break;
      case 4:
        // 404: the entity is registered by another step of the load, maybe not yet.
        await host(
          'POST',
          `/entity/M-${id}/type/product/design`,
          {
            design_id: designId,
            widget: [
              {
                design_widget_id: section,
                fields: { heading: `Shoe ${n}`, paragraph: '<p>Grippy sole.</p>' },
              },
            ],
          },
          [404],
        );
        break;
      case 5:
        await host('GET', `/content/M-${id}/type/product?lang=cs`, undefined, [404]);
        break;
      case 6:
        if (n % 48 === 6)
          // 404: not registered yet; 409: its previous generation still runs; 422: replacing
          // would empty a language the entity has no text for (the language rule).
          await host(
            'POST',
            `/content/M-${id}/type/product/generate`,
            {
              design_id: designId,
              lang: 'cs',
              name: `Trailová bota ${id}`,
              short_description: 'Lehká bota do terénu. Rychle schne.',
              parameter: 'Hmotnost: 280 g\nDrop: 6 mm',
              remove_exist_widget: true,
            },
            [404, 409, 422],
          );
        else await api('GET', '/api/v2/rest/whoami');
        break;
      default:
        await api('GET', '/api/v2/rest/whoami');
    }
    requests++;
  };

  const samples = new Map(services.map((s) => [s.name, [] as Sample[]]));
  let phase: Phase = 'soak';
  const began = Date.now();
  const phaseStart: Record<Phase, number> = { soak: 0, pipeline: NaN, list: NaN, idle: NaN };
  const enter = (next: Phase) => {
    phase = next;
    phaseStart[next] = Date.now() - began;
  };
  const sample = async (): Promise<void> => {
    const at = Date.now() - began;
    const now = phase;
    await Promise.all(
      services.map(async (s) => {
        const [mib, v8] = await Promise.all([
          rssMiB(s.pid),
          heapMiB(s).catch(() => ({ heap: NaN, committed: NaN, external: NaN })),
        ]);
        samples.get(s.name)!.push({ at, phase: now, mib, ...v8 });
      }),
    );
    if (Math.round(at / SAMPLE_MS) % 6 === 0)
      log(
        `  ${(at / 1000).toFixed(0)} s, ${now}: ` +
          services
            .map((s) => {
              const x = samples.get(s.name)!.at(-1)!;
              return `${s.name} ${x.mib.toFixed(0)}/${x.heap.toFixed(0)}/${x.committed.toFixed(0)}/${x.external.toFixed(0)}`;
            })
            .join(', ') +
          ' (MiB: RSS/heap in use/heap committed/external)',
      );
  };
  const sampler = setInterval(() => void sample(), SAMPLE_MS);
  cleanup.defer('stop sampling', async () => clearInterval(sampler));

  log(
    `bench:memory: ${settings.minutes} min of mixed load, ${settings.connections} connections; ` +
      `NODE_OPTIONS="${common.NODE_OPTIONS}"${Object.keys(settings.extraEnv).length ? `, BENCH_MEMORY_ENV ${JSON.stringify(settings.extraEnv)}` : ''}…`,
  );
  const end = began + settings.minutes * 60_000;
  await Promise.all(
    Array.from({ length: settings.connections }, async (_, c) => {
      while (Date.now() < end) await step(c);
    }),
  );

  enter('pipeline');
  log(
    `pipeline: ${settings.renderProducts} products imported 100 per request, until the worker rendered them…`,
  );
  const pipelineStarted = Date.now();
  const batches = settings.renderProducts / 100;
  let nextBatch = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let b = nextBatch++; b < batches; b = nextBatch++) {
        const items = Array.from({ length: 100 }, (_, i) => productItem(productId('R', b * 100 + i + 1)));
        await call(
          catalogue.url,
          { Authorization: `Bearer ${pipelineShop.apiToken}` },
          'POST',
          '/api/v2/rest/products',
          items,
        );
      }
    }),
  );
  for (;;) {
    const row = await db('products')
      .where({ eshop_id: pipelineShop.eshop.id, status: 'ready' })
      .count<{ n: string }[]>({ n: '*' })
      .first();
    if (Number(row?.n ?? 0) >= settings.renderProducts) break;
    if (Date.now() - pipelineStarted > 600_000)
      throw new Error(`pipeline: ${row?.n} of ${settings.renderProducts} products rendered after 10 min`);
    await sleep(1_000);
  }
  const pipelineSeconds = (Date.now() - pipelineStarted) / 1000;

  enter('list');
  log(
    `list: ${settings.listConnections} connections for ${settings.listSeconds} s, then ${IDLE_MS / 1000} s idle…`,
  );
  let page = 0;
  const listed = await new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(
      {
        url: catalogue.url,
        connections: settings.listConnections,
        duration: settings.listSeconds,
        timeout: 60,
        requests: [
          {
            setupRequest: (req) => ({
              ...req,
              method: 'GET',
              path: `/api/v2/rest/products?${LIST_QUERY}&page=${1 + (page++ % LIST_PAGES)}`,
              headers: { Authorization: `Bearer ${listShop.apiToken}` },
            }),
          },
        ],
      },
      (err: Error | null, res) => (err ? reject(err) : resolve(res)),
    );
  });
  // 503 is the service's answer when more requests wait for a database connection than
  // DATABASE_POOL_QUEUE_MAX (the defaults: 10 connections, 20 waiting): counted, not a failure.
  const shed = listed.statusCodeStats?.['503']?.count ?? 0;
  if (listed.non2xx - shed || listed.errors || listed.timeouts)
    throw new Error(
      `list: ${listed.non2xx - shed} non-2xx answers other than 503 ${JSON.stringify(listed.statusCodeStats)}, ` +
        `${listed.errors} socket errors, ${listed.timeouts} timeouts\n` +
        `--- catalogue-api output ---\n${catalogue.output().slice(-3000)}`,
    );
  const served = listed.requests.total - shed;

  enter('idle');
  await sleep(IDLE_MS);
  clearInterval(sampler);
  await sample();
  const total = (Date.now() - began) / 1000;

  const of = (name: string, p?: Phase) => samples.get(name)!.filter((x) => !p || x.phase === p);
  const max = (list: Sample[], key: 'mib' | 'heap' | 'committed' | 'external' = 'mib') =>
    Math.max(...list.map((x) => x[key]).filter(Number.isFinite));
  const around = (list: Sample[], atMs: number) =>
    median(list.filter((s) => Math.abs(s.at - atMs) <= SAMPLE_MS * 1.5).map((s) => s.mib));

  log(
    `\n${requests.toLocaleString('en-US')} requests of mixed load in ${settings.minutes} min; ` +
      `pipeline: ${settings.renderProducts} products rendered in ${pipelineSeconds.toFixed(0)} s; ` +
      `list: ${served.toLocaleString('en-US')} pages of ` +
      `${(listed.throughput.total / Math.max(1, served) / 1e6).toFixed(2)} MB in ${listed.duration} s ` +
      `at ${settings.listConnections} connections (and ${shed} answered 503, shed at the pool's queue); ` +
      `whole run ${total.toFixed(0)} s\n`,
  );

  // The bounds (docs/decisions/0068-memory-bounds.md).
  // Under load: the list phase and the idle minute's first seconds, when requests autocannon cut
  // off at the end are still being answered.
  const apiLoad = Math.max(max(of('catalogue-api', 'list')), max(of('catalogue-api', 'idle')));
  const apiIdle = samples.get('catalogue-api')!.at(-1)!.mib;
  const workerMax = max(of('generation-worker'));
  const bound = (name: string, mib: number, limit: number) =>
    figure({ name, unit: 'MiB', ...spread([mib]), target: `<= ${limit} MiB`, met: mib <= limit });
  bound(
    `catalogue-api RSS, max from the ${settings.listConnections}-connection list load on`,
    apiLoad,
    settings.apiLoadMiB,
  );
  bound(`catalogue-api RSS after ${IDLE_MS / 1000} s idle`, apiIdle, settings.apiIdleMiB);
  bound('generation-worker RSS, max over the run', workerMax, settings.workerMiB);
  log('Bounds (RSS, MiB)\n');
  log(
    table(
      ['what', 'RSS', 'bound', 'result'],
      [
        [
          `catalogue-api, max from the ${settings.listConnections}-connection list load on`,
          apiLoad.toFixed(1),
          `≤ ${settings.apiLoadMiB}`,
          verdict('catalogue-api RSS under list load', apiLoad <= settings.apiLoadMiB, 'ABOVE'),
        ],
        [
          `catalogue-api, after ${IDLE_MS / 1000} s idle`,
          apiIdle.toFixed(1),
          `≤ ${settings.apiIdleMiB}`,
          verdict('catalogue-api RSS after idle', apiIdle <= settings.apiIdleMiB, 'ABOVE'),
        ],
        [
          'generation-worker, max over the run',
          workerMax.toFixed(1),
          `≤ ${settings.workerMiB}`,
          verdict('generation-worker RSS', workerMax <= settings.workerMiB, 'ABOVE'),
        ],
      ],
    ),
  );

  // The leak check: RSS at the end of the soak over RSS after its first minute.
  const rows: string[][] = [];
  for (const s of services) {
    const list = of(s.name, 'soak');
    const first = around(list, 60_000);
    const last = median(list.slice(-3).map((x) => x.mib));
    const ratio = last / first;
    if (settings.minutes >= 2) {
      figure({
        name: `${s.name} RSS at the end of the soak / after its first minute`,
        unit: 'ratio',
        ...spread([ratio]),
        target: `<= ${settings.limit}`,
        met: ratio <= settings.limit,
      });
    }
    rows.push([
      s.name,
      first.toFixed(1),
      last.toFixed(1),
      max(list).toFixed(1),
      ratio.toFixed(2),
      // A soak shorter than 2 min has no warm minute to compare its end with: reported, not judged.
      settings.minutes < 2
        ? 'not judged (soak < 2 min)'
        : verdict(`${s.name} RSS end / 1 min`, ratio <= settings.limit, 'ABOVE'),
    ]);
  }
  log('\nSoak: RSS in MiB (median of the samples at 1 min and of the last 3 of the soak)\n');
  log(table(['service', 'at 1 min', 'at end', 'max', 'end / 1 min', `≤ ${settings.limit}`], rows));

  const phases: Phase[] = ['soak', 'pipeline', 'list', 'idle'];
  log('\nMax RSS / heap in use / heap committed / external (MiB) per phase; idle: its last sample\n');
  log(
    table(
      ['service', ...phases],
      services.map((s) => [
        s.name,
        ...phases.map((p) => {
          const list = of(s.name, p);
          if (!list.length) return '-';
          const pick = p === 'idle' ? [list.at(-1)!] : list;
          return ['mib', 'heap', 'committed', 'external']
            .map((k) => max(pick, k as 'mib').toFixed(0))
            .join('/');
        }),
      ]),
    ),
  );

  // The trend: RSS / heap / external every minute of the soak (a leak grows the heap steadily;
  // a process warming up grows in the first minutes and then holds), then every 10 s of the
  // list phase and the idle minute.
  const point = (name: string, atMs: number) => {
    const list = samples.get(name)!.filter((x) => Math.abs(x.at - atMs) <= SAMPLE_MS * 0.6);
    return list.length
      ? (['mib', 'heap', 'committed', 'external'] as const)
          .map((k) => median(list.map((x) => x[k])).toFixed(0))
          .join('/')
      : '-';
  };
  const minutes = Array.from({ length: Math.floor(settings.minutes) }, (_, i) => i + 1);
  log('\nSoak: RSS / heap in use / heap committed / external (MiB) at each minute\n');
  log(
    table(
      ['service', ...minutes.map((m) => `${m} min`)],
      services.map((s) => [s.name, ...minutes.map((m) => point(s.name, m * 60_000))]),
    ),
  );
  const marks = Array.from(
    { length: Math.floor((settings.listSeconds + IDLE_MS / 1000) / 10) + 1 },
    (_, i) => i * 10,
  );
  log(
    '\nList phase then idle: RSS / heap in use / heap committed / external (MiB), seconds from the start of the list phase\n',
  );
  log(
    table(
      ['service', ...marks.map((t) => `${t} s${t === settings.listSeconds ? ' (idle)' : ''}`)],
      services.map((s) => [s.name, ...marks.map((t) => point(s.name, phaseStart.list + t * 1000))]),
    ),
  );
});
