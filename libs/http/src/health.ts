import Router from '@koa/router';
import Joi from 'joi';
import { Gauge, Registry } from 'prom-client';
import type { ErrorCode } from './codes';
import { guard, responseObject } from './middleware/validate';
import { openMetricsOf, wantsOpenMetrics } from './openmetrics';
import type { AppContext, AppState } from './types';

/**
 * A dependency that must answer for the service to take traffic; with `critical: 'degrades'`,
 * one the process serves without (fewer features, no limits): while it does not answer /readyz
 * stays 200 with `status: "degraded"` and `readiness_degraded{check}` is 1; with
 * `critical: false`, a detail reported by /readyz that never changes its status (its check
 * returns the state to show).
 */
export type ReadinessCheck =
  | { name: string; critical?: true | 'degrades'; check(): Promise<void> }
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
  status: Joi.string()
    .valid('ready', 'degraded', 'not_ready')
    .description(
      'ready (200): every dependency answers. degraded (200): the process serves, without a dependency it can do without (Redis, in the API services and the credit service: queued work waits in PostgreSQL, limits fail open). not_ready (503): a dependency it cannot serve without does not answer.',
    ),
  code: Joi.valid('unavailable')
    .optional()
    .description('On a 503 only, like every error body (`unavailable`).'),
  checks: Joi.object().pattern(
    Joi.string(),
    Joi.string()
      .valid('ok', 'unavailable', 'failing_open', 'off', 'disabled')
      .description(
        'postgres and redis: ok or unavailable (postgres fails readiness; redis fails it in the generation worker only, elsewhere the answer is degraded). rate_limiter: ok, failing_open (Redis unreachable: requests pass unlimited) or disabled; auth_cache (the APIs): ok, off (its Redis subscription to auth changes is down or does not answer: every request reads PostgreSQL) or disabled; postgres_replica (only with DATABASE_READ_URL): ok or unavailable (reads go to the primary). None of these fails readiness.',
      ),
  ),
})
  .unknown(true)
  .id('Readiness');

/** GET /readyz: no input; ready or degraded (200) or not (503). */
export const readyz = guard({ operationId: 'readyz', response: { 200: readiness, 503: readiness } });
export const metrics = guard({ operationId: 'metrics', statuses: { 200: true } });

interface CheckResult {
  name: string;
  critical: true | false | 'degrades';
  state: string;
}

/** Every check at once, each within CHECK_TIMEOUT_MS: its state, or `unavailable`. */
function runChecks(checks: readonly ReadinessCheck[]): Promise<CheckResult[]> {
  return Promise.all(
    checks.map(async (c) => {
      const critical = c.critical ?? true;
      try {
        const state = await withTimeout<string | void>(c.check(), CHECK_TIMEOUT_MS);
        return { name: c.name, critical, state: state ?? 'ok' };
      } catch {
        return { name: c.name, critical, state: 'unavailable' };
      }
    }),
  );
}

/**
 * `readiness_degraded{check}`: 1 while a dependency the process serves without does not answer
 * (asked at each scrape, as /readyz asks), else 0; one series per such check.
 */
export function registerDegradedGauge(registry: Registry, checks: readonly ReadinessCheck[]): void {
  const degrading = checks.filter((c) => c.critical === 'degrades');
  if (degrading.length === 0) return;
  new Gauge({
    name: 'readiness_degraded',
    help: '1 while a dependency the process serves without (Redis in the API services) does not answer, so /readyz says "degraded", else 0.',
    labelNames: ['check'],
    registers: [registry],
    async collect() {
      for (const r of await runChecks(degrading)) this.set({ check: r.name }, r.state === 'ok' ? 0 : 1);
    },
  });
}

/**
 * /healthz: the process is alive (no dependency checked, so a database outage never gets
 * pods killed). /readyz: every dependency answers (ready), the process serves without one it can
 * do without (degraded, still 200: Kubernetes keeps routing to it), or 503 naming the ones it
 * cannot serve without.
 * /metrics: Prometheus exposition of the service's registry; OpenMetrics (with exemplars) to a
 * scraper that asks for it.
 */
export function healthRouter(checks: ReadinessCheck[], registry: Registry): Router<AppState, AppContext> {
  const router = new Router<AppState, AppContext>();
  router.get('/healthz', healthz, (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', readyz, async (ctx) => {
    const results = await runChecks(checks);
    const failed = (r: CheckResult, critical: CheckResult['critical']) =>
      r.critical === critical && r.state !== 'ok';
    const ready = !results.some((r) => failed(r, true));
    const degraded = results.some((r) => failed(r, 'degrades'));
    ctx.status = ready ? 200 : 503;
    const checksBody = Object.fromEntries(results.map((r) => [r.name, r.state]));
    // A 503 is an error body like any other: it carries its code (libs/http/src/codes.ts).
    ctx.body = ready
      ? { status: degraded ? 'degraded' : 'ready', checks: checksBody }
      : { status: 'not_ready', code: 'unavailable' satisfies ErrorCode, checks: checksBody };
  });
  router.get('/metrics', metrics, async (ctx) => {
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
