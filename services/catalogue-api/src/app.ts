import { poolSaturated } from '@catalogue/db';
import {
  contentStylesheet,
  createHttpApp,
  docsRouter,
  publicAssetsRouter,
  type HttpApp,
} from '@catalogue/http';
import type { Deps } from './deps';
import { PUBLIC_PATH_PREFIXES } from './paths';
import { v1Routes, v2Routes } from './routes/catalogue.routes';
import { creditAlertRoutes } from './routes/credit-alert.routes';
import { generationBatchRoutes } from './routes/generation-batches.routes';
import { listingRoutes } from './routes/listing.routes';
import { webhooksRoutes } from './routes/webhooks.routes';
import { whoamiRoutes } from './routes/whoami.routes';

/** The catalogue API (v1, v2) as a Koa app, not listening. */
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
      docsRouter({ title: 'Catalogue API (v1, v2)', operations: PUBLIC_PATH_PREFIXES }),
      publicAssetsRouter([contentStylesheet]),
      whoamiRoutes(deps),
      v1Routes(deps),
      v2Routes(deps),
      listingRoutes(deps),
      webhooksRoutes(deps),
      creditAlertRoutes(deps),
      generationBatchRoutes(deps),
    ],
  });
}
