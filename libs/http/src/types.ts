import type { ParameterizedContext } from 'koa';
import type Router from '@koa/router';
import type { Eshop } from '@catalogue/db';
import { isObject } from './objects';
import type { ShedReason } from './metrics';
import type { IdempotencyRecorder } from './middleware/idempotency';

export interface AppState {
  requestId: string;
  /** The tenant of an authenticated request. */
  eshop?: Eshop;
  /** SHA-256 of the request's valid token: the key of its rate-limit budgets. */
  tokenHash?: string;
  /** The request origin, when the white-label guard allowed it; drives the CORS headers. */
  corsOrigin?: string;
  /** Behind idempotent() with an Idempotency-Key: stores the outcome in the write's transaction. */
  idempotency?: IdempotencyRecorder;
  /** Set when the client disconnected before its request was read: counted as 499, not 5xx. */
  clientClosed?: boolean;
  /** Set when the request was shed (answered 503 at once): counted and logged with the reason. */
  shed?: ShedReason;
}

/** Koa's context with what @koa/router reads and writes on it (the routers' layers are its `matched`). */
export type AppContext = ParameterizedContext<AppState> & {
  _matchedRoute?: string | RegExp;
  routerPath?: string;
  newRouterPath?: string;
  matched?: unknown[];
};
export type AppRouter = Router<AppState, AppContext>;

/** The authenticated eshop of a request behind an auth middleware. */
export function eshopOf(ctx: { state: AppState }): Eshop {
  if (!ctx.state.eshop) throw new Error('eshopOf() used on a route without an auth middleware');
  return ctx.state.eshop;
}

/**
 * The parsed request body, unchecked, for handlers whose service validates item by item
 * (bulk imports report invalid items instead of failing the request).
 */
export function bodyOf(ctx: { request: unknown }): unknown {
  return isObject(ctx.request) ? ctx.request.body : undefined;
}
