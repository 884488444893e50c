import 'dotenv/config';
import { loadConfigOrExit } from '@catalogue/config';
import { exitOnSignals, startHttpServer } from '@catalogue/http';
import { closeWorkers } from '@catalogue/queue';
import { createApp } from './app';
import { buildDeps, closeDeps } from './deps';
import { startWorkers } from './workers';

async function main(): Promise<void> {
  const config = loadConfigOrExit(process.env);
  const deps = buildDeps(config);
  const workers = startWorkers(deps);
  const server = await startHttpServer(createApp(deps), {
    port: config.ports.creditService,
    host: config.http.host,
    logger: deps.logger,
    shutdownTimeoutMs: config.http.shutdownTimeoutMs,
    shutdownDelayMs: config.http.shutdownDelayMs,
  });
  exitOnSignals(deps.logger, async () => {
    await server.stop();
    // A settlement in progress commits or rolls back as a whole; let it finish.
    await closeWorkers(workers);
    await closeDeps(deps);
  });
}

main().catch((err: Error) => {
  process.stderr.write(`credit-service failed to start: ${err.message}\n`);
  process.exit(1);
});
