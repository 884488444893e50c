import knex, { type Knex } from 'knex';
import pg from 'pg';
import { createGuardedPool, POOL_QUEUE_FULL_MESSAGE, type GuardedPool } from './pool';
import { pgClientWithStatementTimeout } from './statement-timeout';

// COUNT(*) and BIGINT columns arrive as strings by default. Every bigint of this schema
// (ids, credit amounts, counts) stays far below 2^53, so plain numbers are safe and simpler.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export interface DatabaseOptions {
  url: string;
  poolMin: number;
  poolMax: number;
  statementTimeoutMs: number;
  /** Time limit of opening a connection and of waiting for a free one in the pool (default 5 s). */
  connectTimeoutMs?: number;
  /**
   * Requests that may wait for a connection while every one is in use; more get 503 at once
   * (default: no bound).
   */
  poolQueueMax?: number;
  /**
   * How long a request may wait for a connection while every one is in use: one expected to
   * wait longer is answered 503 at once, one that waited this long is answered 503 then
   * (default: no budget).
   */
  poolQueueBudgetMs?: number;
  /**
   * A connection held this long makes the process ask whether the server still answers; if it
   * does not (frozen), the held connections are closed and their requests answer 503 (default
   * 2 s, as /readyz; 0: never asked, a frozen server then costs the query timeout).
   */
  stallCheckMs?: number;
  /** Shown in pg_stat_activity, so an operator can tell which service holds a connection. */
  applicationName?: string;
  /** Where Knex reports pool and driver problems (JSON logs instead of its console.log). */
  log?: { warn(message: string): void; error(message: string): void };
  /** Called for each request refused by `poolQueueMax` or `poolQueueBudgetMs`. */
  onShed?: () => void;
}

/** How much longer than the server's statement timeout the client waits for an answer. */
const QUERY_TIMEOUT_SLACK_MS = 2_000;
/** How long the probe of a possibly frozen server waits for an answer (as /readyz's checks). */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * The pool and connection settings a Knex made by createKnex carries. A registered symbol, not
 * a module-level map: the test setup loads this module from its sources and from dist/ at once.
 */
const POOL = Symbol.for('@catalogue/db:pool');
type WithPool = Knex & { [POOL]?: { pool: GuardedPool; config: pg.ClientConfig } };
/** What createKnex attached to `db` (defineProperty below; Knex's type does not know the symbol). */
const attached = (db: Knex) => (db as WithPool)[POOL];

/** Connections of a Knex made by createKnex: open, idle, and requests waiting for one. */
export function poolState(db: Knex): { total: number; idle: number; waiting: number } {
  const pool = attached(db)?.pool;
  if (!pool) throw new Error('not a Knex instance made by createKnex');
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
}

/**
 * Whether a request asking `db` for a connection now would be refused at once (its pool's queue
 * bound or wait budget): false for a Knex not made by createKnex.
 */
export function poolSaturated(db: Knex): boolean {
  return attached(db)?.pool.saturated() ?? false;
}

/** The connection settings of a Knex made by createKnex (for a connection outside its pool). */
export function connectionConfig(db: Knex): pg.ClientConfig {
  const entry = attached(db);
  if (!entry) throw new Error('not a Knex instance made by createKnex');
  return entry.config;
}

