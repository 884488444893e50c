// First, before anything else loads or connects: a process started without its heap flags
// (plain `node`, `npm start`, the image's NODE_OPTIONS) replaces itself with one that has them.
import './bound-heap';
import 'dotenv/config';
import { loadConfigOrExit } from '@catalogue/config';
import { startTracing } from '@catalogue/tracing';

// Tracing starts before the modules below load knex: its instrumentation patches it as it is
// loaded (nothing is loaded or patched while no OTLP endpoint is set).
const config = loadConfigOrExit(process.env);
const tracing = startTracing({ service: 'catalogue-api', ...config.tracing });

import { exitOnSignals, startHttpServer } from '@catalogue/http';
import { catalogueApi } from './service';

async function main(): Promise<void> {
  const deps = catalogueApi.buildDeps(config);
  const server = await startHttpServer(catalogueApi.createApp(deps), {
    port: config.ports.catalogueApi,
    host: config.http.host,
    logger: deps.logger,
    shutdownTimeoutMs: config.http.shutdownTimeoutMs,
    shutdownDelayMs: config.http.shutdownDelayMs,
    listenSockets: config.http.listenSockets,
  });
  exitOnSignals(deps.logger, async () => {
    await server.stop();
    await catalogueApi.closeDeps(deps);
    // Last: the spans of the requests and jobs that just ended.
    await tracing.shutdown();
  });
}

main().catch((err: Error) => {
  process.stderr.write(`catalogue-api failed to start: ${err.message}\n`);
  process.exit(1);
});
