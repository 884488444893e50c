import 'dotenv/config';
import { loadConfigOrExit } from '@catalogue/config';
import { exitOnSignals, startHttpServer } from '@catalogue/http';
import { closeWorkers } from '@catalogue/queue';
import { createApp } from './app';
import { buildDeps, closeDeps } from './deps';
import { scheduleSweep, startWorkers } from './handlers';

async function main(): Promise<void> {
  const config = loadConfigOrExit(process.env);
  const deps = buildDeps(config);
  const workers = startWorkers(deps);
  // Not awaited: while Redis is unreachable the call waits for it, and the health port must
  // come up meanwhile. Every replica declares the same schedule, so one success is enough.
  scheduleSweep(deps).catch((err: unknown) =>
    deps.logger.error({ err }, 'could not declare the stale-work sweeper schedule'),
  );
  const server = await startHttpServer(createApp(deps), {
    port: config.ports.generationWorker,
    logger: deps.logger,
    shutdownTimeoutMs: config.http.shutdownTimeoutMs,
  });
  exitOnSignals(deps.logger, async () => {
    // Running jobs finish first; the health port stays up meanwhile so probes still answer.
    await closeWorkers(workers);
    await server.stop();
    await closeDeps(deps);
  });
}

main().catch((err: Error) => {
  process.stderr.write(`generation-worker failed to start: ${err.message}\n`);
  process.exit(1);
});
