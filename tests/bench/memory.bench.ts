// npm run bench:memory — the leak check of issue 19 (goal 6): the four services, compiled, in
// their own processes on the run's own database and queue prefix, under a mixed load for
// BENCH_MEMORY_MINUTES (10): v2 imports (which the worker renders), v2 list pages, whoami, the
// change feed, and the white-label editor's calls (register, fill a design, read and edit
// content, generate with the builtin provider, whose settlement the credit service applies).
// Each service's RSS is read from /proc every 10 s; the figure is RSS at the end over RSS after
// the first minute (each the median of the samples around it). Exits 1 when a service is above
// 1.2 (BENCH_MEMORY_LIMIT) with --check, or when a request fails.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { adminService } from '@catalogue/admin';
import {
  createBenchDatabase,
  deleteKeys,
  freePort,
  positive,
  REPO_ROOT,
  runBenchmark,
  verdict,
  startChild,
  table,
  type ChildServer,
} from './harness';

const ORIGIN = 'https://admin.memory.bench';
const SAMPLE_MS = 10_000;
const log = (line: string) => process.stdout.write(`${line}\n`);

interface Env {
  minutes: number;
  limit: number;
  connections: number;
  databaseUrl: string;
  redisUrl: string;
}

const env = (): Env => ({
  minutes: positive('BENCH_MEMORY_MINUTES', 10),
  limit: positive('BENCH_MEMORY_LIMIT', 1.2),
  connections: Math.round(positive('BENCH_CONNECTIONS', 6)),
  databaseUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/catalogue',
  redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
});

/** Resident set size of a process in MiB (VmRSS of /proc/<pid>/status). */
async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** The V8 heap in use of a service in MiB, from its /metrics (prom-client's default gauge). */
async function heapMiB(server: ChildServer): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const bytes = Number(/^nodejs_heap_size_used_bytes(?:\{[^}]*\})? (\S+)$/m.exec(text)?.[1] ?? NaN);
  return bytes / 1024 / 1024;
}

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
  };
  const start = async (name: string, dir: string, portVar: string): Promise<ChildServer> => {
    const port = await freePort();
    return startChild({
      name,
      script: join(REPO_ROOT, 'services', dir, 'dist', 'main.js'),
      port,
      env: { ...common, [portVar]: String(port) },
      cleanup,
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

  const samples = new Map(
    services.map((s) => [s.name, [] as Array<{ at: number; mib: number; heap: number }>]),
  );
  const began = Date.now();
  const end = began + settings.minutes * 60_000;
  const sampler = setInterval(() => {
    for (const s of services)
      void Promise.all([rssMiB(s.pid), heapMiB(s).catch(() => NaN)]).then(([mib, heap]) =>
        samples.get(s.name)!.push({ at: Date.now() - began, mib, heap }),
      );
  }, SAMPLE_MS);
  cleanup.defer('stop sampling', async () => clearInterval(sampler));
  log(`bench:memory: ${settings.minutes} min of mixed load, ${settings.connections} connections…`);
  await Promise.all(
    Array.from({ length: settings.connections }, async (_, c) => {
      while (Date.now() < end) await step(c);
    }),
  );
  clearInterval(sampler);

  const around = (list: Array<{ at: number; mib: number; heap: number }>, atMs: number) =>
    median(list.filter((s) => Math.abs(s.at - atMs) <= SAMPLE_MS * 1.5).map((s) => s.mib));
  const rows: string[][] = [];
  for (const s of services) {
    const list = samples.get(s.name)!;
    const first = around(list, 60_000);
    const last = median(list.slice(-3).map((x) => x.mib));
    const ratio = last / first;
    rows.push([
      s.name,
      first.toFixed(1),
      last.toFixed(1),
      Math.max(...list.map((x) => x.mib)).toFixed(1),
      ratio.toFixed(2),
      verdict(`${s.name} RSS end / 1 min`, ratio <= settings.limit, 'ABOVE'),
    ]);
  }
  log(
    `\n${requests.toLocaleString('en-US')} requests in ${settings.minutes} min; RSS in MiB (median of the samples at 1 min and of the last 3)\n`,
  );
  log(table(['service', 'at 1 min', 'at end', 'max', 'end / 1 min', `≤ ${settings.limit}`], rows));
  // The trend: RSS and V8 heap in use at each minute (a leak grows the heap steadily; a process
  // warming up grows in the first minutes and then holds).
  const minutes = Array.from({ length: Math.floor(settings.minutes) }, (_, i) => i + 1);
  log('\nRSS / heap in use (MiB) at each minute\n');
  log(
    table(
      ['service', ...minutes.map((m) => `${m} min`)],
      services.map((s) => [
        s.name,
        ...minutes.map((m) => {
          const list = samples.get(s.name)!.filter((x) => Math.abs(x.at - m * 60_000) <= SAMPLE_MS * 1.5);
          return `${median(list.map((x) => x.mib)).toFixed(0)}/${median(list.map((x) => x.heap)).toFixed(0)}`;
        }),
      ]),
    ),
  );
});
