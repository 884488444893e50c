import type { Socket } from 'node:net';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
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

/** The window over which answered requests and the event loop's utilisation are measured. */
const LOOP_WINDOW_MS = 250;
/** A window whose event loop was busy at least this share of the time: the process is the bottleneck. */
const LOOP_SATURATED = 0.9;

/**
 * Whether the process has a standing queue behind its own CPU: in the last window its event loop
 * was busy at least {@link LOOP_SATURATED} of the time and even the quickest request answered in
 * it had spent longer than `budgetMs` in the process (the minimum, as CoDel judges a queue: a
 * burst that drains has quick answers among the slow ones, a standing queue has none). A window
 * without answers keeps the previous verdict; one whose loop was not saturated clears it (a
 * request slow for its database is the pool's to bound).
 */
export function loopQueue(budgetMs: number, now: () => number = Date.now) {
  let inProgress = 0;
  let windowStart = now();
  let quickest = Infinity;
  let loopBefore: EventLoopUtilization = performance.eventLoopUtilization();
  let standing = false;
  const roll = (at: number): void => {
    if (at - windowStart < LOOP_WINDOW_MS) return;
    const loop = performance.eventLoopUtilization(loopBefore);
    loopBefore = performance.eventLoopUtilization();
    if (loop.utilization < LOOP_SATURATED) standing = false;
    else if (quickest !== Infinity) standing = quickest > budgetMs;
    quickest = Infinity;
    windowStart = at;
  };
  return {
    get inProgress() {
      return inProgress;
    },
    /** A request admitted: when it started. */
    started(): number {
      inProgress += 1;
      return now();
    },
    answered(startedAt: number): void {
      inProgress -= 1;
      const at = now();
      quickest = Math.min(quickest, at - startedAt);
      roll(at);
    },
    /** Whether a request arriving now would join a standing queue longer than the budget. */
    standing(): boolean {
      roll(now());
      return standing;
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
 *
 * `budgetMs` bounds the wait behind the process's own CPU the same way (`reason` `event_loop`):
 * while the loop is saturated and even the quickest recent answer took longer ({@link loopQueue}),
 * new requests are refused until the queue has drained below it. A request whose connection came back quickly (a large list, serialised after its
 * query) waits for the loop, not for the pool: without this bound the pool admitted every one,
 * the loop fell seconds behind, and a refusal took as long as an answer to go out.
 */
export function concurrencyLimit(
  limit: number,
  shed: ShedRecorder,
  saturated: () => boolean = () => false,
  budgetMs = 0,
): Middleware<AppState, AppContext> {
  const wait = loopQueue(budgetMs);
  const overBudget = (): boolean => budgetMs > 0 && wait.standing();
  return async (ctx, next) => {
    if (EXEMPT_PATHS.has(ctx.path)) return next();
    const reason: ShedReason | undefined =
      wait.inProgress >= limit
        ? 'concurrency'
        : saturated()
          ? 'database_queue'
          : overBudget()
            ? 'event_loop'
            : undefined;
    if (reason) {
      shed.record(reason);
      ctx.status = 503;
      ctx.set('Retry-After', RETRY_AFTER_SECONDS);
      ctx.type = 'application/json';
      ctx.body = BUSY_BODY;
      pauseAfterShed(ctx);
      return;
    }
    const startedAt = wait.started();
    try {
      await next();
    } finally {
      wait.answered(startedAt);
    }
  };
}
