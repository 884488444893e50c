// Tracing in the compiled service, as the image runs it: with OTEL_EXPORTER_OTLP_ENDPOINT set,
// catalogue-api continues a caller's traceparent, logs the trace id on its lines, keeps it as an
// exemplar of its OpenMetrics scrape (which Prometheus' own parser, through promtool, accepts,
// while the Prometheus-text scrape still passes `promtool check metrics`), and exports the
// request's spans (its own and the SQL ones of the knex instrumentation) over OTLP to
// a collector, here a local HTTP receiver.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKnex, type Knex } from '@catalogue/db';
import { eventually, makeEshop } from '@catalogue/testing';
import { startService, type RunningService } from './services';
import { run } from './tools';

const promtool = spawnSync('promtool', ['--version'], { stdio: 'ignore' }).status === 0 ? 'promtool' : null;
if (!promtool && process.env.REQUIRE_PROMTOOL)
  throw new Error('REQUIRE_PROMTOOL is set but promtool is not installed (apt-get install prometheus)');
const withPromtool = promtool ? test : test.skip;

interface Export {
  path: string;
  contentType: string | undefined;
  body: Buffer;
}
const received: Export[] = [];
let collector: Server;
let service: RunningService;
let db: Knex;
const traceId = randomBytes(16).toString('hex');
const traceparent = `00-${traceId}-${randomBytes(8).toString('hex')}-01`;

beforeAll(async () => {
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        contentType: req.headers['content-type'],
        body: Buffer.concat(chunks),
      });
      res.end();
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  db = createKnex({
    url: process.env.TEST_DATABASE_URL!,
    poolMin: 0,
    poolMax: 2,
    statementTimeoutMs: 10_000,
  });
  service = await startService('catalogue-api', 'CATALOGUE_API_PORT', {
    databaseUrl: process.env.TEST_DATABASE_URL!,
    queuePrefix: `${process.env.TEST_QUEUE_PREFIX}-tracing-deploy`,
    extra: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, LOG_LEVEL: 'info' },
  });
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await db?.destroy();
  await new Promise<void>((resolve) => collector.close(() => resolve()));
});

test('when a traced request is served and the service stops, then its spans reach the collector over OTLP and its log line carries the trace id', async () => {
  const shop = await makeEshop(db);
  const res = await fetch(`${service.url}/api/v2/rest/products`, {
    headers: { Authorization: `Bearer ${shop.apiToken}`, traceparent },
  });
  expect(res.status).toBe(200);
  await eventually(() => expect(service.output()).toContain(`"trace_id":"${traceId}"`), 10_000);
  const line = service
    .output()
    .split('\n')
    .find((l) => l.includes(`"trace_id":"${traceId}"`) && l.includes('"msg":"request"'));
  expect(JSON.parse(line!)).toMatchObject({
    route: '/api/v2/rest/products',
    status: 200,
    span_id: expect.any(String),
  });

  // The processor batches; stopping flushes what is left (tracing.shutdown() in main.ts).
  await service.stop();
  const traced = received.filter((e) => e.body.includes(Buffer.from(traceId, 'hex')));
  expect(traced.length).toBeGreaterThan(0);
  expect(traced[0]).toMatchObject({ path: '/v1/traces', contentType: 'application/x-protobuf' });
  const body = Buffer.concat(traced.map((e) => e.body));
  // The request's span and its children: the token's query (instrumentation-knex).
  expect(body.toString('latin1')).toContain('catalogue-api');
  let spans = 0;
  for (
    let at = body.indexOf(Buffer.from(traceId, 'hex'));
    at >= 0;
    at = body.indexOf(Buffer.from(traceId, 'hex'), at + 1)
  )
    spans += 1;
  expect(spans).toBeGreaterThan(1);
  // Nothing of the credential.
  expect(body.includes(Buffer.from(shop.apiToken))).toBe(false);
}, 60_000);

describe('scrapes with tracing on, and the export settings (OTEL_BSP_*)', () => {
  let running: RunningService;
  beforeAll(async () => {
    running = await startService('catalogue-api', 'CATALOGUE_API_PORT', {
      databaseUrl: process.env.TEST_DATABASE_URL!,
      queuePrefix: `${process.env.TEST_QUEUE_PREFIX}-tracing-deploy`,
      extra: {
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
        // Far from the defaults (512 spans or 5 s): one span an export, sent within 100 ms.
        OTEL_BSP_SCHEDULE_DELAY: '100',
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '1',
      },
    });
  }, 120_000);
  afterAll(() => running?.stop());

  test('when OTEL_BSP_SCHEDULE_DELAY and OTEL_BSP_MAX_EXPORT_BATCH_SIZE are set, then a running service exports its spans that soon and that many at a time', async () => {
    const shop = await makeEshop(db);
    const id = randomBytes(16).toString('hex');
    const since = Date.now();
    const res = await fetch(`${running.url}/api/v2/rest/whoami`, {
      headers: {
        Authorization: `Bearer ${shop.apiToken}`,
        traceparent: `00-${id}-${randomBytes(8).toString('hex')}-01`,
      },
    });
    expect(res.status).toBe(200);

    // The request's span and its statements' spans, while the service runs (the defaults would
    // hold them 5 s, until 512 had gathered).
    const traced = () => received.filter((e) => e.body.includes(Buffer.from(id, 'hex')));
    await eventually(() => expect(traced().length).toBeGreaterThan(1), 3_000);
    expect(Date.now() - since).toBeLessThan(3_000);
    for (const body of traced().map((e) => e.body)) {
      expect(body.indexOf(Buffer.from(id, 'hex'))).toBe(body.lastIndexOf(Buffer.from(id, 'hex')));
    }
  }, 60_000);

  withPromtool(
    'when Prometheus asks for OpenMetrics, then the exposition carries the trace exemplar and Prometheus parses it; the text format still passes promtool',
    async () => {
      await fetch(`${running.url}/no/such/path`, { headers: { traceparent } });
      const open = await fetch(`${running.url}/metrics`, {
        headers: { Accept: 'application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5' },
      });
      const text = await open.text();
      expect(text).toContain(`# {trace_id="${traceId}"}`);
      // promtool reads OpenMetrics with Prometheus' scrape parser when it builds blocks from it;
      // that needs a timestamp on every sample, put after the value (before any exemplar).
      const stamped = text.replace(/^([^#\s][^\s{]*(?:\{[^}]*\})?) (\S+)/gm, '$1 $2 1700000000');
      const dir = mkdtempSync(join(tmpdir(), 'openmetrics-'));
      try {
        writeFileSync(join(dir, 'scrape.txt'), stamped);
        const parsed = await run(promtool!, [
          'tsdb',
          'create-blocks-from',
          'openmetrics',
          join(dir, 'scrape.txt'),
          join(dir, 'blocks'),
        ]);
        expect({ code: parsed.code, err: parsed.stderr }).toEqual({ code: 0, err: '' });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      const plain = await run(promtool!, ['check', 'metrics'], {
        input: await (await fetch(`${running.url}/metrics`)).text(),
      });
      expect({ output: plain.stdout + plain.stderr, code: plain.code }).toEqual({ output: '', code: 0 });
    },
    60_000,
  );
});
