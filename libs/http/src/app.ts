import Koa, { type Middleware } from 'koa';
import type { Registry } from 'prom-client';
import type { Logger } from '@catalogue/logger';
import { clientAddressFromTrustedProxies } from './client-address';
import { healthRouter, type ReadinessCheck } from './health';
import { createHttpMetrics } from './metrics';
import { concurrencyLimit, shedRecorder } from './middleware/concurrency';
import { errorHandler } from './middleware/errors';
import { observe } from './middleware/observe';
import { mountRouters } from './routing';
import { securityHeaders } from './middleware/security';
import { traceRequests } from './middleware/trace';
import { discardUnreadBody } from './middleware/unread-body';
import type { AppContext, AppRouter, AppState } from './types';

export interface HttpAppOptions {
  logger: Logger;
  registry: Registry;
  readiness: ReadinessCheck[];
  routers: AppRouter[];
  /**
   * Networks (CIDRs or addresses) of the proxies in front of the service, whose X-Forwarded-For
   * entries are believed (TRUSTED_PROXIES). Empty (the default): the header is ignored.
   */
  trustedProxies?: readonly string[];
  /** Middleware run inside the error mapping, before the routers (e.g. whiteLabelCors). */
  middleware?: Middleware<AppState, AppContext>[];
  /** Requests answered at once by this process; more get 503 (default: no limit). */
  maxConcurrentRequests?: number;
  /**
   * Whether the database pool would refuse a request now (poolSaturated): new requests are then
   * refused at the door, before authentication (default: never).
   */
  databaseSaturated?: () => boolean;
  /**
   * The longest a queue may stand behind this process's own saturated event loop
   * (DATABASE_POOL_QUEUE_BUDGET_MS, the same budget as the pool's queue): past it new requests
   * are refused at the door (default 0: not bounded; see loopQueue).
   */
  waitBudgetMs?: number;
}

export type HttpApp = Koa<AppState, AppContext>;

/**
 * The Koa app every HTTP service uses: security headers, the per-process concurrency limit
 * (cheap refusals, before anything else runs), client address, request id and access log, error
 * mapping, health/readiness/metrics, then the service's routers (which parse bodies after their
 * auth, see parseBody()).
 * Unknown routes end as 404 `{error}` in the error middleware.
 */
export function createHttpApp(opts: HttpAppOptions): HttpApp {
  const app = new Koa<AppState, AppContext>();
  // Forwarded headers are believed only from a trusted proxy's connection: the first
  // middleware that reads the client (after the concurrency limit, which does not) sets ctx.ip from the socket's peer and removes X-Forwarded-* from anyone else,
  // or a client that reaches the pod directly could pick an address per request and escape its
  // per-address budgets (or lock a victim's address out). proxy stays on so that, behind a
  // trusted ingress, ctx.host and ctx.protocol are the public ones.
  app.proxy = true;
  // Errors are logged by errorHandler with the request id; Koa's default printer would
  // log client-caused errors too.
  app.silent = true;

  const routers = [healthRouter(opts.readiness, opts.registry), ...opts.routers];
  // Route templates, for the metrics label: a request refused by a router's middleware has the
  // router's own path pattern as its matched route, which is not one of these.
  const templates = new Set(
    routers.flatMap((router) =>
      router.stack
        .filter((layer) => layer.methods.length > 0)
        .map((layer) => layer.path)
        .filter((path): path is string => typeof path === 'string'),
    ),
  );
  const metrics = createHttpMetrics(opts.registry);
  const shed = shedRecorder(opts.logger, metrics);
  // Security headers on every answer, the shed ones too; then the concurrency limit, so that a
  // request refused under overload costs as little as possible (no request id, no access line:
  // it is counted and summarised instead, see concurrencyLimit).
  // Outermost: whatever answered a request before its body was read (a refusal of the body, a
  // shed, an auth failure), the connection stays usable for the client's next request.
  app.use(discardUnreadBody());
  app.use(securityHeaders());
  if (opts.maxConcurrentRequests || opts.databaseSaturated || opts.waitBudgetMs) {
    app.use(
      concurrencyLimit(
        opts.maxConcurrentRequests ?? Infinity,
        shed,
        opts.databaseSaturated,
        opts.waitBudgetMs,
      ),
    );
  }
  app.use(clientAddressFromTrustedProxies(opts.trustedProxies ?? []));
  // Outside observe(): its access log line and metric sample are written inside the span.
  app.use(traceRequests());
  app.use(observe(opts.logger, metrics, templates, shed));
  app.use(errorHandler(opts.logger));
  for (const mw of opts.middleware ?? []) app.use(mw);
  mountRouters(app, routers);
  return app;
}
