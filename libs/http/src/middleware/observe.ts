import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { fixedFieldsLogger, type Logger } from '@catalogue/logger';
import { activeSpan, exemplarOf } from '@catalogue/tracing';
import type { AppContext, AppState } from '../types';
import type { ShedRecorder } from './concurrency';
import {
  BEFORE_ROUTING,
  CLIENT_CLOSED_REQUEST,
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
  // The line below holds only the fields it names: no header, body or query to redact.
  const access = fixedFieldsLogger(logger);
  return async (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    const requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
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
      metrics.requestDuration.observe({
        labels: { method: ctx.method, route, status: String(status) },
        value: seconds,
        exemplarLabels: exemplarOf() as Record<string, never>,
      });
      // The request's server span (traceRequests) is named by its route template, as the
      // metric's label is: `GET /api/v2/rest/products` rather than `GET`.
      const span = activeSpan();
      if (span?.isRecording()) {
        span.updateName(`${ctx.method} ${route}`);
        span.setAttributes({ 'http.route': route, 'app.request_id': requestId });
        if (ctx.state.eshop?.id !== undefined) span.setAttribute('app.eshop_id', ctx.state.eshop.id);
      }
      const shed = ctx.state.shed;
      if (shed) shedRecorder.record(shed);
      const line: Record<string, unknown> = {
        request_id: requestId,
        method: ctx.method,
        path: ctx.path,
        route,
        status,
        duration_ms: Math.round(seconds * 1e4) / 10,
        eshop_id: ctx.state.eshop?.id,
      };
      // Last, as before; no object spread of an empty one on every other request.
      if (shed) line.shed = shed;
      if (QUIET_PATHS.has(ctx.path)) access.debug(line, 'request');
      else access.info(line, 'request');
    }
  };
}
