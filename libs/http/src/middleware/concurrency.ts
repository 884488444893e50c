import type { Middleware } from 'koa';
import { UnavailableError } from '../errors';
import type { AppContext, AppState } from '../types';

/** Probes and scrapes are always answered: a busy process is not a dead or unready one. */
const EXEMPT_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** The message of every shed request (the reason is in the access log and the metric). */
export const BUSY = 'The server is busy; try again shortly.';

/**
 * Sheds load early: past `limit` requests in progress in this process, a request is answered
 * 503 (code `unavailable`, Retry-After) at once, before it touches the database. Without it a
 * burst queues every request for the connection pool until they time out as 500s, and the
 * ones that would have been served in time time out too.
 */
export function concurrencyLimit(limit: number): Middleware<AppState, AppContext> {
  let inProgress = 0;
  return async (ctx, next) => {
    if (EXEMPT_PATHS.has(ctx.path)) return next();
    if (inProgress >= limit) {
      ctx.state.shed = 'concurrency';
      throw new UnavailableError(BUSY);
    }
    inProgress += 1;
    try {
      await next();
    } finally {
      inProgress -= 1;
    }
  };
}
