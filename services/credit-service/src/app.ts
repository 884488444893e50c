import { poolSaturated } from '@catalogue/db';
import { createHttpApp, docsRouter, publicCreditRouter, type HttpApp } from '@catalogue/http';
import type { Deps } from './deps';
import { PUBLIC_PATH_PREFIXES } from './paths';

/** The credit service's HTTP side: the public price list, its API reference, health, readiness, metrics. */
export function createApp(deps: Deps): HttpApp {
  return createHttpApp({
    logger: deps.logger,
    registry: deps.registry,
    readiness: deps.readiness,
    trustedProxies: deps.config.http.trustedProxies,
    maxConcurrentRequests: deps.config.http.maxConcurrentRequests,
    databaseSaturated: () => poolSaturated(deps.db),
    waitBudgetMs: deps.config.database.poolQueueBudgetMs,
    routers: [
      publicCreditRouter(deps),
      docsRouter({ title: 'Credit service', operations: PUBLIC_PATH_PREFIXES }),
    ],
  });
}
