import Koa from 'koa';
import type { Registry } from 'prom-client';
import type { Logger } from '@catalogue/logger';
import { healthRouter, type ReadinessCheck } from './health';
import { createHttpMetrics } from './metrics';
import { errorHandler } from './middleware/errors';
import { observe } from './middleware/observe';
import type { AppContext, AppRouter, AppState } from './types';

export interface HttpAppOptions {
  logger: Logger;
  registry: Registry;
  readiness: ReadinessCheck[];
  routers: AppRouter[];
}

export type HttpApp = Koa<AppState, AppContext>;

/**
 * The Koa app every HTTP service uses: request id and access log, error mapping,
 * health/readiness/metrics, then the service's routers (which parse bodies after their auth,
 * see parseBody()).
 * Unknown routes end as 404 `{error}` in the error middleware.
 */
export function createHttpApp(opts: HttpAppOptions): HttpApp {
  const app = new Koa<AppState, AppContext>();
  // Behind the Kubernetes ingress, the client address is in X-Forwarded-For.
  app.proxy = true;
  // Errors are logged by errorHandler with the request id; Koa's default printer would
  // log client-caused errors too.
  app.silent = true;

  app.use(observe(opts.logger, createHttpMetrics(opts.registry)));
  app.use(errorHandler(opts.logger));
  for (const router of [healthRouter(opts.readiness, opts.registry), ...opts.routers]) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  return app;
}
