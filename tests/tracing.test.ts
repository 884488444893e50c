// One request followed through every service: the APIs, the generation worker and the credit
// service in this process (as tests/full-stack.ts runs them), with tracing on and an in-memory
// span exporter. An import's trace goes from the request (its traceparent honoured) through the
// render job to the webhook delivery of its events; a generation's from the request through the
// worker and the provider to the settlement. A database of its own: the relay reads every
// endpoint of its database.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { databaseName, dropDatabase, withDatabase } from '@catalogue/db';
import { join } from 'node:path';
import { eventually, makeEshop, REPO_ROOT, runNodeScript } from '@catalogue/testing';
import { startTracing, SpanKind } from '@catalogue/tracing';
import { relayEvents } from '../services/generation-worker/src/services/webhook-relay.service';
import { shopCallers, useFullStack } from './full-stack';

// Before any deps are built: queues and workers take BullMQ's telemetry when they are made.
const exporter = new InMemorySpanExporter();
const tracing = startTracing({
  service: 'catalogue-tests',
  exporter,
  // The SQL spans too (jest loads knex past the hooks the instrumentation patches it by).
  loadedKnex: {
    version: (require('knex/package.json') as { version: string }).version, // eslint-disable-line @typescript-eslint/no-require-imports -- the instance the services use
    files: Object.fromEntries(
      ['knex/lib/execution/runner.js', 'knex/lib/client.js'].map((file) => [file, require(file) as object]), // eslint-disable-line @typescript-eslint/no-require-imports -- same
    ),
  },
});

const DATABASE_URL = withDatabase(
  process.env.TEST_DATABASE_URL!,
  `${databaseName(process.env.TEST_DATABASE_URL!)}_tracing`,
);
const PREFIX = `${process.env.TEST_QUEUE_PREFIX}-tracing`;
const ORIGIN = 'https://admin.tracing.test';

beforeAll(async () => {
  expect(await runNodeScript('libs/content-store/dist/cli/migrate.js', [], { DATABASE_URL })).toMatchObject({
    code: 0,
  });
}, 60_000);

const stack = useFullStack(PREFIX, {
  serve: ['catalogue', 'wl'],
  overrides: { DATABASE_URL, WEBHOOK_ALLOW_PRIVATE: '127.0.0.1/32:*' },
  background: { queues: ['render-content', 'generate', 'listing-enrichment', 'webhook-delivery'] },
});
const { catalogue, wl } = stack;
let receiver: Server;
/** The headers of every request the webhook receiver got. */
const received: IncomingHttpHeaders[] = [];
let receiverUrl: string;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    received.push(req.headers);
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await tracing.shutdown();
  await dropDatabase(DATABASE_URL);
});

/** A W3C traceparent of a new sampled trace, as a caller (or a proxy) would send it. */
function newTraceparent(): { traceId: string; header: string } {
  const hex = (bytes: number) =>
    Array.from({ length: bytes }, () =>
      Math.floor(Math.random() * 256)
        .toString(16)
        .padStart(2, '0'),
    ).join('');
  const traceId = hex(16);
  return { traceId, header: `00-${traceId}-${hex(8)}-01` };
}

const spansOf = (traceId: string): ReadableSpan[] =>
  exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

/** The span's chain of parents (nearest first) as far as this trace's recorded spans go. */
function ancestors(span: ReadableSpan, spans: ReadableSpan[]): ReadableSpan[] {
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  const chain: ReadableSpan[] = [];
  for (let p = byId.get(parentOf(span) ?? ''); p; p = byId.get(parentOf(p) ?? '')) chain.push(p);
  return chain;
}

const named = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.name === name);

