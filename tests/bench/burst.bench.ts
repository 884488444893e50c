// npm run bench:burst — bursts a real shop sends. For each endpoint class (the public price list
// on credit-service, white-label GET /credit, the design list, a generation start, the v2 product
// list, a v2 import) autocannon opens
// 50, then 200 connections (BENCH_BURST_CONNECTIONS) against compiled services with the default
// settings on a healthy database, each connection sending BENCH_BURST_REQUESTS (2) requests back
// to back: a burst ends when every request is answered, each client waiting at most its patience
// (PATIENCE_S). A 503 is a failure here, and so is a request not answered within the patience:
// `--check` exits 1 when any appears. The table puts the counts beside the machine's load average.
// Loopback only.
// See README.md and docs/benchmarks.md.
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { adminService } from '@catalogue/admin';
import { seedCatalogue } from '@catalogue/content-store';
import { WHITE_LABEL_PREFIX, WHITE_LABEL_TOKEN_HEADER } from '@catalogue/http';
import {
  Cleanup,
  createBenchDatabase,
  deleteKeys,
  freePort,
  positive,
  REPO_ROOT,
  runBenchmark,
  startChild,
  imageNodeOptions,
  importParameters,
  REALISTIC,
  table,
  verdict,
  type ChildServer,
} from './harness';
import { contentInsert, productId, productItem } from './fixtures';
import { figure, spread } from './results';
import { shedCounts, shedSince } from './shed-metrics';

const PRODUCTS = 100;
const ORIGIN = 'https://shop.example';
const log = (line: string) => process.stdout.write(`${line}\n`);

/**
 * A client's patience (s): how long it waits for one answer before it gives up (deploy/README.md,
 * "Bursts and overload"; docs/benchmarks.md, "npm run bench:burst").
 */
const PATIENCE_S = 30;

interface BurstEnv {
  /** Requests each client sends, one after the other. */
  requests: number;
  connections: number[];
  databaseUrl: string;
  redisUrl: string;
}

function burstEnv(): BurstEnv {
  const raw = process.env.BENCH_BURST_CONNECTIONS ?? '50,200';
  const connections = raw.split(',').map(Number);
  if (!connections.every((c) => Number.isInteger(c) && c > 0 && c <= 500)) {
    throw new Error(`BENCH_BURST_CONNECTIONS must be integers from 1 to 500 (got "${raw}")`);
  }
  return {
    requests: positive('BENCH_BURST_REQUESTS', 2),
    connections,
    databaseUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/catalogue',
    redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  };
}

interface Endpoint {
  name: string;
  server: ChildServer;
  request: autocannon.Request;
  /** Statuses that are this endpoint's served answers besides 2xx (a repeated start's 409). */
  served?: number[];
}

interface Counted {
  endpoint: string;
  connections: number;
  ok: number;
  shed: number;
  other: number;
  errors: number;
  /** Statuses other than 2xx and 503, with their counts. */
  others: Map<number, number>;
  p99: number;
  load: string;
  /** The service's own count of what it shed, by reason. */
  shedByServer: string;
}

function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

async function burst(endpoint: Endpoint, connections: number, requests: number): Promise<Counted> {
  const counted: Counted = {
    endpoint: endpoint.name,
    connections,
    ok: 0,
    shed: 0,
    other: 0,
    errors: 0,
    others: new Map(),
    p99: 0,
    load: '',
    shedByServer: '',
  };
  const before = await shedCounts(endpoint.server.url);
  const latencies: number[] = [];
  let firstOther: string | undefined;
  const request: autocannon.Request = {
    ...endpoint.request,
    onResponse: (status, body) => {
      const ok = (status >= 200 && status < 300) || status === 503 || endpoint.served?.includes(status);
      if (!ok) firstOther ??= `${status} ${body.slice(0, 200)}`;
    },
  };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      // Every request of the burst answered, or given up after the client's patience.
      {
        url: endpoint.server.url,
        connections,
        amount: connections * requests,
        timeout: PATIENCE_S,
        requests: [request],
      },
      (err: Error | null, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      latencies.push(ms);
      if ((status >= 200 && status < 300) || endpoint.served?.includes(status)) counted.ok += 1;
      else if (status === 503) counted.shed += 1;
      else {
        counted.other += 1;
        counted.others.set(status, (counted.others.get(status) ?? 0) + 1);
      }
    });
  });
  counted.errors = result.errors + result.timeouts;
  if (firstOther) log(`${endpoint.name}, ${connections} connections: first other answer: ${firstOther}`);
  counted.p99 = percentile(latencies, 0.99);
  counted.load = loadavg()[0]!.toFixed(2);
  counted.shedByServer = shedSince(before, await shedCounts(endpoint.server.url));
  // Requests cut off when the time was up still run on the server: let them end.
  await new Promise((r) => setTimeout(r, Math.min(10_000, Math.max(500, percentile(latencies, 1)))));
  return counted;
}

