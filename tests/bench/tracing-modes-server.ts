// bench:tracing's catalogue API: the service's own deps and app, as services/catalogue-api's
// main.ts starts them, with tracing turned on and off while it runs, so that every side of the
// benchmark is measured in the same process (see tracing.bench.ts). `POST /tracing` on
// CONTROL_PORT sets the mode: `?sampler=<OTEL_TRACES_SAMPLER>&arg=<ratio>` starts tracing with
// that sampler (stopping the tracing that ran), no query stops it; the answer is the mode now.
// Spans go over OTLP to OTEL_EXPORTER_OTLP_ENDPOINT, read by the exporter itself.
import 'dotenv/config';
import { createServer } from 'node:http';
import { loadConfigOrExit, type TraceSampler } from '@catalogue/config';
import { startHttpServer } from '@catalogue/http';
import { startTracing, type Tracing } from '@catalogue/tracing';
import { catalogueApi } from '@catalogue/catalogue-api/dist/service';

const config = loadConfigOrExit(process.env);

/**
 * knex as this process loaded it: the instrumentation patches a module as it loads, and knex is
 * loaded once, before tracing first starts; each start patches the loaded files instead.
 */
function loadedKnex(): { version: string; files: Record<string, object> } {
  /* eslint-disable @typescript-eslint/no-require-imports -- the instance the service loaded */
  return {
    version: (require('knex/package.json') as { version: string }).version,
    files: Object.fromEntries(
      ['knex/lib/execution/runner.js', 'knex/lib/client.js'].map((file) => [file, require(file) as object]),
    ),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

async function main(): Promise<void> {
  const deps = catalogueApi.buildDeps(config);
  await startHttpServer(catalogueApi.createApp(deps), {
    port: config.ports.catalogueApi,
    host: '127.0.0.1',
    logger: deps.logger,
    shutdownTimeoutMs: config.http.shutdownTimeoutMs,
    shutdownDelayMs: 0,
  });
  let tracing: Tracing | undefined;
  let mode = 'off';
  const control = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://control');
    const sampler = url.searchParams.get('sampler');
    const arg = Number(url.searchParams.get('arg') ?? 1);
    void (async () => {
      await tracing?.shutdown();
      tracing = undefined;
      mode = 'off';
      if (sampler) {
        tracing = startTracing({
          service: 'catalogue-api',
          otlpEndpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT,
          sampler: sampler as TraceSampler,
          samplerArg: arg,
          loadedKnex: loadedKnex(),
        });
        mode = `${sampler} ${arg}`;
      }
    })().then(
      () => res.end(mode),
      (err: Error) => {
        res.statusCode = 500;
        res.end(err.message);
      },
    );
  });
  await new Promise<void>((resolve) =>
    control.listen(Number(process.env.CONTROL_PORT), '127.0.0.1', resolve),
  );
  process.once('SIGTERM', () => process.exit(0));
}

main().catch((err: Error) => {
  process.stderr.write(`tracing-modes-server failed to start: ${err.message}\n`);
  process.exit(1);
});
