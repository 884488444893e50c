// npm run bench:tracing — what tracing costs on the hot paths: bench:auth's whoami and
// bench:catalogue's list (a page of 100 products, every language, nested, marketplace and
// variants), each on the catalogue API with tracing off against the same API with tracing on,
// interleaved in one run (a busy, shared machine moves both sides alike). Tracing on exports
// over OTLP to a collector stand-in in this process that accepts and drops the spans, with the
// chart's sampler (parentbased_traceidratio, 10 %) and, to show the ceiling, every trace kept
// (parentbased_always_on). See README.md and docs/benchmarks.md.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { Redis } from 'ioredis';
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
  runBenchmark,
  startChild,
  table,
  verdict,
  type BenchEnv,
  type ChildServer,
  type LoadSpec,
  type Measurement,
} from './harness';

const SCENARIOS = ['whoami', 'list'] as const;
/** Issue 30: tracing with the chart's sampling costs under 5 % of the throughput. */
const LIMIT = 0.05;
const PRODUCTS = 2_000;
const BATCH = 100;
const PAGES = PRODUCTS / BATCH;
const LIST_QUERY = 'per_page=100&lang=all&include=nested,marketplace,variant';
const log = (line: string) => process.stdout.write(`${line}\n`);
const fixed = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** A collector stand-in: answers every OTLP export at once and counts the bytes. */
async function startSink(cleanup: Cleanup): Promise<{ url: string; bytes: () => number }> {
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => res.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.defer(
    'stop the collector stand-in',
    () => new Promise<void>((resolve) => server.close(() => resolve())),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bytes: () => bytes };
}

async function startService(
  name: string,
  env: BenchEnv,
  databaseUrl: string,
  queuePrefix: string,
  tracing: Record<string, string>,
  cleanup: Cleanup,
): Promise<ChildServer> {
  const port = await freePort();
  return startChild({
    name,
    script: join(REPO_ROOT, 'services', 'catalogue-api', 'dist', 'main.js'),
    port,
    env: {
      DATABASE_URL: databaseUrl,
      REDIS_URL: env.redisUrl,
      QUEUE_PREFIX: queuePrefix,
      CATALOGUE_API_PORT: String(port),
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      RATE_LIMIT_READ_PER_MINUTE: '1000000',
      RATE_LIMIT_WRITE_PER_MINUTE: '1000000',
      ...tracing,
    },
    nodeArgs: cpuProfileArgs(env.cpuProfDir, name.replace(/\W+/g, '-')),
    cleanup,
  });
}

