import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { accessLog, type Logger } from '@catalogue/logger';
import { activeSpan, sampledTraceId, type Span } from '@catalogue/tracing';
import type { AppContext, AppState } from '../types';
import type { ShedRecorder } from './concurrency';
import {
  BEFORE_ROUTING,
  CLIENT_CLOSED_REQUEST,
  DURATION_BUCKETS,
  REFUSED_ROUTES,
  UNMATCHED_ROUTE,
  type HttpMetrics,
} from '../metrics';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Probes hit these every few seconds; their log lines go to debug to keep logs readable. */
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Outermost middleware: gives every request an id (the caller's X-Request-Id when it is
 * sane, a new UUID otherwise), then writes one log line and one histogram sample when the
 * response is final — after the error middleware has set the status. The route label is a
 * route template, `unmatched` (no route has the path), `method_not_allowed` /
 * `method_not_implemented` (refused for its method: 405, 501), or `before_routing` for a
 * request a router's middleware (auth, rate limit, body parsing) refused before any route ran.
 * A client that disconnected before its request was read is counted with status 499.
 * A request shed at the pool's queue carries `shed` in its line and is counted by reason;
 * one refused by the concurrency limit never gets here (see concurrencyLimit).
 */
export function observe(
  logger: Logger,
  metrics: HttpMetrics,
  templates: ReadonlySet<string>,
  shedRecorder: ShedRecorder,
): Middleware<AppState, AppContext> {
  // The line holds only the fields it names (no header, body or query to redact), written by a
  // template as pino would write it (accessLog).
  const access = accessLog(logger);
  const samples = durationSamples(metrics);
  return async (ctx, next) => {
    const incoming = ctx.req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const matched = ctx._matchedRoute;
      const route =
        matched === undefined
          ? (REFUSED_ROUTES[ctx.status] ?? UNMATCHED_ROUTE)
          : typeof matched === 'string' && templates.has(matched)
            ? matched
            : BEFORE_ROUTING;
      // nginx's "client closed request": the client left, the server did not fail.
      const status = ctx.state.clientClosed ? CLIENT_CLOSED_REQUEST : ctx.status;
      // The request's server span (traceRequests), looked up once: its trace id is the sample's
      // exemplar when sampled, and it is named by its route template, as the metric's label is:
      // `GET /api/v2/rest/products` rather than `GET`.
      const span = activeSpan();
      samples(ctx.method, route, status, seconds, span);
      if (span?.isRecording()) {
        span.updateName(`${ctx.method} ${route}`);
        span.setAttributes({ 'http.route': route, 'app.request_id': requestId });
        if (ctx.state.eshop?.id !== undefined) span.setAttribute('app.eshop_id', ctx.state.eshop.id);
      }
      const shed = ctx.state.shed;
      if (shed) shedRecorder.record(shed);
      const path = ctx.path;
      access(
        {
          request_id: requestId,
          method: ctx.method,
          path,
          route,
          status,
          duration_ms: Math.round(seconds * 1e4) / 10,
          eshop_id: ctx.state.eshop?.id,
          shed,
        },
        QUIET_PATHS.has(path),
      );
    }
  };
}

/** Label sets whose child a process keeps at most (methods are the client's: bounded here). */
const MAX_CACHED_SAMPLES = 1_000;

/**
 * How often a bucket's exemplar is replaced at most, per label set. A scrape shows the last
 * exemplar of each bucket, and Prometheus scrapes every few seconds at the most: one a second
 * shows what one a request would, within a second, while a request that is sampled but finds
 * its bucket's exemplar fresh costs a plain sample instead of prom-client's exemplar path (the
 * labels hashed twice, the exemplar's labels checked, a timestamp): most of what a sampled
 * request cost here.
 */
export const EXEMPLAR_INTERVAL_MS = 1_000;

/**
 * One duration sample per request, through the histogram's child of the label set (kept per
 * label set); a sampled trace's id becomes the bucket's exemplar when the bucket's is older
 * than EXEMPLAR_INTERVAL_MS (prom-client's exemplar path takes the labels as an object). `now`:
 * the monotonic clock, in milliseconds.
 */
export function durationSamples(
  metrics: HttpMetrics,
  now: () => number = () => performance.now(),
): (method: string, route: string, status: number, seconds: number, span: Span | undefined) => void {
  const series = new Map<string, { child: { observe(value: number): void }; exemplarAt: Float64Array }>();
  return (method, route, status, seconds, span) => {
    const key = `${method} ${route} ${status}`;
    let labelSet = series.get(key);
    if (!labelSet) {
      if (series.size >= MAX_CACHED_SAMPLES) series.clear();
      labelSet = {
        child: metrics.requestDuration.labels(method, route, String(status)),
        // When each bucket (and +Inf) last got an exemplar, on the monotonic clock.
        exemplarAt: new Float64Array(DURATION_BUCKETS.length + 1).fill(-Infinity),
      };
      series.set(key, labelSet);
    }
    const traceId = sampledTraceId(span);
    if (traceId !== undefined) {
      let bucket = 0;
      while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]!) bucket++;
      const at = now();
      if (at - labelSet.exemplarAt[bucket]! >= EXEMPLAR_INTERVAL_MS) {
        labelSet.exemplarAt[bucket] = at;
        // prom-client types an exemplar's labels as the metric's own.
        const exemplarLabels: { trace_id?: string } = { trace_id: traceId };
        metrics.requestDuration.observe({
          labels: { method, route, status: String(status) },
          value: seconds,
          exemplarLabels: exemplarLabels as Record<string, never>,
        });
        return;
      }
    }
    labelSet.child.observe(seconds);
  };
}
