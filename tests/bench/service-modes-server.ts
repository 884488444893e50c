// The catalogue API of bench:tracing and bench:auth: the service's own deps and app, as
// services/catalogue-api's main.ts starts them, with tracing, the rate limiter and the log level
// switched while it runs, so that the service's sides of a benchmark are modes of one process
// (measureModes in harness.ts). `POST /mode` on CONTROL_PORT sets what its query names and
// leaves the rest: `tracing=<OTEL_TRACES_SAMPLER>&arg=<ratio>` starts tracing with that sampler
// (stopping the tracing that ran), `tracing=off` stops it; `limiter=on|off` puts the rate
// limiter (built from the environment, RATE_LIMIT_*) in the path or takes it out, as
// RATE_LIMIT_ENABLED=0 does; `log=<level>` sets the logger's level. The answer is the mode now.
// Spans go over OTLP to OTEL_EXPORTER_OTLP_ENDPOINT, read by the exporter itself.
import 'dotenv/config';
import { createServer } from 'node:http';
import { loadConfigOrExit, type TraceSampler } from '@catalogue/config';
import { NO_RATE_LIMITS, startHttpServer, type RateLimits } from '@catalogue/http';
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

/** Limits that ask `current()` on every call: the app keeps this object, the mode swaps what it asks. */
function switchable(current: () => RateLimits): RateLimits {
  return {
    consumeToken: (...args) => current().consumeToken(...args),
    consumeAnonymous: (...args) => current().consumeAnonymous(...args),
    consumePreflight: (...args) => current().consumePreflight(...args),
    authFailureBlock: (...args) => current().authFailureBlock(...args),
    recordAuthFailure: (...args) => current().recordAuthFailure(...args),
    admitToken: (...args) => current().admitToken(...args),
    state: () => current().state(),
  };
}

async function main(): Promise<void> {
  const deps = catalogueApi.buildDeps(config);
  const limiter = deps.rateLimits;
  let limits = limiter;
  await startHttpServer(catalogueApi.createApp({ ...deps, rateLimits: switchable(() => limits) }), {
    port: config.ports.catalogueApi,
    host: '127.0.0.1',
    logger: deps.logger,
    shutdownTimeoutMs: config.http.shutdownTimeoutMs,
    shutdownDelayMs: 0,
    listenSockets: config.http.listenSockets,
  });
  let tracing: Tracing | undefined;
  let tracingMode = 'off';
  const setTracing = async (sampler: string, arg: number): Promise<void> => {
    await tracing?.shutdown();
    tracing = undefined;
    tracingMode = 'off';
    if (sampler === 'off') return;
    tracing = startTracing({
      service: 'catalogue-api',
      otlpEndpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT,
      batch: config.tracing.batch,
      sampler: sampler as TraceSampler,
      samplerArg: arg,
      loadedKnex: loadedKnex(),
    });
    tracingMode = `${sampler} ${arg}`;
  };
  const control = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://control').searchParams;
    void (async () => {
      const sampler = query.get('tracing');
      if (sampler !== null) await setTracing(sampler, Number(query.get('arg') ?? 1));
      const limiterMode = query.get('limiter');
      if (limiterMode !== null) limits = limiterMode === 'on' ? limiter : NO_RATE_LIMITS;
      const level = query.get('log');
      if (level !== null) deps.logger.level = level;
    })().then(
      () =>
        res.end(
          `tracing ${tracingMode}, limiter ${limits === limiter ? 'on' : 'off'}, log ${deps.logger.level}`,
        ),
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
  process.stderr.write(`service-modes-server failed to start: ${err.message}\n`);
  process.exit(1);
});
