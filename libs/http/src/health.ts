import Router from '@koa/router';
import { Registry } from 'prom-client';
import type { ErrorCode } from './codes';
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

/**
 * /healthz: the process is alive (no dependency checked, so a database outage never gets
 * pods killed). /readyz: every dependency answers, or 503 naming the ones that do not.
 * /metrics: Prometheus exposition of the service's registry; OpenMetrics (with exemplars) to a
 * scraper that asks for it.
 */
export function healthRouter(checks: ReadinessCheck[], registry: Registry): Router<AppState, AppContext> {
  const router = new Router<AppState, AppContext>();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
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
