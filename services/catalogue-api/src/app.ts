import { createHttpApp, type HttpApp } from '@catalogue/http';
import type { Deps } from './deps';
import { whoamiRoutes } from './routes/whoami.routes';

/** The catalogue API (v1, v2) as a Koa app, not listening. */
export function createApp(deps: Deps): HttpApp {
  return createHttpApp({
    logger: deps.logger,
    registry: deps.registry,
    readiness: deps.readiness,
    routers: [whoamiRoutes(deps)],
  });
}
