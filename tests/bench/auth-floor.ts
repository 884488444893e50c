// The floor of the auth benchmark, run as its own process like the service: the bare baseline's
// whoami (auth-baseline.ts: Koa, the pg Pool, the token cache) plus the cheapest correct
// implementation of what every answer of the service must carry, each written the plainest way
// Koa allows:
//
// - security headers: helmet's, recorded once at start-up and set on every response (the
//   service's own record, recordHelmet with API_HELMET_OPTIONS: the same twelve headers);
// - a request id: the caller's X-Request-Id when it is sane, else a random UUID, answered in the
//   X-Request-Id header;
// - one access line per request, with the service's fields (request_id, method, path, route,
//   status, duration_ms, eshop_id) through the service's logger factory (@catalogue/logger's
//   createLogger and fixedFieldsLogger) to standard output, a pipe the harness drains;
// - one sample of the service's histogram (createHttpMetrics: http_request_duration_seconds by
//   method, route template and status);
// - routing by @koa/router among as many routes as the catalogue API has: the paths and methods
//   of its OpenAPI document (docs/openapi.yaml, generated from the routes), in one router, with
//   allowedMethods() for 405/501;
// - an error middleware: unknown routes and refused methods answered as JSON, any error a 500
//   that names the request id.
//
// No rate limiter, no concurrency limit, no tracing, no trusted-proxy handling, no body parser:
// what the service does beyond these shows as its distance to this floor (docs/benchmarks.md).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Router from '@koa/router';
import Koa from 'koa';
import type pg from 'pg';
import { Registry } from 'prom-client';
import { parse } from 'yaml';
import { API_HELMET_OPTIONS, createHttpMetrics, recordHelmet } from '@catalogue/http';
import { createLogger, fixedFieldsLogger } from '@catalogue/logger';
import { serve, whoamiHandler, type TokenCache } from './auth-baseline';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** The bodies of what no handler answered (the router's 404, 405 and 501). */
const EMPTY_ANSWERS: Record<number, string> = {
  404: 'Not found',
  405: 'Method not allowed',
  501: 'Method not implemented',
};
/** The catalogue API's share of the OpenAPI document (the white-label API and the editor's paths are another service's). */
const CATALOGUE_PATH = /^\/(api\/v[12]\/|content\/|healthz$|readyz$|metrics$|docs)/;

/** The catalogue API's routes as @koa/router paths (`{id}` → `:id`), with their methods. */
export function catalogueRoutes(): { path: string; methods: string[] }[] {
  const document = parse(readFileSync(join(__dirname, '..', '..', '..', 'docs', 'openapi.yaml'), 'utf8')) as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(document.paths)
    .filter(([path]) => CATALOGUE_PATH.test(path))
    .map(([path, operations]) => ({
      path: path.replace(/\{(\w+)\}/g, ':$1'),
      methods: METHODS.filter((method) => method in operations),
    }));
}

type FloorContext = Koa.ParameterizedContext<{ requestId: string; eshop?: { id: number } }> & {
  _matchedRoute?: string | RegExp;
};

export function createAuthFloorApp(pool: pg.Pool, cache: TokenCache): Koa {
  const app = new Koa();
  app.silent = true;
  const access = fixedFieldsLogger(createLogger({ service: 'catalogue-api', level: 'info' }));
  const { requestDuration } = createHttpMetrics(new Registry());
  const helmet = recordHelmet(API_HELMET_OPTIONS);

  app.use((ctx, next) => {
    for (const name of helmet.removed) ctx.res.removeHeader(name);
    for (const [name, value] of helmet.set) ctx.res.setHeader(name, value);
    return next();
  });
  app.use(async (ctx: FloorContext, next) => {
    const incoming = ctx.get('X-Request-Id');
    const requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = typeof ctx._matchedRoute === 'string' ? ctx._matchedRoute : 'unmatched';
      requestDuration.observe({
        labels: { method: ctx.method, route, status: String(ctx.status) },
        value: seconds,
      });
      access.info(
        {
          request_id: requestId,
          method: ctx.method,
          path: ctx.path,
          route,
          status: ctx.status,
          duration_ms: Math.round(seconds * 1e4) / 10,
          eshop_id: ctx.state.eshop?.id,
        },
        'request',
      );
    }
  });
  app.use(async (ctx: FloorContext, next) => {
    try {
      await next();
      const error = ctx.body === undefined || ctx.body === null ? EMPTY_ANSWERS[ctx.status] : undefined;
      if (error) {
        // Set explicitly: Koa turns its own default 404 into 200 when a body is set.
        ctx.status = ctx.status as number;
        ctx.body = { error };
      }
    } catch {
      ctx.status = 500;
      ctx.body = { error: 'Internal server error', request_id: ctx.state.requestId };
    }
  });

  const router = new Router();
  const whoami = whoamiHandler(pool, cache);
  for (const { path, methods } of catalogueRoutes()) {
    for (const method of methods) {
      if (path === '/api/v2/rest/whoami') router.get(path, whoami);
      else if (path === '/readyz') {
        router.get(path, async (ctx) => {
          await pool.query('select 1');
          ctx.body = { status: 'ready' };
        });
      } else {
        // The floor answers whoami and readiness; the other routes are there for the matching.
        router.register(path, [method], (ctx: Koa.Context) => {
          ctx.status = 501;
          ctx.body = { error: 'not served by the floor' };
        });
      }
    }
  }
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

if (require.main === module) void serve('floor', createAuthFloorApp);
