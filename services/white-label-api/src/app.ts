import { createHttpApp, type HttpApp } from '@catalogue/http';
import type { Deps } from './deps';
import { generateRoutes } from './routes/generate.routes';
import { licenceRoutes } from './routes/licence.routes';

/** The white-label API (v3) as a Koa app, not listening. */
export function createApp(deps: Deps): HttpApp {
  return createHttpApp({
    logger: deps.logger,
    registry: deps.registry,
    readiness: deps.readiness,
    routers: [licenceRoutes(deps), generateRoutes(deps)],
  });
}
