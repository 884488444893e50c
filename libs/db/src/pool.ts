import pg from 'pg';

/** The start of {@link PoolQueueFullError}'s message (knex logs it in its own words). */
export const POOL_QUEUE_FULL_MESSAGE = 'Every database connection is in use';

/**
 * A connection was asked for while every one was in use and `queueMax` requests already waited,
 * or its expected wait was past the budget: refused at once (a 503 with Retry-After) instead of
 * joining a queue that only grows; or it waited the whole budget without one (`waited`).
 */
export class PoolQueueFullError extends Error {
  override readonly name = 'PoolQueueFullError';
  readonly code = 'POOL_QUEUE_FULL';
  constructor(
    why: string,
    /** Refused after waiting the budget, not at once: the client waited for nothing. */
    readonly waited = false,
  ) {
    super(`${POOL_QUEUE_FULL_MESSAGE} and ${why}`);
  }
}

/** Weight of the latest hold time in the pool's running average of them. */
const HOLD_AVERAGE_WEIGHT = 0.1;
/** The window over which connections coming back are counted, and its weight in the average. */
const RATE_WINDOW_MS = 250;
const RATE_WEIGHT = 0.5;

export interface GuardedPoolOptions {
  /** Passed to pg.Pool (and so to every connection it opens). */
  config: pg.PoolConfig;
  /** Requests that may wait for a connection when every one is in use; more are refused at once. */
  queueMax?: number;
  /**
   * How long a request may wait for a connection when every one is in use. One whose expected
   * wait (the requests ahead of it, times the average time a connection is held, over the
   * pool's size) is longer is refused at once; one that waited this long without getting a
   * connection is refused then. Undefined: no budget (only pg.Pool's connection timeout).
   */
  queueBudgetMs?: number;
  /**
   * A connection held this long makes the pool ask whether the server still answers (a fresh
   * connection and `select 1` within `probeTimeoutMs`). If it does not, every connection held
   * longer is closed, so the requests waiting on them fail at once. 0: never asked.
   */
  stallMs: number;
  probeTimeoutMs: number;
  log?: { warn(message: string): void; error(message: string): void };
  /** Called for each request refused by `queueMax` or `queueBudgetMs` (a metric counts it). */
  onShed?: () => void;
}

/** What knex needs of a native pool (`connectionPool`), plus the probe /readyz uses. */
export interface GuardedPool {
  connect(): Promise<pg.PoolClient>;
  end(): Promise<void>;
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
  /** Resolves when the server answers `select 1` on a fresh connection within the probe timeout. */
  probe(): Promise<void>;
  /**
   * Whether a request asking for a connection now would be refused (`queueMax` requests wait,
   * or its expected wait is past `queueBudgetMs`): what the HTTP layer checks before it spends
   * anything on a new request.
   */
  saturated(): boolean;
}

/**
 * A pg.Pool with two guards knex's own pool lacks, both through pg's public API:
 *
 * - a bounded wait: past `queueMax` waiting requests, `connect()` rejects at once with
 *   {@link PoolQueueFullError} (pg.Pool's own `connectionTimeoutMillis` bounds how long the
 *   admitted ones wait);
 * - a frozen server is noticed: the client-side query timeout must outlast the server's
 *   statement timeout (a legitimately long statement), so on its own it holds a request that long
 *   on a server that answers nothing (SIGSTOP, a hung host). A connection held past `stallMs`
 *   makes the pool probe the server on a fresh connection; a server that does not answer gets
 *   the held connections closed (`client.end()`, which drops the socket of a client whose query
 *   is in flight): their queries fail with "Connection terminated", the requests answer 503, and
 *   the server rolls their transactions back when it sees the socket gone. A server that answers
 *   the probe is slow, not frozen: its long statements carry on.
 */
