// First, before anything else loads or connects: a process started without the image's heap
// bounds (plain `node`, `npm start`) replaces itself with one that has them (libs/config
// heap-bounds.ts).
import './bound-heap';
import 'dotenv/config';
import { loadConfigOrExit } from '@catalogue/config';
import { startTracing } from '@catalogue/tracing';

// Tracing starts before the modules below load knex: its instrumentation patches it as it is
// loaded (nothing is loaded or patched while no OTLP endpoint is set).
const config = loadConfigOrExit(process.env);
const tracing = startTracing({ service: 'generation-worker', ...config.tracing });

import { exitOnSignals, startHttpServer } from '@catalogue/http';
import { closeWorkers } from '@catalogue/queue';
import { createApp } from './app';
import { buildDeps, closeDeps } from './deps';
import { keepSchedulesDeclared, startWorkers, watchRedisLoss } from './handlers';

async function main(): Promise<void> {
  const deps = buildDeps(config);
  const workers = startWorkers(deps);
  // Every replica declares the same schedule (one success is enough), again after Redis comes
  // back without it; nothing here waits for Redis, so the health port comes up meanwhile.
  const stopSchedules = keepSchedulesDeclared(deps);
  // Redis emptied under the worker: the work it lost is queued again at once (sweep.service.ts).
  const stopWatch = watchRedisLoss(deps);
  const server = await startHttpServer(createApp(deps), {
    port: config.ports.generationWorker,
    host: config.http.host,
    logger: deps.logger,
    shutdownTimeoutMs: config.http.shutdownTimeoutMs,
  });
  exitOnSignals(deps.logger, async () => {
    // Running jobs finish first; the health port stays up meanwhile so probes still answer.
    stopSchedules();
    stopWatch();
    await closeWorkers(workers);
    await server.stop();
    await closeDeps(deps);
    // Last: the spans of the requests and jobs that just ended.
    await tracing.shutdown();
  });
}

main().catch((err: Error) => {
  process.stderr.write(`generation-worker failed to start: ${err.message}\n`);
  process.exit(1);
});