async function run(env: BurstEnv, cleanup: Cleanup): Promise<void> {
  const runId = `${process.pid}`;
  const { url, db } = await createBenchDatabase(env.databaseUrl, `catalogue_bench_burst_${runId}`, cleanup);
  // The widget catalogue and public designs `npm run migrate` seeds (a generation needs a design).
  await seedCatalogue(db);
  const created = await adminService(db).createEshop({
    name: 'Bench burst',
    languages: ['default', 'cs', 'en'],
    origins: [ORIGIN],
    credits: 1_000_000,
    ...REALISTIC,
    reviewRequired: false,
    licenceValidUntil: '2099-12-31',
  });
  const prefix = `catalogue-bench-burst-${runId}`;
  cleanup.defer(`delete Redis keys ${prefix}:*`, async () => void (await deleteKeys(env.redisUrl, prefix)));
  const common = {
    DATABASE_URL: url,
    REDIS_URL: env.redisUrl,
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    NODE_OPTIONS: imageNodeOptions(),
    // The limiter stays in the path with budgets a burst never reaches: it is not what is measured.
    RATE_LIMIT_READ_PER_MINUTE: '1000000',
    RATE_LIMIT_WRITE_PER_MINUTE: '1000000',
    RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000',
    RATE_LIMIT_GENERATE_PER_MINUTE: '1000000',
  };
  const start = async (service: string, portVariable: string): Promise<ChildServer> => {
    const port = await freePort();
    return startChild({
      name: service,
      script: join(REPO_ROOT, 'services', service, 'dist', 'main.js'),
      port,
      env: { ...common, [portVariable]: String(port) },
      cleanup,
    });
  };
  const catalogue = await start('catalogue-api', 'CATALOGUE_API_PORT');
  const whiteLabel = await start('white-label-api', 'WHITE_LABEL_API_PORT');
  const credit = await start('credit-service', 'CREDIT_SERVICE_PORT');

  const auth = { authorization: `Bearer ${created.apiToken}` };
  await importParameters(catalogue.url, created.apiToken);
  const items = Array.from({ length: PRODUCTS }, (_, i) => productItem(productId('P', i + 1), 0, true));
  const seeded = await fetch(`${catalogue.url}/api/v2/rest/products`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth },
    body: JSON.stringify(items),
  });
  if (seeded.status !== 200) throw new Error(`seeding: ${seeded.status} ${await seeded.text()}`);
  await db('products').update({ status: 'ready', is_loaded: true });
  const { sql, bindings } = contentInsert();
  await db.raw(sql, bindings);
  await db.raw('vacuum analyze products, product_variants, content');

  const whiteLabelHeaders = { [WHITE_LABEL_TOKEN_HEADER]: created.whiteLabelToken, origin: ORIGIN };
  const designs = await fetch(`${whiteLabel.url}${WHITE_LABEL_PREFIX}/design?type=product`, {
    headers: whiteLabelHeaders,
  });
  const designId = ((await designs.json()) as { data: { id: number }[] }).data[0]?.id;
  if (!designId) throw new Error(`no product design to generate with (${designs.status})`);
  // Generation needs entities registered with the white-label API.
  for (let i = 1; i <= PRODUCTS; i++) {
    const registered = await fetch(`${whiteLabel.url}${WHITE_LABEL_PREFIX}/register-entity`, {
      method: 'POST',
      headers: { ...whiteLabelHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({ entity_id: productId('P', i), type: 'product', title: `Product ${i}` }),
    });
    if (registered.status >= 300)
      throw new Error(`register-entity: ${registered.status} ${await registered.text()}`);
  }
  // Each start names the next product: one job runs per entity, so a start on an entity that
  // has one is a 409, an answer, not a refusal (the rest of a long burst).
  let nextEntity = 0;
  const endpoints: Endpoint[] = [
    { name: 'public price list', server: credit, request: { method: 'GET', path: '/public/credit' } },
    {
      name: 'white-label GET /credit',
      server: whiteLabel,
      request: {
        method: 'GET',
        path: `${WHITE_LABEL_PREFIX}/credit`,
        headers: whiteLabelHeaders,
      },
    },
    {
      name: 'white-label design list',
      server: whiteLabel,
      request: {
        method: 'GET',
        path: `${WHITE_LABEL_PREFIX}/design?type=product`,
        headers: whiteLabelHeaders,
      },
    },
    {
      name: 'generation start (200 or 409)',
      server: whiteLabel,
      served: [409],
      request: {
        method: 'POST',
        headers: { ...whiteLabelHeaders, 'content-type': 'application/json' },
        body: JSON.stringify({ design_id: designId, remove_exist_widget: false }),
        setupRequest: (request) => {
          nextEntity = (nextEntity % PRODUCTS) + 1;
          return {
            ...request,
            path: `${WHITE_LABEL_PREFIX}/content/${productId('P', nextEntity)}/type/product/generate`,
          };
        },
      },
    },
    {
      name: 'v2 list (100 products)',
      server: catalogue,
      request: { method: 'GET', path: `/api/v2/rest/products?page=1&per_page=${PRODUCTS}`, headers: auth },
    },
    {
      name: 'v2 import (1 product)',
      server: catalogue,
      request: {
        method: 'POST',
        path: '/api/v2/rest/products',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify([productItem(productId('B', 1), 0, true)]),
      },
    },
  ];

  log(
    `burst benchmark: ${env.requests} requests per client back to back, a client's patience ${PATIENCE_S} s, ` +
      'default settings, loopback',
  );
  log(
    `machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}; ` +
      `load average before ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  const results: Counted[] = [];
  for (const endpoint of endpoints) {
    // A short warm-up per endpoint (compiled code paths, pool connections).
    await burst(endpoint, 10, 1);
    for (const connections of env.connections) results.push(await burst(endpoint, connections, env.requests));
  }
  log('');
  log(
    table(
      [
        'endpoint',
        'connections',
        '2xx',
        '503',
        'shed by (server)',
        'other',
        'errors',
        'p99 ms',
        'load (1 min)',
      ],
      results.map((r) => [
        r.endpoint,
        String(r.connections),
        String(r.ok),
        String(r.shed),
        r.shedByServer,
        r.other ? `${r.other} (${[...r.others].map(([s, n]) => `${n} × ${s}`).join(', ')})` : '0',
        String(r.errors),
        String(Math.round(r.p99)),
        r.load,
      ]),
    ),
  );
  log('');
  const shed = results.reduce((n, r) => n + r.shed, 0);
  const other = results.reduce((n, r) => n + r.other + r.errors, 0);
  log(`503s in all bursts: ${shed} (target 0) ${verdict('no 503 under a burst', shed === 0)}`);
  // One reading per burst: the 503s it got, then every other failure of the run.
  for (const r of results) {
    figure({
      name: `503s, ${r.endpoint}, ${r.connections} clients`,
      unit: 'answers',
      ...spread([r.shed]),
      target: '= 0',
      met: r.shed === 0,
    });
  }
  figure({
    name: 'other failures in all bursts (non-2xx but 503, socket errors, timeouts)',
    unit: 'answers',
    ...spread([other]),
    target: '= 0',
    met: other === 0,
  });
  log(
    `other failures (non-2xx but 503, socket errors, timeouts): ${other} ${verdict('no failures', other === 0)}`,
  );
}

runBenchmark('bench:burst', burstEnv, run);
