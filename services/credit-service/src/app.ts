import { createHttpApp, docsRouter, type HttpApp } from '@catalogue/http';
import type { Deps } from './deps';
import { publicCreditRoutes } from './routes/public-credit.routes';

/** The credit service's HTTP side: the public price list, its API reference, health, readiness, metrics. */
export function createApp(deps: Deps): HttpApp {
  return createHttpApp({
    logger: deps.logger,
    registry: deps.registry,
    readiness: deps.readiness,
    maxConcurrentRequests: deps.config.http.maxConcurrentRequests,
    routers: [
      publicCreditRoutes(deps),
      docsRouter({ title: 'Credit service', operations: ['/public/credit'] }),
    ],
  });
}
