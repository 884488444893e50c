import 'dotenv/config';
import { loadConfigOrExit } from '@catalogue/config';
import { exitOnSignals, startHttpServer } from '@catalogue/http';
import { createApp } from './app';
import { buildDeps, closeDeps } from './deps';

async function main(): Promise<void> {
  const config = loadConfigOrExit(process.env);
  const deps = buildDeps(config);
  const server = await startHttpServer(createApp(deps), {
    port: config.ports.catalogueApi,
    host: config.http.host,
    logger: deps.logger,
    shutdownTimeoutMs: config.http.shutdownTimeoutMs,
    shutdownDelayMs: config.http.shutdownDelayMs,
  });
  exitOnSignals(deps.logger, async () => {
    await server.stop();
    await closeDeps(deps);
  });
}

main().catch((err: Error) => {
  process.stderr.write(`catalogue-api failed to start: ${err.message}\n`);
  process.exit(1);
});
