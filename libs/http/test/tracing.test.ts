// With tracing on, every request runs in a server span that continues the caller's trace (a
// sent traceparent) or starts one, named by its route template; the access log line and every
// line logged while handling it carry trace_id and span_id; the duration histogram keeps the
// trace id as an exemplar, shown to a scraper that asks for OpenMetrics, while a Prometheus-text
// scrape stays as it was.
import Router from '@koa/router';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { Counter, Registry } from 'prom-client';
import { createHttpApp, type AppContext, type AppState } from '@catalogue/http';
import { createLogger } from '@catalogue/logger';
import { serveApp, type ServedApp } from '@catalogue/testing';
import { SpanKind, startTracing } from '@catalogue/tracing';

const exporter = new InMemorySpanExporter();
const tracing = startTracing({ service: 'http-tests', exporter });

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- log lines, read field by field
const lines: Record<string, any>[] = [];
const logger = createLogger({
  service: 'test',
  level: 'debug',
  destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
});
const registry = new Registry();
const things = new Counter({ name: 'test_things_total', help: 'Things.', registers: [registry] });
let server: ServedApp;

beforeAll(async () => {
  const router = new Router<AppState, AppContext>();
  router.get('/items/:id', (ctx) => {
    things.inc();
    logger.info({ item: ctx.params.id }, 'reading the item');
    ctx.body = { id: ctx.params.id };
  });
  server = await serveApp(createHttpApp({ logger, registry, readiness: [], routers: [router] }), logger);
});
afterAll(async () => {
  await server.stop();
  await tracing.shutdown();
});

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const serverSpans = () => exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER);

test('when a request carries a traceparent, then its server span continues that trace, is named by its route, and its log lines carry its ids', async () => {
  const res = await fetch(`${server.url}/items/42`, {
    headers: { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01`, tracestate: 'vendor=abc' },
  });
  expect(res.status).toBe(200);

  const span = serverSpans().find((s) => s.spanContext().traceId === TRACE_ID)!;
  expect(span.name).toBe('GET /items/:id');
  expect(span.parentSpanContext).toMatchObject({ spanId: CALLER_SPAN, isRemote: true });
  expect(span.spanContext().traceState?.get('vendor')).toBe('abc');
  expect(span.attributes).toMatchObject({ 'http.route': '/items/:id', 'http.response.status_code': 200 });
  const spanId = span.spanContext().spanId;
  expect(lines.find((l) => l.msg === 'reading the item')).toMatchObject({
    trace_id: TRACE_ID,
    span_id: spanId,
  });
  expect(lines.find((l) => l.msg === 'request' && l.path === '/items/42')).toMatchObject({
    trace_id: TRACE_ID,
    span_id: spanId,
    route: '/items/:id',
  });
});

test('when a request carries no trace context, then it starts a new trace; probes start none', async () => {
  const before = serverSpans().length;
  await fetch(`${server.url}/items/7`);
  await fetch(`${server.url}/healthz`);
  const added = serverSpans().slice(before);
  expect(added.map((s) => s.name)).toEqual(['GET /items/:id']);
  expect(added[0]!.parentSpanContext).toBeUndefined();
  expect(added[0]!.spanContext().traceId).not.toBe(TRACE_ID);
});

test('when scraped as OpenMetrics, then the duration buckets carry trace exemplars, and a Prometheus-text scrape after it is unchanged', async () => {
  await fetch(`${server.url}/items/9`, { headers: { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` } });
  const prometheusBefore = await (await fetch(`${server.url}/metrics`)).text();

  const open = await fetch(`${server.url}/metrics`, {
    headers: { Accept: 'application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5' },
  });
  expect(open.headers.get('content-type')).toBe('application/openmetrics-text; version=1.0.0; charset=utf-8');
  const text = await open.text();
  expect(text).toMatch(
    new RegExp(
      `^http_request_duration_seconds_bucket\\{[^}]*route="/items/:id"[^}]*\\} \\d+ # \\{trace_id="${TRACE_ID}"\\} `,
      'm',
    ),
  );
  expect(text).toMatch(/^test_things_total \d+$/m);
  expect(text.endsWith('# EOF\n')).toBe(true);

  // prom-client renames counters while it writes OpenMetrics: the Prometheus text must not keep it.
  const prometheus = await fetch(`${server.url}/metrics`);
  expect(prometheus.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  const after = await prometheus.text();
  expect(after).toContain('# TYPE test_things_total counter');
  expect(after).not.toContain('# {trace_id=');
  expect(after).not.toContain('# EOF');
  const families = (t: string) => t.split('\n').filter((l) => l.startsWith('# TYPE '));
  expect(families(after)).toEqual(families(prometheusBefore));
});
