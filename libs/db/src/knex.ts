import knex, { type Knex } from 'knex';
import pg from 'pg';
import { pgClientWithStatementTimeout } from './statement-timeout';

// COUNT(*) and BIGINT columns arrive as strings by default. Every bigint of this schema
// (ids, credit amounts, counts) stays far below 2^53, so plain numbers are safe and simpler.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export interface DatabaseOptions {
  url: string;
  poolMin: number;
  poolMax: number;
  statementTimeoutMs: number;
  /** Time limit of opening a connection and of waiting for a free one in the pool (default 10 s). */
  connectTimeoutMs?: number;
  /** Shown in pg_stat_activity, so an operator can tell which service holds a connection. */
  applicationName?: string;
  /** Where Knex reports pool and driver problems (JSON logs instead of its console.log). */
  log?: { warn(message: string): void; error(message: string): void };
}

/** How much longer than the server's statement timeout the client waits for an answer. */
const QUERY_TIMEOUT_SLACK_MS = 2_000;

export function createKnex(opts: DatabaseOptions): Knex {
  const connectTimeoutMs = opts.connectTimeoutMs ?? 10_000;
  return knex({
    // A runaway query must not hold a pool connection (and a request) forever. Not a startup
    // parameter, which a transaction-mode pooler refuses: see statement-timeout.ts.
    client: pgClientWithStatementTimeout(opts.statementTimeoutMs),
    connection: {
      connectionString: opts.url,
      // The statement timeout needs the server's answer: a frozen or unreachable server never
      // answers, so the client gives up too (the connection is then discarded).
      ...(opts.statementTimeoutMs > 0
        ? { query_timeout: opts.statementTimeoutMs + QUERY_TIMEOUT_SLACK_MS }
        : {}),
      connectionTimeoutMillis: connectTimeoutMs,
      // A peer that vanished without a FIN is noticed by TCP instead of never.
      keepAlive: true,
      application_name: opts.applicationName ?? 'catalogue',
    },
    pool: { min: opts.poolMin, max: opts.poolMax },
    // A full pool answers "unavailable" after this instead of queueing requests without bound.
    acquireConnectionTimeout: connectTimeoutMs,
    ...(opts.log
      ? {
          log: {
            warn: (message: unknown) => opts.log!.warn(String(message)),
            error: (message: unknown) => opts.log!.error(String(message)),
            deprecate: (message: unknown) => opts.log!.warn(String(message)),
            debug: () => undefined,
          },
        }
      : {}),
  });
}

/** A quick liveness probe of the database, used by /readyz. */
export async function pingDatabase(db: Knex): Promise<void> {
  await db.raw('select 1');
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
  const e = err as { name?: unknown; code?: unknown; message?: unknown; errors?: unknown };
  if (e.name === 'KnexTimeoutError') return true;
  if (typeof e.code === 'string' && (UNAVAILABLE_SQLSTATES.has(e.code) || e.code.startsWith('08')))
    return true;
  if (typeof e.code === 'string' && UNAVAILABLE_ERRNOS.has(e.code)) return true;
  // Node reports a refused connection to a name with several addresses as an AggregateError.
  if (Array.isArray(e.errors) && e.errors.some(isDatabaseUnavailable)) return true;
  return typeof e.message === 'string' && UNAVAILABLE_MESSAGES.some((re) => re.test(e.message as string));
}
