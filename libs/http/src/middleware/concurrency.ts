import type { Socket } from 'node:net';
import type { Middleware } from 'koa';
import type { Logger } from '@catalogue/logger';
import type { ErrorCode } from '../codes';
import type { HttpMetrics, ShedReason } from '../metrics';
import type { AppContext, AppState } from '../types';

/** Probes and scrapes are always answered: a busy process is not a dead or unready one. */
const EXEMPT_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** The message of every shed request (the reason is in the metric and the log). */
export const BUSY = 'The server is busy; try again shortly.';
const BUSY_BODY = JSON.stringify({ error: BUSY, code: 'unavailable' satisfies ErrorCode });
/** As the other 503s (UnavailableError). */
const RETRY_AFTER_SECONDS = '5';
/** At most one log line a this often about shed requests, however many there are. */
const SHED_LOG_INTERVAL_MS = 10_000;
/**
 * How long the connection of a shed request is not read after its 503 went out: Retry-After
 * enforced on a keep-alive connection whose client ignores it (see {@link pauseAfterShed}).
 */
export const SHED_PAUSE_MS = 1_000;

/**
 * After a shed request's answer is sent, its connection is not read for {@link SHED_PAUSE_MS}:
 * the 503 leaves at once, but a client that ignores Retry-After and sends again on the same
 * connection at once is not answered again at once. Without the pause such clients (a load
 * generator, a naive retry loop) refuse themselves in a loop as fast as the CPU allows, and that
 * loop takes the CPU the admitted requests need: goodput collapsed to a fifth at five times the
 * load the pool serves (docs/benchmarks.md, bench:overload). Only reading pauses; a client
 * that closes the connection is not held.
 */
export function pauseAfterShed(ctx: AppContext): void {
  const socket = ctx.req.socket;
  ctx.res.once('finish', () => {
    if (socket.destroyed) return;
    const waiting: Array<() => void> = [];
    pausedAfterShed.set(socket, waiting);
    // After Node's own clean-up of the request: it resumes an unread request body on the next
    // tick, and reading that body resumes the socket.
    setImmediate(() => {
      if (pausedAfterShed.get(socket) === waiting && !socket.destroyed) socket.pause();
    });
    setTimeout(() => {
      pausedAfterShed.delete(socket);
      if (socket.destroyed) return;
      socket.resume();
      for (const run of waiting) run();
    }, SHED_PAUSE_MS).unref();
  });
}

/** Connections not read now after a shed answer, with what runs when reading resumes. */
const pausedAfterShed = new WeakMap<Socket, Array<() => void>>();

/**
 * Runs `fn` once the connection is read again after a shed answer's pause, or now when it is not
 * paused: reading a request's unread body resumes the socket, which would end the pause early.
 */
export function whenReadingResumes(socket: Socket, fn: () => void): void {
  const waiting = pausedAfterShed.get(socket);
  if (waiting) waiting.push(fn);
  else fn();
}

/**
 * Counts shed requests (`http_requests_shed_total{reason}`) and logs them as one warning line
 * per 10 s with the counts by reason, not a line per request: under overload there are
 * thousands a second, and writing each would be the costliest part of refusing it.
 */
export interface ShedRecorder {
  record(reason: ShedReason): void;
}

export function shedRecorder(logger: Logger, metrics: HttpMetrics): ShedRecorder {
  let counts: Partial<Record<ShedReason, number>> = {};
  let lastLog = 0;
  return {
    record(reason) {
      metrics.shed.inc({ reason });
      counts[reason] = (counts[reason] ?? 0) + 1;
      const now = Date.now();
      if (now - lastLog < SHED_LOG_INTERVAL_MS) return;
      logger.warn(
        { shed: counts, since_ms: lastLog ? now - lastLog : 0 },
        'requests shed: the process is busy',
      );
      counts = {};
      lastLog = now;
    },
  };
}

/**
 * Sheds load early and cheaply: past `limit` requests in progress in this process, a request is
 * answered 503 (code `unavailable`, Retry-After) at once — before the access log, request id,
 * authentication or the database, with a body written once — and counted (`reason`
 * `concurrency`). Without it a burst queues every request for the connection pool until they
 * time out, and the ones that would have been served in time time out too; and a client that
 * ignores Retry-After comes back at once, so each refusal must cost as little as possible or
 * refusing alone takes the CPU the admitted requests need.
 *
 * `saturated` says the database pool would refuse a request now (its wait budget is spent): such
 * a request is refused here too (`reason` `database_queue`), before authentication and the rate
 * limiter, instead of after them at the pool. Without it the in-progress count never reached
 * `limit` under overload: the pool refused at a far smaller number, each refusal after the full
 * cost of admitting the request.
 */
export function concurrencyLimit(
  limit: number,
  shed: ShedRecorder,
  saturated: () => boolean = () => false,
): Middleware<AppState, AppContext> {
  let inProgress = 0;
  return async (ctx, next) => {
    if (EXEMPT_PATHS.has(ctx.path)) return next();
    const reason: ShedReason | undefined =
      inProgress >= limit ? 'concurrency' : saturated() ? 'database_queue' : undefined;
    if (reason) {
      shed.record(reason);
      ctx.status = 503;
      ctx.set('Retry-After', RETRY_AFTER_SECONDS);
      ctx.type = 'application/json';
      ctx.body = BUSY_BODY;
      pauseAfterShed(ctx);
      return;
    }
    inProgress += 1;
    try {
      await next();
    } finally {
      inProgress -= 1;
    }
  };
}
