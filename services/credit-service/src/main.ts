import 'dotenv/config';
import { loadConfigOrExit } from '@catalogue/config';
import { startTracing } from '@catalogue/tracing';

// Tracing starts before the modules below load knex: its instrumentation patches it as it is
// loaded (nothing is loaded or patched while no OTLP endpoint is set).
const config = loadConfigOrExit(process.env);
const tracing = startTracing({ service: 'credit-service', ...config.tracing });

import { exitOnSignals, startHttpServer } from '@catalogue/http';
import { closeWorkers } from '@catalogue/queue';
import { creditService } from './service';
import { startWorkers } from './workers';

async function main(): Promise<void> {
  const deps = creditService.buildDeps(config);
  const workers = startWorkers(deps);
  const server = await startHttpServer(creditService.createApp(deps), {
    port: config.ports.creditService,
    host: config.http.host,
    logger: deps.logger,
    shutdownTimeoutMs: config.http.shutdownTimeoutMs,
    shutdownDelayMs: config.http.shutdownDelayMs,
    listenSockets: config.http.listenSockets,
  });
  exitOnSignals(deps.logger, async () => {
    await server.stop();
    // A settlement in progress commits or rolls back as a whole; let it finish.
    await closeWorkers(workers);
    await creditService.closeDeps(deps);
    // Last: the spans of the requests and jobs that just ended.
    await tracing.shutdown();
  });
}

main().catch((err: Error) => {
  process.stderr.write(`credit-service failed to start: ${err.message}\n`);
  process.exit(1);
});
