import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Config } from '@catalogue/config';
import {
  hashToken,
  normaliseOrigin,
  originsRepository,
  tokensRepository,
  type Knex,
  type TokenKind,
} from '@catalogue/db';
import { NO_AUTH_CACHE, type AuthCache } from '../auth-cache';
import { ForbiddenError, UnauthorizedError } from '../errors';
import type { MaybeDecision, RateLimits, TokenBucket } from '../rate-limit/limits';
import { bucketByMethod, enforce, limitByToken } from '../rate-limit/middleware';
import type { AppContext, AppRouter, AppState } from '../types';
import { parseBody, type BodyType } from './body';

const BEARER = /^Bearer\s+(\S+)\s*$/i;
/** Header of the white-label token (the specification's neutral name). */
export const WHITE_LABEL_TOKEN_HEADER = 'service-white-label-token';
/** Where every white-label (v3) route lives. */
export const WHITE_LABEL_PREFIX = '/api/v3/white-label';

/** What a token router needs: the database, the body limit, the rate limits (and the auth cache). */
export interface RouterDeps {
  db: Knex;
  config: { readonly http: Pick<Config['http'], 'bodyLimit'> };
  rateLimits: RateLimits;
  /** Tokens' eshops and eshops' origins in memory (none: every request reads the database). */
  authCache?: AuthCache;
}

type AuthDeps = Pick<RouterDeps, 'db' | 'rateLimits' | 'authCache'>;

interface TokenCheck {
  kind: TokenKind;
  /** The 401 texts: v1/v2 keep the specification's text for both cases (the code tells them apart). */
  missing: string;
  invalid: string;
  /** The `WWW-Authenticate` challenge of a 401. */
  challenge: string;
}

const API_TOKEN: TokenCheck = {
  kind: 'api',
  missing: 'Authorization token required',
  invalid: 'Authorization token required',
  challenge: 'Bearer realm="catalogue"',
};
const WHITE_LABEL_TOKEN: TokenCheck = {
  kind: 'white-label',
  missing: 'White-label token required',
  invalid: 'White-label token invalid',
  challenge: `WhiteLabelToken realm="white-label", header="${WHITE_LABEL_TOKEN_HEADER}"`,
};

/**
 * Finds the eshop of a token, throttling per client address: a request without a token counts
 * against the address's anonymous budget (then 401 `token_missing`); with a token, an address
 * that used up its failed-authentication budget is refused (429) before the token is even
 * judged, so a guesser cannot tell a hit while blocked; an unknown token counts as a failure
 * (401 `token_invalid`, 429 once the budget is gone).
 *
 * With `bucketOf`, the request is also counted against its token's budget (limitByToken's work,
 * done here): for a token the auth cache knows, the block check and the count are one Redis
 * round trip (`admitToken`); when the eshop is read from the database, the block check runs
 * beside that read and the count after it, as two calls.
 */
async function authenticate(
  deps: AuthDeps,
  ctx: Parameters<Middleware<AppState, AppContext>>[0],
  check: TokenCheck,
  token: string | undefined,
  bucketOf?: (method: string) => TokenBucket,
): Promise<void> {
  const limits = deps.rateLimits;
  if (!token) {
    enforce(ctx, await limits.consumeAnonymous(ctx.ip));
    throw new UnauthorizedError(check.missing, 'token_missing', check.challenge);
  }
  const hash = hashToken(token);
  // The block check starts with a database read (a cache miss), so the two overlap as before.
  let blockCheck: Promise<MaybeDecision> | undefined;
  const eshop = await (deps.authCache ?? NO_AUTH_CACHE).eshopOfToken(check.kind, hash, () => {
    blockCheck = limits.authFailureBlock(ctx.ip);
    return tokensRepository.findEshopByTokenHash(deps.db, check.kind, hash);
  });
  const counts = bucketOf !== undefined && ctx.method !== 'OPTIONS';
  if (eshop && counts && !blockCheck) {
    // A cached token: the block check and the count in one round trip.
    const { blocked, counted } = await limits.admitToken(
      ctx.ip,
      hash,
      bucketOf(ctx.method),
      eshop.rateLimitPerMinute,
    );
    enforce(ctx, blocked);
    ctx.state.eshop = eshop;
    ctx.state.tokenHash = hash;
    enforce(ctx, counted);
    return;
  }
  enforce(ctx, await (blockCheck ?? limits.authFailureBlock(ctx.ip)));
  if (!eshop) {
    enforce(ctx, await limits.recordAuthFailure(ctx.ip));
    throw new UnauthorizedError(check.invalid, 'token_invalid', `${check.challenge}, error="invalid_token"`);
  }
  ctx.state.eshop = eshop;
  ctx.state.tokenHash = hash;
  if (counts) enforce(ctx, await limits.consumeToken(hash, bucketOf(ctx.method), eshop.rateLimitPerMinute));
}

