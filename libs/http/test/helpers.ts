import { Registry } from 'prom-client';
import { createLogger } from '@catalogue/logger';
import {
  createHttpApp,
  startHttpServer,
  type AppRouter,
  type ReadinessCheck,
  type RunningServer,
} from '@catalogue/http';

export interface TestServer extends RunningServer {
  url: string;
  registry: Registry;
}

/** Runs a createHttpApp() app with the given routers on a free port. */
export async function serve(
  routers: AppRouter[],
  opts: { readiness?: ReadinessCheck[]; bodyLimit?: string; shutdownTimeoutMs?: number } = {},
): Promise<TestServer> {
  const logger = createLogger({ service: 'test', level: 'silent' });
  const registry = new Registry();
  const app = createHttpApp({
    logger,
    registry,
    readiness: opts.readiness ?? [],
    bodyLimit: opts.bodyLimit ?? '1mb',
    routers,
  });
  const running = await startHttpServer(app, {
    port: 0,
    host: '127.0.0.1',
    logger,
    shutdownTimeoutMs: opts.shutdownTimeoutMs ?? 5_000,
  });
  return { ...running, url: `http://127.0.0.1:${running.port}`, registry };
}
