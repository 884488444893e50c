import Router from '@koa/router';
import Joi from 'joi';
import { Registry } from 'prom-client';
import type { ErrorCode } from './codes';
import { guard, responseObject } from './middleware/validate';
import { openMetricsOf, wantsOpenMetrics } from './openmetrics';
import type { AppContext, AppState } from './types';

/**
 * A dependency that must answer for the service to take traffic; or, with `critical: false`,
 * a detail reported by /readyz that never makes it fail (its check returns the state to show).
 */
export type ReadinessCheck =
  | { name: string; critical?: true; check(): Promise<void> }
  | { name: string; critical: false; check(): Promise<string> };

const CHECK_TIMEOUT_MS = 2_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** GET /healthz: no input; its 200 body. */
export const healthz = guard({
  operationId: 'healthz',
  response: { 200: responseObject({ status: Joi.valid('ok') }).unknown(true) },
});

/** The body of /readyz, 200 and 503 alike. */
const readiness = responseObject({
  status: Joi.string().valid('ready', 'not_ready'),
  code: Joi.valid('unavailable')
    .optional()
    .description('On a 503 only, like every error body (`unavailable`).'),
  checks: Joi.object().pattern(
    Joi.string(),
    Joi.string()
      .valid('ok', 'unavailable', 'failing_open', 'off', 'disabled')
      .description(
        'postgres and redis: ok or unavailable (readiness fails). rate_limiter: ok, failing_open (Redis unreachable: requests pass unlimited) or disabled; auth_cache (the APIs): ok, off (its Redis subscription to auth changes is down or does not answer: every request reads PostgreSQL) or disabled; postgres_replica (only with DATABASE_READ_URL): ok or unavailable (reads go to the primary). None of these fails readiness.',
      ),
  ),
})
  .unknown(true)
  .id('Readiness');

/** GET /readyz: no input; ready (200) or not (503). */
export const readyz = guard({ operationId: 'readyz', response: { 200: readiness, 503: readiness } });

/**
 * /healthz: the process is alive (no dependency checked, so a database outage never gets
 * pods killed). /readyz: every dependency answers, or 503 naming the ones that do not.
 * /metrics: Prometheus exposition of the service's registry; OpenMetrics (with exemplars) to a
 * scraper that asks for it.
 */
export function healthRouter(checks: ReadinessCheck[], registry: Registry): Router<AppState, AppContext> {
  const router = new Router<AppState, AppContext>();
  router.get('/healthz', healthz, (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', readyz, async (ctx) => {
    const results = await Promise.all(
      checks.map(async (c) => {
        try {
          const state = await withTimeout<string | void>(c.check(), CHECK_TIMEOUT_MS);
          return { name: c.name, critical: c.critical !== false, state: state ?? 'ok' };
        } catch {
          return { name: c.name, critical: c.critical !== false, state: 'unavailable' };
        }
      }),
    );
    const ready = results.every((r) => !r.critical || r.state === 'ok');
    ctx.status = ready ? 200 : 503;
    const checksBody = Object.fromEntries(results.map((r) => [r.name, r.state]));
    // A 503 is an error body like any other: it carries its code (libs/http/src/codes.ts).
    ctx.body = ready
      ? { status: 'ready', checks: checksBody }
      : { status: 'not_ready', code: 'unavailable' satisfies ErrorCode, checks: checksBody };
  });
  router.get('/metrics', async (ctx) => {
    if (wantsOpenMetrics(ctx.get('Accept'))) {
      ctx.set('Content-Type', Registry.OPENMETRICS_CONTENT_TYPE);
      ctx.body = await openMetricsOf(registry);
      return;
    }
    ctx.set('Content-Type', registry.contentType);
    ctx.body = await registry.metrics();
  });
  return router;
}
