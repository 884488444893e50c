import { poolSaturated } from '@catalogue/db';
import {
  contentStylesheet,
  createHttpApp,
  docsRouter,
  publicAssetsRouter,
  publicCreditRouter,
  whiteLabelCors,
  type HttpApp,
} from '@catalogue/http';
import type { Deps } from './deps';
import { PUBLIC_PATH_PREFIXES } from './paths';
import { designPreviewRoutes } from './routes/design-preview.routes';
import { editorAssetsRouter, editorOriginRouter } from './routes/editor-assets.routes';
import { generateCheckRoutes, generateRoutes } from './routes/generate.routes';
import { generationBatchRoutes } from './routes/generation-batch.routes';
import { licenceRoutes } from './routes/licence.routes';
import { contentRoutes } from './routes/content.routes';
import { draftRoutes } from './routes/drafts.routes';
import { creditRoutes } from './routes/credit.routes';
import { designsRoutes } from './routes/designs.routes';
import { entitiesRoutes } from './routes/entities.routes';
import { favouritesRoutes } from './routes/favourites.routes';
import { fillDesignRoutes } from './routes/fill-design.routes';
import { promptsRoutes } from './routes/prompts.routes';
import { widgetsRoutes } from './routes/widgets.routes';

/** The white-label API (v3) as a Koa app, not listening. */
export function createApp(deps: Deps): HttpApp {
  return createHttpApp({
    logger: deps.logger,
    registry: deps.registry,
    readiness: deps.readiness,
    trustedProxies: deps.config.http.trustedProxies,
    maxConcurrentRequests: deps.config.http.maxConcurrentRequests,
    databaseSaturated: () => poolSaturated(deps.db),
    waitBudgetMs: deps.config.database.poolQueueBudgetMs,
    middleware: [whiteLabelCors(deps)],
    routers: [
      docsRouter({
        title: 'White-label editor API (v3)',
        operations: PUBLIC_PATH_PREFIXES,
      }),
      publicAssetsRouter([contentStylesheet]),
      publicCreditRouter(deps),
      editorAssetsRouter(),
      editorOriginRouter(deps),
      designPreviewRoutes(deps),
      ...[
        entitiesRoutes,
        designsRoutes,
        fillDesignRoutes,
        creditRoutes,
        promptsRoutes,
        widgetsRoutes,
        favouritesRoutes,
        contentRoutes,
        draftRoutes,
      ].map((r) => r(deps)),
      licenceRoutes(deps),
      generateCheckRoutes(deps),
      generateRoutes(deps),
      generationBatchRoutes(deps),
    ],
  });
}
