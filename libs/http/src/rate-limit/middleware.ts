import type { Context, Middleware } from 'koa';
import { HttpError } from '../errors';
import { eshopOf, type AppContext, type AppState } from '../types';
import type { MaybeDecision, RateLimitDecision, RateLimits, TokenBucket } from './limits';

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers-11): the policy
 * (`"write";q=120;w=60`) and what is left of it (`"write";r=87;t=42`).
 */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const name = `"${decision.policy}"`;
  return {
    'RateLimit-Policy': `${name};q=${decision.limit};w=${decision.windowSeconds}`,
    RateLimit: `${name};r=${decision.remaining};t=${decision.resetSeconds}`,
  };
}

/** 429 with `Retry-After` (the end of the window) and the RateLimit fields. */
export class RateLimitedError extends HttpError {
  constructor(decision: RateLimitDecision) {
    super(
      429,
      'rate_limited',
      { error: `Too many requests; retry after ${decision.resetSeconds} seconds.` },
      { ...rateLimitHeaders(decision), 'Retry-After': String(decision.resetSeconds) },
    );
  }
}

/** Sets the RateLimit fields of an allowed request, or throws the 429 of a refused one. */
export function enforce(ctx: Pick<Context, 'set'>, decision: MaybeDecision): void {
  if (!decision) return;
  if (!decision.allowed) throw new RateLimitedError(decision);
  ctx.set(rateLimitHeaders(decision));
}

/** Which budget a request of a token router uses: GET/HEAD read, other methods `writes`. */
export function bucketByMethod(writes: TokenBucket = 'write'): (method: string) => TokenBucket {
  return (method) => (method === 'GET' || method === 'HEAD' ? 'read' : writes);
}

/**
 * Counts an authenticated request against its token's budget (after the auth middleware, which
 * puts the token hash on the state). CORS preflights carry no token and are counted by address
 * in the white-label guard instead.
 */
export function limitByToken(
  limits: RateLimits,
  bucketOf: (method: string) => TokenBucket,
): Middleware<AppState, AppContext> {
  return async (ctx, next) => {
    if (ctx.method !== 'OPTIONS' && ctx.state.tokenHash) {
      const eshop = eshopOf(ctx);
      enforce(
        ctx,
        await limits.consumeToken(ctx.state.tokenHash, bucketOf(ctx.method), eshop.rateLimitPerMinute),
      );
    }
    await next();
  };
}

/** Counts a request of a public route (no token) against its client address's budget. */
export function limitByAddress(limits: RateLimits): Middleware<AppState, AppContext> {
  return async (ctx, next) => {
    enforce(ctx, await limits.consumeAnonymous(ctx.ip));
    await next();
  };
}
