import { createHttpApp, type HttpApp } from '@catalogue/http';
import type { Deps } from './deps';

/** The worker's small HTTP side: health, readiness and metrics (with queue depth). */
export function createApp(deps: Deps): HttpApp {
  return createHttpApp({
    logger: deps.logger,
    registry: deps.registry,
    readiness: deps.readiness,
    trustedProxies: deps.config.http.trustedProxies,
    routers: [],
  });
}