/**
 * v1/v2: `Authorization: Bearer <API token>` -> ctx.state.eshop, or 401/429. With `bucketOf`,
 * also the token's rate limit (then limitByToken must not follow it; see apiRouter).
 */
export function apiTokenAuth(
  deps: AuthDeps,
  bucketOf?: (method: string) => TokenBucket,
): Middleware<AppState, AppContext> {
  return async (ctx, next) => {
    const match = BEARER.exec(ctx.get('Authorization'));
    await authenticate(deps, ctx, API_TOKEN, match?.[1], bucketOf);
    await next();
  };
}

/**
 * v3: the white-label token names the eshop (401 when missing or unknown) and the Origin
 * must be one of that eshop's allowed origins, compared as scheme+host+port (403).
 * Preflights and CORS headers are whiteLabelCors()'s, on the app, so they reach error answers.
 */
export function whiteLabelAuth(deps: AuthDeps): Middleware<AppState, AppContext> {
  return async (ctx, next) => {
    await authenticate(deps, ctx, WHITE_LABEL_TOKEN, ctx.get(WHITE_LABEL_TOKEN_HEADER) || undefined);
    const eshop = ctx.state.eshop!;
    // A browser leaves Origin out of a same-origin GET (the white-label /docs page's "Try it
    // out") but marks the request `Sec-Fetch-Site: same-origin`, which no page can set: that
    // request comes from this service's own origin, which is then checked like any other, so it
    // passes only for an eshop that allowed it (docs/decisions/0047-white-label-try-it-out.md, "White-label Try it out").
    const header =
      ctx.get('Origin') ||
      (ctx.get('Sec-Fetch-Site') === 'same-origin' ? `${ctx.protocol}://${ctx.host}` : '');
    if (!header) throw new ForbiddenError('Origin header required', 'origin_forbidden');
    const origin = normaliseOrigin(header);
    const allowed =
      !!origin &&
      (await (deps.authCache ?? NO_AUTH_CACHE).originAllowed(eshop.id, origin, () =>
        originsRepository.isAllowed(deps.db, eshop.id, origin),
      ));
    if (!allowed) {
      throw new ForbiddenError('Origin not allowed', 'origin_forbidden');
    }
    return next();
  };
}

/**
 * Who may call a router's routes, as docs/openapi.yaml states it (security scheme, the shared
 * 401/403/429/500/503 answers; scripts/gen-openapi.mjs): an API token, a white-label token and
 * Origin, the same and a valid white-label licence, or anyone.
 */
export type RouterAuth = 'apiToken' | 'whiteLabelToken' | 'whiteLabelLicence' | 'public';

const ROUTER_AUTH = new WeakMap<AppRouter, RouterAuth>();

/** Records who may call the router's routes (routerAuth() reads it); returns the router. */
export function declareRouterAuth(router: AppRouter, auth: RouterAuth): AppRouter {
  ROUTER_AUTH.set(router, auth);
  return router;
}

/** Who may call the router's routes: as declared, else anyone. */
export function routerAuth(router: AppRouter): RouterAuth {
  return ROUTER_AUTH.get(router) ?? 'public';
}

export interface TokenRouterOptions {
  prefix?: string;
  /** Largest body of these routes (default `HTTP_BODY_LIMIT`; bulk imports have their own). */
  bodyLimit?: string;
  /** Content types the routes' bodies may have (default JSON only; anything else is 415). */
  bodyTypes?: BodyType[];
  /** The budget of non-GET requests (`generate` for the generation router). */
  writes?: TokenBucket;
}

/**
 * A router for catalogue routes (v1/v2): every route behind apiTokenAuth with its token's rate
 * limit (one Redis round trip for a cached token), then body parsing (so a refused caller never
 * has its body read).
 */
export function apiRouter(deps: RouterDeps, opts: TokenRouterOptions = {}): AppRouter {
  const router = new Router<AppState, AppContext>(opts.prefix ? { prefix: opts.prefix } : {});
  router.use(
    apiTokenAuth(deps, bucketByMethod(opts.writes)),
    parseBody(opts.bodyLimit ?? deps.config.http.bodyLimit, opts.bodyTypes),
  );
  return declareRouterAuth(router, 'apiToken');
}

/**
 * A router for white-label routes: every route behind whiteLabelAuth, the token's rate limit
 * and body parsing. Needs whiteLabelCors() on the app for browsers (preflights, CORS headers
 * on every answer, errors included).
 */
export function whiteLabelRouter(deps: RouterDeps, opts: TokenRouterOptions = {}): AppRouter {
  const router = new Router<AppState, AppContext>({ prefix: opts.prefix ?? WHITE_LABEL_PREFIX });
  router.use(
    whiteLabelAuth(deps),
    limitByToken(deps.rateLimits, bucketByMethod(opts.writes)),
    parseBody(deps.config.http.bodyLimit, opts.bodyTypes),
  );
  return declareRouterAuth(router, 'whiteLabelToken');
}
