import { Registry } from 'prom-client';
import { createLogger } from '@catalogue/logger';
import {
  createHttpApp,
  type AppContext,
  type AppRouter,
  type AppState,
  type ReadinessCheck,
} from '@catalogue/http';
import type { Middleware } from 'koa';
import { serveApp, type ServedApp } from '@catalogue/testing';

export interface TestServer extends ServedApp {
  registry: Registry;
}

/** Runs a createHttpApp() app with the given routers on a free port. */
export async function serve(
  routers: AppRouter[],
  opts: {
    readiness?: ReadinessCheck[];
    shutdownTimeoutMs?: number;
    middleware?: Middleware<AppState, AppContext>[];
    trustedProxies?: string[];
    waitBudgetMs?: number;
  } = {},
): Promise<TestServer> {
  const logger = createLogger({ service: 'test', level: 'silent' });
  const registry = new Registry();
  const app = createHttpApp({
    logger,
    registry,
    readiness: opts.readiness ?? [],
    routers,
    middleware: opts.middleware ?? [],
    trustedProxies: opts.trustedProxies ?? [],
    ...(opts.waitBudgetMs !== undefined && { waitBudgetMs: opts.waitBudgetMs }),
  });
  return { ...(await serveApp(app, logger, opts.shutdownTimeoutMs ?? 5_000)), registry };
}