async function run(env: BenchEnv, cleanup: Cleanup): Promise<void> {
  const runId = `${process.pid}`;
  const queuePrefix = `catalogue-bench-tracing-${runId}`;
  const { url, db } = await createBenchDatabase(env.databaseUrl, `catalogue_bench_tracing_${runId}`, cleanup);
  cleanup.defer(
    `delete Redis keys ${queuePrefix}*`,
    async () => void (await deleteKeys(env.redisUrl, queuePrefix)),
  );
  const eshop = await createBenchEshop(db, 'Bench tracing', ['default', 'cs', 'en']);
  const sink = await startSink(cleanup);
  const otlp = { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url };
  const off = await startService('tracing off', env, url, `${queuePrefix}-off`, {}, cleanup);
  const sampled = await startService(
    'tracing 10 %',
    env,
    url,
    `${queuePrefix}-10`,
    { ...otlp, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' },
    cleanup,
  );
  const all = await startService(
    'tracing 100 %',
    env,
    url,
    `${queuePrefix}-100`,
    { ...otlp, OTEL_TRACES_SAMPLER: 'parentbased_always_on' },
    cleanup,
  );

  // The list's products, imported through the endpoint, then made listable as bench:catalogue does.
  const bearer = { authorization: `Bearer ${eshop.token}` };
  for (let page = 0; page < PAGES; page++) {
    const items = Array.from({ length: BATCH }, (_, i) => productItem(productId('P', page * BATCH + i + 1)));
    const res = await fetch(`${off.url}/api/v2/rest/products`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify(items),
    });
    if (res.status !== 200) throw new Error(`seeding: ${res.status} ${await res.text()}`);
  }
  await db('products').update({ status: 'ready', is_loaded: true });
  const { sql, bindings } = contentInsert();
  await db.raw(sql, bindings);
  await db.raw('vacuum analyze products, product_variants, content');

  const whoamiBody = `{"data":{"eshop_id":${eshop.id}}}`;
  const spec = (scenario: (typeof SCENARIOS)[number], side: string, server: ChildServer): LoadSpec => {
    let n = 0;
    return scenario === 'whoami'
      ? {
          scenario,
          side,
          server,
          next: (): autocannon.Request => ({ method: 'GET', path: '/api/v2/rest/whoami', headers: bearer }),
          itemsPerRequest: 1,
          check: (answer) => answer === whoamiBody,
        }
      : {
          scenario,
          side,
          server,
          next: (): autocannon.Request => ({
            method: 'GET',
            path: `/api/v2/rest/products?${LIST_QUERY}&page=${(n++ % PAGES) + 1}`,
            headers: bearer,
          }),
          itemsPerRequest: BATCH,
        };
  };

  const redis = new Redis(env.redisUrl);
  cleanup.defer('close Redis connection', async () => redis.disconnect());
  const load = loadavg().map((l) => l.toFixed(2));
  const pairs: Array<{ scenario: string; off: Measurement; on: Measurement; sampling: string }> = [];
  for (const scenario of SCENARIOS.filter((s) => env.scenarios.has(s))) {
    for (const [sampling, traced] of [
      ['10 %', sampled],
      ['100 %', all],
    ] as const) {
      log(
        `${scenario}: tracing off / ${sampling}, ${env.warmup} s warm-up, then ${env.duration} s of each side in ${env.rounds} rounds…`,
      );
      const [offSide, onSide] = await measurePair(
        [spec(scenario, 'tracing off', off), spec(scenario, `tracing ${sampling}`, traced)],
        {
          ...env,
          db,
          redis,
        },
      );
      pairs.push({ scenario, off: offSide, on: onSide, sampling });
    }
  }
  const loadAfter = loadavg().map((l) => l.toFixed(2));

  log('');
  log(
    `tracing benchmark: ${env.connections} connections, ${env.duration} s per side (${env.rounds} interleaved rounds) ` +
      `after a ${env.warmup} s warm-up; OTLP/HTTP export to a local collector stand-in (${fixed(sink.bytes() / 1024)} KiB received)`,
  );
  log(
    `machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}; ` +
      `load average before ${load.join(' ')}, after ${loadAfter.join(' ')}`,
  );
  log('');
  log(
    table(
      ['scenario', 'side', 'req/s', 'p50 ms', 'p99 ms', 'cpu ms/req: node'],
      pairs.flatMap(({ scenario, off: a, on: b }) =>
        [a, b].map((m) => [
          scenario,
          m.side,
          fixed(m.reqPerSec, 1),
          fixed(m.p50),
          fixed(m.p99),
          m.cpuPerRequest ? fixed(m.cpuPerRequest.node, 2) : '–',
        ]),
      ),
      2,
    ),
  );
  log('');
  for (const { scenario, off: a, on: b, sampling } of pairs) {
    const cost = 1 - b.reqPerSec / a.reqPerSec;
    const line = `${scenario}: tracing ${sampling} costs ${fixed(cost * 100, 1)} % of the throughput`;
    log(
      sampling === '10 %'
        ? `${line} (limit ${LIMIT * 100} %) ${verdict(`${scenario} tracing cost`, cost <= LIMIT, 'ABOVE')}`
        : line,
    );
  }
}

runBenchmark('bench:tracing', () => benchEnv(SCENARIOS), run);
