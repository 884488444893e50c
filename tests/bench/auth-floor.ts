// The floor of the auth benchmark, run as its own process like the service: the bare baseline's
// whoami (auth-baseline.ts: Koa, the pg Pool, the token cache) plus the cheapest honest
// implementation of what every answer of the service must carry, in one Koa middleware:
//
// - security headers: helmet's, recorded once at start-up (the service's own record,
//   recordHelmet with API_HELMET_OPTIONS: the same twelve headers) and set from that list;
// - a request id: the caller's X-Request-Id when it is sane, else a random UUID, answered in the
//   X-Request-Id header;
// - one access line per request with the service's fields and text (level, time, service,
//   request_id, method, path, route, status, duration_ms, eshop_id, msg), written by a plain
//   template to an asynchronous destination on standard output (the logger's: sonic-boom with
//   its batching and bound on pending bytes, fed a batch at a time, stdoutLines), a pipe the
//   harness drains;
// - one sample of the service's histogram (createHttpMetrics: http_request_duration_seconds by
//   method, route template and status) through a label child cached per label set;
// - routing by find-my-way among as many routes as the catalogue API has: the paths and methods
//   of its OpenAPI document (docs/openapi.yaml, generated from the routes), with 405 (and
//   `Allow`) for a path another method has, 501 for a method no route has, 404 otherwise;
// - errors caught in the same frame: unknown routes and refused methods answered as JSON, any
//   error a 500 that names the request id.
//
// No rate limiter, no concurrency limit, no tracing, no trusted-proxy handling, no body parser:
// what the service does beyond these shows as its distance to this floor (docs/benchmarks.md).
// auth.bench.ts checks before measuring that the floor answers whoami with the service's body
// and the service's header fields and values (the date and the request id aside).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import FindMyWay from 'find-my-way';
import Koa from 'koa';
import type pg from 'pg';
import { Registry } from 'prom-client';
import { parse } from 'yaml';
import { API_HELMET_OPTIONS, createHttpMetrics, recordHelmet } from '@catalogue/http';
import { isoTime, stdoutLines } from '@catalogue/logger';
import { serve, whoamiHandler, type TokenCache } from './auth-baseline';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
/** The catalogue API's share of the OpenAPI document (the white-label API and the editor's paths are another service's). */
const CATALOGUE_PATH = /^\/(api\/v[12]\/|content\/|healthz$|readyz$|metrics$|docs)/;

/** The catalogue API's routes as router paths (`{id}` → `:id`), with their methods. */
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

type Handler = (ctx: Koa.Context) => Promise<void> | void;

/** A JSON string of a value the line does not control (the path): escaped only when it must be. */
const quoted = (text: string): string =>
  // eslint-disable-next-line no-control-regex -- control characters are what JSON escapes
  /["\\\u0000-\u001f\ud800-\udfff]/.test(text) ? JSON.stringify(text) : `"${text}"`;

export function createAuthFloorApp(pool: pg.Pool, cache: TokenCache): Koa {
  const app = new Koa();
  app.silent = true;
  const out = stdoutLines();
  const { requestDuration } = createHttpMetrics(new Registry());
  const samples = new Map<string, { observe(value: number): void }>();
  const helmet = recordHelmet(API_HELMET_OPTIONS);
  const removed = helmet.removed;
  const headers = helmet.set;

  const router = FindMyWay({ caseSensitive: false, ignoreTrailingSlash: true });
  const routed = new Set<string>();
  const whoami = whoamiHandler(pool, cache);
  const notServed: Handler = (ctx) => {
    // The floor answers whoami and readiness; the other routes are there for the matching.
    ctx.status = 501;
    ctx.body = { error: 'not served by the floor' };
  };
  const ready: Handler = async (ctx) => {
    await pool.query('select 1');
    ctx.body = { status: 'ready' };
  };
  for (const { path, methods } of catalogueRoutes()) {
    for (const method of methods) {
      const handler = path === '/api/v2/rest/whoami' ? whoami : path === '/readyz' ? ready : notServed;
      router.on(method.toUpperCase() as 'GET', path, () => undefined, { handler, route: path });
      routed.add(method.toUpperCase());
    }
  }

  app.use(async (ctx) => {
    const res = ctx.res;
    for (let i = 0; i < removed.length; i++) res.removeHeader(removed[i]!);
    for (let i = 0; i < headers.length; i++) res.setHeader(headers[i]![0], headers[i]![1]);
    const incoming = ctx.req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    const method = ctx.method;
    const path = ctx.path;
    let route = 'unmatched';
    try {
      const found = router.find(method as 'GET', path);
      if (found) {
        const store = found.store as { handler: Handler; route: string };
        route = store.route;
        ctx.params = found.params;
        await store.handler(ctx);
      } else if (!routed.has(method) && !HTTP_METHODS.includes(method)) {
        route = 'method_not_implemented';
        ctx.status = 501;
        ctx.body = { error: 'Method not implemented' };
      } else {
        const allow = [...routed].filter((m) => router.find(m as 'GET', path));
        if (allow.length > 0) {
          route = 'method_not_allowed';
          ctx.status = 405;
          ctx.set('Allow', allow.join(', '));
          ctx.body = { error: 'Method not allowed' };
        } else {
          ctx.status = 404;
          ctx.body = { error: 'Not found' };
        }
      }
    } catch {
      ctx.status = 500;
      ctx.body = { error: 'Internal server error', request_id: requestId };
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const status = ctx.status;
    const key = `${method} ${route} ${status}`;
    let sample = samples.get(key);
    if (!sample) samples.set(key, (sample = requestDuration.labels(method, route, String(status))));
    sample.observe(seconds);
    const eshop = (ctx.state as { eshop?: { id: number } }).eshop;
    out.write(
      `{"level":30${isoTime()},"service":"catalogue-api","request_id":"${requestId}","method":"${method}",` +
        `"path":${quoted(path)},"route":"${route}","status":${status},` +
        `"duration_ms":${Math.round(seconds * 1e4) / 10}${eshop ? `,"eshop_id":${eshop.id}` : ''},"msg":"request"}\n`,
    );
  });
  return app;
}

if (require.main === module) void serve('floor', createAuthFloorApp);
