import cors from '@koa/cors';
import type { Middleware } from 'koa';
import compose from 'koa-compose';
import { normaliseOrigin, originsRepository } from '@catalogue/db';
import { ForbiddenError } from '../errors';
import type { AppContext, AppState } from '../types';
import { enforce } from '../rate-limit/middleware';
import { WHITE_LABEL_PREFIX, WHITE_LABEL_TOKEN_HEADER, type RouterDeps } from './auth';

/**
 * CORS for the white-label API, installed on the app (inside the error middleware, before the
 * routers) so that every answer under `prefix` carries the headers — a 401, a 403 of the
 * licence, a 404 of a mistyped path, a 405, a 413 or a 500 too — when the request's Origin is
 * one that some eshop allows: without them a browser shows the host page only "Failed to
 * fetch" instead of the error. Which eshop the origin belongs to is checked later, with the
 * token (whiteLabelAuth); an origin no eshop allows never gets a CORS header.
 *
 * A preflight is answered here for any path under the prefix (it carries no token): 204 for
 * an allowed origin, 403 JSON otherwise.
 */
export function whiteLabelCors(
  deps: Pick<RouterDeps, 'db' | 'rateLimits'>,
  prefix = WHITE_LABEL_PREFIX,
): Middleware<AppState, AppContext> {
  const under = (path: string) => path === prefix || path.startsWith(`${prefix}/`);
  const decide: Middleware<AppState, AppContext> = async (ctx, next) => {
    if (!under(ctx.path)) return next();
    const origin = normaliseOrigin(ctx.get('Origin'));
    if (origin && (await originsRepository.isAllowedByAny(deps.db, origin))) ctx.state.corsOrigin = origin;
    if (ctx.method === 'OPTIONS') {
      // A preflight carries no token: an allowed origin's count against its address's preflight
      // budget (with the CORS headers, so the page can read a 429), others' against the
      // anonymous one.
      if (!ctx.state.corsOrigin) {
        enforce(ctx, await deps.rateLimits.consumeAnonymous(ctx.ip));
        throw new ForbiddenError('Origin not allowed', 'origin_forbidden');
      }
      const decision = await deps.rateLimits.consumePreflight(ctx.ip);
      if (decision && !decision.allowed) {
        // @koa/cors answers a preflight itself; a refused one is answered by the error
        // middleware, which keeps the headers set before the throw.
        ctx.set('Access-Control-Allow-Origin', ctx.state.corsOrigin);
        ctx.vary('Origin');
      }
      enforce(ctx, decision);
    }
    return headers(ctx, next);
  };
  const headers = cors({
    // @koa/cors defaults to "*": decide per request, and only for an allowed origin ('' = none).
    origin: (ctx) => (ctx.state as AppState).corsOrigin ?? '',
    allowMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    allowHeaders: [
      'Content-Type',
      'Accept',
      WHITE_LABEL_TOKEN_HEADER,
      'X-Request-Id',
      'Idempotency-Key',
      'If-Match',
    ],
    exposeHeaders: [
      'X-Request-Id',
      'RateLimit',
      'RateLimit-Policy',
      'Retry-After',
      'Idempotent-Replayed',
      'WWW-Authenticate',
      'Allow',
      'ETag',
    ],
    maxAge: 600,
  });
  return compose([
    decide,
    async (ctx, next) => {
      // A plain OPTIONS (not a preflight) from an allowed origin: nothing more to say.
      if (ctx.method === 'OPTIONS' && under(ctx.path)) {
        ctx.status = 204;
        return;
      }
      return next();
    },
  ]);
}
