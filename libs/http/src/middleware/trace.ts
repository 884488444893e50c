import type { Middleware } from 'koa';
import { inServerSpan, SpanStatusCode, tracingEnabled, type Span } from '@catalogue/tracing';
import type { AppContext, AppState } from '../types';

/** Probes and scrapes: every few seconds on every pod, never worth a trace. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * While tracing runs, every request (probes aside) is handled in a server span that continues
 * the caller's trace (`traceparent`/`tracestate`) or starts one; observe() names it by its route
 * template and adds the ids, and it ends with the final status (an error for 5xx). Everything
 * the request does (queries, Redis, the jobs it queues) becomes its child. With tracing off it
 * is a pass-through.
 */
export function traceRequests(): Middleware<AppState, AppContext> {
  // Not an async function: with tracing off, a probe or a span the sampler dropped, the request
  // goes on without a promise and an await of its own.
  return (ctx, next) => {
    if (!tracingEnabled() || UNTRACED_PATHS.has(ctx.path)) return next();
    return inServerSpan(ctx.req.headers, ctx.method, next, addOutcome, ctx);
  };
}

/**
 * The outcome on a request's span that is kept (inServerSpan calls it for those only): most are
 * not (sampling), and their attributes would be checked and dropped on every request.
 */
function addOutcome(span: Span, ctx: AppContext): void {
  span.setAttributes({
    'http.request.method': ctx.method,
    'url.path': ctx.path,
    'client.address': ctx.ip,
    'http.response.status_code': ctx.status,
  });
  if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
}