export function createKnex(opts: DatabaseOptions): Knex {
  const connectTimeoutMs = opts.connectTimeoutMs ?? 5_000;
  // Our own pg.Pool (knex's `connectionPool`), for the guards knex's pool has no option for:
  // a bounded wait for a connection and noticing a frozen server (libs/db/src/pool.ts).
  const config: pg.PoolConfig = {
    connectionString: opts.url,
    min: opts.poolMin,
    max: opts.poolMax,
    // The statement timeout is not a startup parameter, which a transaction-mode pooler refuses:
    // the client below sets it with every BEGIN and cancels a statement outside a transaction
    // (statement-timeout.ts). It needs the server's answer: a frozen or unreachable server
    // never answers, so the client gives up too (the connection is then discarded).
    ...(opts.statementTimeoutMs > 0
      ? { query_timeout: opts.statementTimeoutMs + QUERY_TIMEOUT_SLACK_MS }
      : {}),
    // Both the wait for a free connection and the opening of a new one: a full pool answers
    // "unavailable" after this instead of queueing requests without bound.
    connectionTimeoutMillis: connectTimeoutMs,
    // A peer that vanished without a FIN is noticed by TCP instead of never.
    keepAlive: true,
    application_name: opts.applicationName ?? 'catalogue',
  };
  const pool = createGuardedPool({
    config,
    queueMax: opts.poolQueueMax,
    queueBudgetMs: opts.poolQueueBudgetMs,
    stallMs: opts.stallCheckMs ?? 2_000,
    probeTimeoutMs: PROBE_TIMEOUT_MS,
    log: opts.log,
    onShed: opts.onShed,
  });
  const db = knex({
    // A runaway query must not hold a pool connection (and a request) forever.
    client: pgClientWithStatementTimeout(opts.statementTimeoutMs),
    connectionPool: pool,
    ...(opts.log
      ? {
          log: {
            warn: (message: unknown) => {
              const text = String(message);
              // Knex warns with the stack of every failed acquire; a shed request is counted and
              // summarised by the HTTP layer, not written once per request (thousands a second).
              if (text.startsWith('Acquire connection error: ') && text.includes(POOL_QUEUE_FULL_MESSAGE))
                return;
              opts.log!.warn(text);
            },
            error: (message: unknown) => opts.log!.error(String(message)),
            deprecate: (message: unknown) => opts.log!.warn(String(message)),
            debug: () => undefined,
          },
        }
      : {}),
  });
  // Knex leaves a pool it was given open: its destroy() also ends ours. Ours first: it refuses
  // new connections at once and resolves once every connection lent is given back. knex drops
  // its reference to the pool as soon as its destroy() starts, and a query still running then
  // (a request its service stopped under) could not give its connection back (knex threw
  // reading `release` of the pool it had dropped): pool.end() then waited for it forever.
  const destroyKnex = db.destroy.bind(db);
  Object.defineProperty(db, 'destroy', {
    configurable: true,
    value: async (callback?: (err?: unknown) => void) => {
      try {
        await pool.end();
        await destroyKnex();
      } catch (err) {
        if (callback) return callback(err);
        throw err;
      }
      callback?.();
    },
  });
  Object.defineProperty(db, POOL, { value: { pool, config } });
  return db;
}

/**
 * A quick liveness probe of the database, used by /readyz: `select 1` on a fresh connection, so
 * that a busy pool (whose queue may be full) is not taken for a server that does not answer.
 */
export async function pingDatabase(db: Knex): Promise<void> {
  const pool = attached(db)?.pool;
  if (pool) await pool.probe();
  else await db.raw('select 1');
}

/** SQLSTATE classes and codes meaning "the database cannot serve now", not "this query is wrong". */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, recovery)
  '57014', // query_canceled: statement_timeout reached
  '53300', // too_many_connections
  '53000', // insufficient_resources
  '40001', // serialization_failure
  '40P01', // deadlock_detected
]);
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// Knex puts the SQL in front of the driver's message ("select … - Query read timeout").
const UNAVAILABLE_MESSAGES = [
  /^Knex: Timeout acquiring a connection/,
  // pg.Pool: no free connection (or no new one opened) within DATABASE_CONNECT_TIMEOUT_MS.
  /^timeout exceeded when trying to connect$/,
  /^Connection terminated due to connection timeout$/,
  // A connection closed under a query (the frozen-server guard), then used again.
  /(^| - )Client was closed and is not queryable$/,
  /(^| - )Connection terminated/,
  /(^| - )Query read timeout$/,
  /(^| - )timeout expired$/,
  /(^| - )Client has encountered a connection error/,
  /(^| - )Connection is closed/,
];

/**
 * Whether `err` says the database is unreachable, overloaded or too slow right now (a retry
 * later may succeed): connection refused or lost, pool or connect timeout, client-side query
 * timeout, server shutting down, statement timeout, too many connections, serialization
 * failure. Requests failing so answer 503 with Retry-After instead of 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const name = 'name' in err ? err.name : undefined;
  const code = 'code' in err ? err.code : undefined;
  const errors = 'errors' in err ? err.errors : undefined;
  const message = 'message' in err ? err.message : undefined;
  if (name === 'KnexTimeoutError' || name === 'PoolQueueFullError') return true;
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08'))) return true;
  if (typeof code === 'string' && UNAVAILABLE_ERRNOS.has(code)) return true;
  // Node reports a refused connection to a name with several addresses as an AggregateError.
  if (Array.isArray(errors) && errors.some(isDatabaseUnavailable)) return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((re) => re.test(message));
}