export function createGuardedPool(opts: GuardedPoolOptions): GuardedPool {
  const pool = new pg.Pool(opts.config);
  const max = pool.options.max;
  // Clients (pg.Pool's `remove` names the pg.Client a PoolClient is).
  const held = new Map<pg.Client, number>();
  // An idle connection that fails (server restarted) is removed by pg.Pool, which then emits
  // `error`: without a listener that would end the process.
  pool.on('error', (err) => opts.log?.warn(`idle database connection failed: ${err.message}`));
  // pg.Pool listens only to idle clients: one held between statements (a transaction's) whose
  // connection the server ends would emit `error` to no one, which ends the process. Its next
  // statement fails instead, and the pool drops it when it comes back.
  pool.on('connect', (client) => client.on('error', () => undefined));
  pool.on('acquire', (client) => held.set(client, Date.now()));
  // The running average of how long a connection is held (acquire to release), from which the
  // wait of a request joining the queue is estimated.
  let averageHoldMs = 0;
  // And how many connections came back per millisecond, over windows of RATE_WINDOW_MS: under
  // load a connection is held longer than its query (the process is busy too), while the pool
  // still hands out connections at the rate they come back.
  let releasedInWindow = 0;
  let windowStart = Date.now();
  let releasesPerMs = 0;
  const rollWindow = (now: number): void => {
    const elapsed = now - windowStart;
    if (elapsed < RATE_WINDOW_MS) return;
    const rate = releasedInWindow / elapsed;
    releasesPerMs = releasesPerMs === 0 ? rate : releasesPerMs + RATE_WEIGHT * (rate - releasesPerMs);
    releasedInWindow = 0;
    windowStart = now;
  };
  pool.on('release', (_err, client) => {
    const now = Date.now();
    const since = held.get(client);
    if (since !== undefined) {
      const ms = now - since;
      averageHoldMs = averageHoldMs === 0 ? ms : averageHoldMs + HOLD_AVERAGE_WEIGHT * (ms - averageHoldMs);
    }
    held.delete(client);
    releasedInWindow += 1;
    rollWindow(now);
  });
  pool.on('remove', (client) => held.delete(client));

  const probe = async (): Promise<void> => {
    const client = new pg.Client({
      ...opts.config,
      connectionTimeoutMillis: opts.probeTimeoutMs,
      // Client-side only: a `statement_timeout` startup parameter is refused by a transaction
      // pooler (PgBouncer), which would make every probe fail there.
      query_timeout: opts.probeTimeoutMs,
    });
    // A failed connect or query has already dropped the socket; end() then settles at once.
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('select 1');
    } finally {
      await client.end().catch(() => undefined);
    }
  };

  let probing = false;
  let lastProbe = 0;
  const check = async (): Promise<void> => {
    const now = Date.now();
    if (probing || now - lastProbe < opts.stallMs) return;
    const stalledBefore = now - opts.stallMs;
    if (![...held.values()].some((since) => since <= stalledBefore)) return;
    probing = true;
    try {
      await probe();
    } catch (err) {
      // An error the server sent (too many connections, shutting down) is an answer.
      if (!(err instanceof pg.DatabaseError)) {
        let closed = 0;
        for (const [client, since] of held) {
          if (since > stalledBefore) continue;
          held.delete(client);
          closed += 1;
          void client.end().catch(() => undefined);
        }
        opts.log?.warn(
          `the database did not answer within ${opts.probeTimeoutMs} ms (${err instanceof Error ? err.message : String(err)}): ` +
            `closed ${closed} connection(s) held since before ${new Date(stalledBefore).toISOString()}`,
        );
      }
    } finally {
      probing = false;
      lastProbe = Date.now();
    }
  };
  const timer =
    opts.stallMs > 0
      ? setInterval(() => void check(), Math.max(50, Math.floor(opts.stallMs / 4)))
      : undefined;
  timer?.unref();

  const queueMax = opts.queueMax;
  const budget = opts.queueBudgetMs;
  const refuse = (why: string, waited = false): Promise<never> => {
    opts.onShed?.();
    return Promise.reject(new PoolQueueFullError(why, waited));
  };
  // The requests ahead, over the rate connections come back: from the hold times (right at the
  // start of a burst, when the pool was idle before) or from the measured release rate (right
  // under sustained load), whichever expects the shorter wait. A wait underestimated is still
  // bounded: the request is refused when it has waited the budget.
  const expectedWaitMs = () => {
    rollWindow(Date.now());
    const ahead = pool.waitingCount + 1;
    const fromHold = (ahead * averageHoldMs) / max;
    return releasesPerMs > 0 ? Math.min(fromHold, ahead / releasesPerMs) : fromHold;
  };
  return {
    saturated() {
      if (pool.idleCount > 0 || pool.totalCount < max) return false;
      if (queueMax !== undefined && pool.waitingCount >= queueMax) return true;
      return budget !== undefined && expectedWaitMs() > budget;
    },
    connect() {
      const busy = pool.idleCount === 0 && pool.totalCount >= max;
      if (!busy || (queueMax === undefined && budget === undefined)) return pool.connect();
      if (queueMax !== undefined && pool.waitingCount >= queueMax) {
        return refuse(`${queueMax} requests already wait for one`);
      }
      if (budget === undefined) return pool.connect();
      const expectedMs = expectedWaitMs();
      if (expectedMs > budget) {
        return refuse(`the wait for one would be about ${Math.round(expectedMs)} ms (budget ${budget} ms)`);
      }
      return waitWithin(pool.connect(), budget, () => refuse(`none was free within ${budget} ms`, true));
    },
    async end() {
      if (timer) clearInterval(timer);
      await pool.end();
    },
    get totalCount() {
      return pool.totalCount;
    },
    get idleCount() {
      return pool.idleCount;
    },
    get waitingCount() {
      return pool.waitingCount;
    },
    probe,
  };
}

/**
 * `connecting`, or `onTimeout()` when it has not settled within `ms`; a connection that arrives
 * later goes back to the pool at once.
 */
function waitWithin(
  connecting: Promise<pg.PoolClient>,
  ms: number,
  onTimeout: () => Promise<never>,
): Promise<pg.PoolClient> {
  return new Promise((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      onTimeout().catch(reject);
    }, ms);
    connecting.then(
      (client) => {
        clearTimeout(timer);
        if (late) client.release();
        else resolve(client);
      },
      (err: unknown) => {
        clearTimeout(timer);
        if (!late) reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}
