import { createHttpApp, type HttpApp } from '@catalogue/http';
import type { Deps } from './deps';

/** The credit service's HTTP side (health, readiness, metrics), not listening. */
export function createApp(deps: Deps): HttpApp {
  return createHttpApp({
    logger: deps.logger,
    registry: deps.registry,
    readiness: deps.readiness,
    bodyLimit: deps.config.http.bodyLimit,
    routers: [],
  });
}
