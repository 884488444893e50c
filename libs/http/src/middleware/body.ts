import type { Middleware } from 'koa';
import bodyParser from 'koa-bodyparser';
import type { AppContext, AppState } from '../types';

/**
 * Parses JSON (objects and arrays only) and text/CSV bodies up to `limit`. Routers install it
 * after their auth middleware, so an unauthenticated request gets its 401 whatever its body
 * and the server never reads a large body for a caller it does not know.
 */
export function parseBody(limit: string): Middleware<AppState, AppContext> {
  return bodyParser({
    enableTypes: ['json', 'text'],
    jsonLimit: limit,
    textLimit: limit,
    extendTypes: { text: ['text/csv'] },
    strict: true,
  }) as unknown as Middleware<AppState, AppContext>;
}
