// With the chart's kind of sampler (parentbased_traceidratio; a ratio of 0 here, so no new trace
// is kept), a request the sampler drops is not recorded, yet every line it logs carries its
// trace id (the caller's, from traceparent, or a new one) and span id, and whatever it starts
// (a child span, an outgoing traceparent) follows its decision; a caller's sampled traceparent is
// still recorded.
import Router from '@koa/router';
import { context, createContextKey, trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { Registry } from 'prom-client';
import { createHttpApp, type AppContext, type AppState } from '@catalogue/http';
import { createLogger } from '@catalogue/logger';
import { serveApp, type ServedApp } from '@catalogue/testing';
import { inSpan, SpanKind, startTracing, traceHeaders } from '@catalogue/tracing';

const exporter = new InMemorySpanExporter();
const tracing = startTracing({
  service: 'http-tests',
  exporter,
  sampler: 'parentbased_traceidratio',
  samplerArg: 0,
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- log lines, read field by field
const lines: Record<string, any>[] = [];
const logger = createLogger({
  service: 'test',
  level: 'debug',
  destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
});
const registry = new Registry();
const KEY = createContextKey('test value');
let server: ServedApp;

beforeAll(async () => {
  const router = new Router<AppState, AppContext>();
  router.get('/items/:id', async (ctx) => {
    logger.info({ item: ctx.params.id }, 'reading the item');
    const request = trace.getActiveSpan()!.spanContext();
    const child = await inSpan('child', {}, async (span) => ({
      recording: span.isRecording(),
      traceId: span.spanContext().traceId,
      outgoing: traceHeaders().traceparent,
    }));
    // A value set under the request's context keeps the request's span, as the API's does.
    const derived = context.active().setValue(KEY, 'v');
    ctx.body = {
      request,
      child,
      derived: { value: derived.getValue(KEY), spanId: trace.getSpanContext(derived)?.spanId },
    };
  });
  server = await serveApp(createHttpApp({ logger, registry, readiness: [], routers: [router] }), logger);
});
afterAll(async () => {
  await server.stop();
  await tracing.shutdown();
});

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const linesOf = (path: string) => {
  const access = lines.find((l) => l.msg === 'request' && l.path === path)!;
  return [lines.find((l) => l.msg === 'reading the item' && l.item === path.split('/')[2])!, access];
};

test("when an unsampled request carries a traceparent, then nothing is recorded and its log lines carry the caller's trace id and the request's span id", async () => {
  const res = await fetch(`${server.url}/items/1`, {
    headers: { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-00` },
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as {
    request: { traceId: string; spanId: string; traceFlags: number };
    child: { recording: boolean; traceId: string; outgoing: string };
    derived: { value: string; spanId: string };
  };
  expect(body.request).toMatchObject({ traceId: TRACE_ID, traceFlags: 0 });
  expect(body.request.spanId).toMatch(/^[0-9a-f]{16}$/);
  expect(body.request.spanId).not.toBe(CALLER_SPAN);
  for (const line of linesOf('/items/1')) {
    expect(line).toMatchObject({ trace_id: TRACE_ID, span_id: body.request.spanId });
  }
  // What it starts follows its decision: a child on the same trace, not recorded, and an
  // outgoing traceparent that says so.
  expect(body.child.recording).toBe(false);
  expect(body.child.traceId).toBe(TRACE_ID);
  expect(body.child.outgoing).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-00$`));
  expect(body.derived).toEqual({ value: 'v', spanId: body.request.spanId });
  expect(exporter.getFinishedSpans()).toEqual([]);
});

test('when an unsampled request carries no traceparent, then its log lines carry a new trace id of its own', async () => {
  const res = await fetch(`${server.url}/items/2`);
  const body = (await res.json()) as { request: { traceId: string; spanId: string } };
  expect(body.request.traceId).toMatch(/^[0-9a-f]{32}$/);
  expect(body.request.traceId).not.toBe('0'.repeat(32));
  for (const line of linesOf('/items/2')) {
    expect(line).toMatchObject({ trace_id: body.request.traceId, span_id: body.request.spanId });
  }
  const other = (await (await fetch(`${server.url}/items/3`)).json()) as { request: { traceId: string } };
  expect(other.request.traceId).not.toBe(body.request.traceId);
  expect(exporter.getFinishedSpans()).toEqual([]);
});

test("when a request carries a sampled traceparent, then it is recorded in the caller's trace with its outcome", async () => {
  const res = await fetch(`${server.url}/items/4`, {
    headers: { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` },
  });
  const body = (await res.json()) as { request: { spanId: string }; child: { recording: boolean } };
  expect(body.child.recording).toBe(true);
  const span = exporter
    .getFinishedSpans()
    .find((s) => s.kind === SpanKind.SERVER && s.spanContext().spanId === body.request.spanId)!;
  expect(span.spanContext().traceId).toBe(TRACE_ID);
  expect(span.parentSpanContext).toMatchObject({ spanId: CALLER_SPAN, isRemote: true });
  expect(span.name).toBe('GET /items/:id');
  expect(span.attributes).toMatchObject({ 'http.route': '/items/:id', 'http.response.status_code': 200 });
  for (const line of linesOf('/items/4')) {
    expect(line).toMatchObject({ trace_id: TRACE_ID, span_id: body.request.spanId });
  }
});
