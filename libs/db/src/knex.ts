import knex, { type Knex } from 'knex';
import pg from 'pg';

// COUNT(*) and BIGINT columns arrive as strings by default. Every bigint of this schema
// (ids, credit amounts, counts) stays far below 2^53, so plain numbers are safe and simpler.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export interface DatabaseOptions {
  url: string;
  poolMin: number;
  poolMax: number;
  statementTimeoutMs: number;
  /** Shown in pg_stat_activity, so an operator can tell which service holds a connection. */
  applicationName?: string;
  /** Where Knex reports pool and driver problems (JSON logs instead of its console.log). */
  log?: { warn(message: string): void; error(message: string): void };
}

export function createKnex(opts: DatabaseOptions): Knex {
  return knex({
    client: 'pg',
    connection: {
      connectionString: opts.url,
      // A runaway query must not hold a pool connection (and a request) forever.
      statement_timeout: opts.statementTimeoutMs,
      application_name: opts.applicationName ?? 'catalogue',
    },
    pool: { min: opts.poolMin, max: opts.poolMax },
    acquireConnectionTimeout: 10_000,
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
