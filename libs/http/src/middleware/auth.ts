import cors from '@koa/cors';
import Router from '@koa/router';
import type { Middleware } from 'koa';
import compose from 'koa-compose';
import { hashToken, normaliseOrigin, originsRepository, tokensRepository, type Knex } from '@catalogue/db';
import { ForbiddenError, UnauthorizedError } from '../errors';
import type { AppContext, AppRouter, AppState } from '../types';

const BEARER = /^Bearer\s+(\S+)\s*$/i;
/** Header of the white-label token (the specification's neutral name). */
export const WHITE_LABEL_TOKEN_HEADER = 'service-white-label-token';

import { parseBody } from './body';

/** v1/v2: `Authorization: Bearer <API token>` -> ctx.state.eshop, or 401. */
export function apiTokenAuth(db: Knex): Middleware<AppState, AppContext> {
  return async (ctx, next) => {
    const match = BEARER.exec(ctx.get('Authorization'));
    const eshop = match
      ? await tokensRepository.findEshopByTokenHash(db, 'api', hashToken(match[1]!))
      : undefined;
    if (!eshop) throw new UnauthorizedError('Authorization token required');
    ctx.state.eshop = eshop;
    await next();
  };
}

/**
 * v3: the white-label token names the eshop (401 when missing or unknown) and the Origin
 * must be one of that eshop's allowed origins, compared as scheme+host+port (403).
 * A CORS preflight carries no token, so it is answered only for an origin that some eshop
 * allows; the real request that follows is checked against its own eshop. CORS headers are
 * sent for allowed origins only.
 */
export function whiteLabelAuth(db: Knex): Middleware<AppState, AppContext> {
  const guard: Middleware<AppState, AppContext> = async (ctx, next) => {
    const origin = normaliseOrigin(ctx.get('Origin'));
    if (ctx.method === 'OPTIONS') {
      if (!origin || !(await originsRepository.isAllowedByAny(db, origin))) {
        throw new ForbiddenError('Origin not allowed');
      }
      ctx.state.corsOrigin = origin;
      return next();
    }
    const token = ctx.get(WHITE_LABEL_TOKEN_HEADER);
    const eshop = token
      ? await tokensRepository.findEshopByTokenHash(db, 'white-label', hashToken(token))
      : undefined;
    if (!eshop) throw new UnauthorizedError('White-label token required');
    if (!ctx.get('Origin')) throw new ForbiddenError('Origin header required');
    if (!origin || !(await originsRepository.isAllowed(db, eshop.id, origin))) {
      throw new ForbiddenError('Origin not allowed');
    }
    ctx.state.eshop = eshop;
    ctx.state.corsOrigin = origin;
    return next();
  };
  const corsHeaders = cors({
    // @koa/cors defaults to "*": always decide per request, and only for a checked origin.
    origin: (ctx) => (ctx.state as AppState).corsOrigin ?? '',
    allowMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    allowHeaders: ['Content-Type', 'Accept', WHITE_LABEL_TOKEN_HEADER, 'X-Request-Id'],
    exposeHeaders: ['X-Request-Id'],
    maxAge: 600,
  }) as unknown as Middleware<AppState, AppContext>;
  return compose([guard, corsHeaders]);
}

/** A router for catalogue routes (v1/v2): every route behind apiTokenAuth, then body parsing. */
export function apiRouter(db: Knex, opts: { bodyLimit: string; prefix?: string }): AppRouter {
  const router = new Router<AppState, AppContext>(opts.prefix ? { prefix: opts.prefix } : {});
  router.use(apiTokenAuth(db), parseBody(opts.bodyLimit));
  return router;
}

/**
 * A router for white-label routes: every route behind whiteLabelAuth and body parsing, and CORS preflights
 * for any path under the prefix answered by it (router middleware runs only for matched
 * routes, so without the catch-all a preflight would never reach the origin check).
 */
export function whiteLabelRouter(db: Knex, opts: { bodyLimit: string; prefix?: string }): AppRouter {
  const router = new Router<AppState, AppContext>({ prefix: opts.prefix ?? '/api/v3/white-label' });
  router.use(whiteLabelAuth(db), parseBody(opts.bodyLimit));
  router.options('/{*path}', (ctx) => {
    // A plain OPTIONS (not a preflight) that passed the origin check: nothing to say.
    ctx.status = 204;
  });
  return router;
}