test('when an import with a traceparent is rendered and its events delivered, then one trace links the request, the render job and the webhook delivery', async () => {
  const shop = await makeEshop(catalogue.deps.db);
  const { backOffice: call } = shopCallers({ wl: wl.url, catalogue: catalogue.url }, shop, ORIGIN);
  const registered = await call('POST', '/api/v2/rest/webhooks', {
    url: receiverUrl,
    event_types: ['item.content_ready'],
  });
  expect(registered.status).toBe(201);
  const { id: endpointId, secret } = registered.body;

  const { traceId, header } = newTraceparent();
  const imported = await call(
    'POST',
    '/api/v2/rest/products',
    [{ id: 'T1', name: { default: 'Traced lamp' } }],
    { headers: { traceparent: header } },
  );
  expect(imported.status).toBe(200);

  // The render job ran in the request's trace and its item.content_ready event kept it.
  await eventually(async () => {
    const row = await catalogue.deps
      .db('events')
      .where({ eshop_id: shop.eshop.id, type: 'item.content_ready' })
      .first();
    expect(row?.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
  }, 15_000);
  await relayEvents(stack.worker);
  await eventually(() => expect(named(spansOf(traceId), 'webhook deliver')).toHaveLength(1), 15_000);
  await eventually(() => expect(named(spansOf(traceId), 'process webhook-delivery')).toHaveLength(1), 5_000);

  const spans = spansOf(traceId);
  // The API's request: a server span continuing the caller's trace, named by its route.
  const [request] = spans.filter((s) => s.kind === SpanKind.SERVER);
  expect(request).toMatchObject({ name: 'POST /api/v2/rest/products' });
  expect(request!.attributes['http.route']).toBe('/api/v2/rest/products');
  expect(request!.parentSpanContext?.isRemote).toBe(true);
  // The queue: the render job added under the request, run under its add (the wait between
  // the two is the time it queued).
  const [add] = named(spans, 'addBulk render-content');
  expect(add!.kind).toBe(SpanKind.PRODUCER);
  expect(ancestors(add!, spans)).toContain(request);
  const [render] = named(spans, 'process render-content');
  expect(render!.kind).toBe(SpanKind.CONSUMER);
  expect(parentOf(render!)).toBe(add!.spanContext().spanId);
  // The delivery: queued by the relay (another trace) yet run under the render job that wrote
  // the event; its span names the endpoint and the answer, never the secret.
  const [deliver] = named(spans, 'webhook deliver');
  expect(ancestors(deliver!, spans).map((s) => s.name)).toEqual(
    expect.arrayContaining([
      'process webhook-delivery',
      'process render-content',
      'POST /api/v2/rest/products',
    ]),
  );
  expect(deliver!.attributes).toMatchObject({
    'app.webhook.endpoint_id': endpointId,
    'http.response.status_code': 200,
    'app.eshop_id': shop.eshop.id,
  });
  // The receiver can join the trace: the delivery's traceparent names its span.
  const [delivered] = received.filter((h) => h['traceparent']?.includes(traceId));
  expect(delivered?.['traceparent']).toBe(`00-${traceId}-${deliver!.spanContext().spanId}-01`);
  // The SQL of the render job: one span per query, named by operation and table.
  expect(ancestors(named(spans, 'insert content')[0]!, spans)).toContain(render);
  const everything = JSON.stringify(spans.map((s) => [s.name, s.attributes, s.events]));
  expect(everything).not.toContain(secret);
  expect(everything).not.toContain(secret.replace(/^whsec_/, ''));
  expect(everything).not.toContain(shop.apiToken);
  expect(everything).not.toContain(receiverUrl);
}, 60_000);

test('when a generation is started with a traceparent, then its trace holds the worker, the provider call and the settlement', async () => {
  const shop = await makeEshop(wl.deps.db, { origins: [ORIGIN], languages: ['default', 'cs'], credits: 200 });
  const { host } = shopCallers({ wl: wl.url, catalogue: catalogue.url }, shop, ORIGIN);
  expect(
    (await host('POST', '/register-entity', { entity_id: 'G1', type: 'product', title: 'Lamp' })).status,
  ).toBe(201);
  const designs = await host('GET', '/design?type=product');
  const design = designs.body.data.find((d) => d.name && d.category === 'product');

  const { traceId, header } = newTraceparent();
  const started = await host(
    'POST',
    '/content/G1/type/product/generate',
    { design_id: design!.id, lang: 'cs', name: 'Lampa Nova', short_description: 'Stolní lampa.' },
    { headers: { traceparent: header } },
  );
  expect(started.status).toBe(200);
  const jobId: number = started.body.data.id;
  await eventually(() => expect(named(spansOf(traceId), 'credit settle')).toHaveLength(1), 30_000);
  await eventually(() => expect(named(spansOf(traceId), 'process credit-settlement')).toHaveLength(1), 5_000);

  const spans = spansOf(traceId);
  const [request] = spans.filter((s) => s.kind === SpanKind.SERVER);
  expect(request!.name).toBe('POST /api/v3/white-label/content/:entity_id/type/:entity_type/generate');
  const [generate] = named(spans, 'process generate');
  expect(ancestors(generate!, spans)).toContain(request);
  const providerCalls = named(spans, 'provider generate');
  expect(providerCalls.length).toBeGreaterThan(0);
  for (const call of providerCalls) {
    expect(call.kind).toBe(SpanKind.CLIENT);
    expect(call.attributes).toMatchObject({ 'app.provider': 'builtin', 'app.generation_job_id': jobId });
    expect(ancestors(call, spans)).toContain(generate);
  }
  const [settle] = named(spans, 'credit settle');
  expect(settle!.attributes).toMatchObject({
    'app.generation_job_id': jobId,
    'app.credits.outcome': 'settled',
  });
  const chain = ancestors(settle!, spans).map((s) => s.name);
  expect(chain.slice(0, 3)).toEqual([
    'process credit-settlement',
    'addBulk credit-settlement', // a fair queue: added in bulk with its place in the eshop's line
    'process generate',
  ]);
  // No text of the request in any span.
  expect(JSON.stringify(spans.map((s) => [s.attributes, s.events]))).not.toContain('Stolní lampa');
}, 60_000);

test('when a listing is uploaded with a traceparent, then the enrichment job of each row runs in the trace of the upload', async () => {
  const shop = await makeEshop(catalogue.deps.db);
  const { traceId, header } = newTraceparent();
  const { backOffice } = shopCallers({ wl: wl.url, catalogue: catalogue.url }, shop, ORIGIN);
  const res = await backOffice(
    'POST',
    '/api/v2/rest/listing',
    [
      { code: 'SKU-1', name: 'Desk lamp' },
      { code: 'SKU-2', name: 'Floor lamp' },
    ],
    { headers: { traceparent: header } },
  );
  expect(res.status).toBe(201);
  await eventually(
    () => expect(named(spansOf(traceId), 'process listing-enrichment')).toHaveLength(2),
    20_000,
  );

  const spans = spansOf(traceId);
  const [request] = spans.filter((s) => s.kind === SpanKind.SERVER);
  expect(request!.name).toBe('POST /api/v2/rest/listing');
  for (const job of named(spans, 'process listing-enrichment'))
    expect(ancestors(job, spans)).toContain(request);
}, 60_000);

test('when the flows above ran, then no span name contains "undefined" and every database span is named by operation (and table)', () => {
  const spans = exporter.getFinishedSpans();
  expect(spans.map((s) => s.name).filter((n) => n.includes('undefined'))).toEqual([]);
  const queries = spans.filter((s) => s.instrumentationScope.name === '@opentelemetry/instrumentation-knex');
  expect(queries.length).toBeGreaterThan(0);
  const names = [...new Set(queries.map((q) => q.name))];
  expect(names.filter((n) => !/^[a-z]+( [a-z_.]+)?$/.test(n))).toEqual([]);
});

test('when deploy/README.md "Tracing" names the spans of a trace, then each is a span these flows recorded', () => {
  const readme = readFileSync(join(REPO_ROOT, 'deploy', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('so one trace shows:'), readme.indexOf('The span names above'));
  // Every quoted name but the header the webhooks carry.
  const documented = [...section.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).filter((n) => n !== 'traceparent');
  expect(documented.length).toBeGreaterThan(8);
  const recorded = new Set(exporter.getFinishedSpans().map((s) => s.name));
  expect(documented.filter((name) => !recorded.has(name))).toEqual([]);
});
