import type { Knex } from 'knex';
import pg from 'pg';
import { migrations, type Migration } from './migrations';
import { connectionConfig } from './knex';

// Migrations are imported statically rather than discovered on disk, so the same list
// runs from TypeScript sources (tests) and from compiled JavaScript (production image).
const migrationSource: Knex.MigrationSource<Migration> = {
  getMigrations: async () => migrations,
  getMigrationName: (migration) => migration.name,
  getMigration: async (migration) => migration,
};

/**
 * Key of the PostgreSQL advisory lock that serialises migrations (and the seed) of one
 * database. Knex's own migration lock lives in a table that the first run creates, so copies
 * starting together on a new database raced creating it (duplicate key on pg_type): the
 * advisory lock needs no table and is taken before anything else.
 */
export const MIGRATION_LOCK_KEY = 7_362_410_223n;

/** Knex instances whose process holds the lock now (a nested call must not wait for itself). */
const holding = new WeakSet<Knex>();

/**
 * Runs `work` while holding the database's migration lock, waiting for another process that
 * holds it. The lock is taken on a connection of its own (not from `db`'s pool, which may hold
 * a single connection) without a statement timeout: a copy waits as long as the running
 * migration takes (the Job's activeDeadlineSeconds bounds it). The lock ends with the session,
 * so a copy that dies mid-migration frees it.
 */
export async function withMigrationLock<T>(db: Knex, work: () => Promise<T>): Promise<T> {
  if (holding.has(db)) return work();
  const settings = connectionConfig(db);
  const client = new pg.Client({
    ...settings,
    query_timeout: undefined,
    application_name: 'catalogue-migrate-lock',
  });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    holding.add(db);
    try {
      return await work();
    } finally {
      holding.delete(db);
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]);
    }
  } finally {
    await client.end();
  }
}

export async function migrateLatest(db: Knex): Promise<string[]> {
  return withMigrationLock(db, async () => {
    // knex types the migrator's results as any: [batch, names applied].
    const [, applied]: [number, string[]] = await db.migrate.latest({ migrationSource });
    return applied;
  });
}

/**
 * Applies pending migrations in order up to and including `name`, and no further (tests that
 * need the schema as it was before a migration, to see what that migration does to old rows).
 */
export async function migrateUpTo(db: Knex, name: string): Promise<string[]> {
  if (!migrations.some((m) => m.name === name)) throw new Error(`unknown migration ${name}`);
  const applied: string[] = [];
  // knex types it as any: [completed, pending].
  const [done]: [{ name: string }[], unknown] = await db.migrate.list({ migrationSource });
  if (done.some((m) => m.name === name)) return applied;
  for (const migration of migrations) {
    if (done.some((m) => m.name === migration.name)) continue;
    await db.migrate.up({ migrationSource, name: migration.name });
    applied.push(migration.name);
    if (migration.name === name) break;
  }
  return applied;
}

/** Reverts the newest applied migration alone (tests of what a migration's `down` does to rows). */
export async function migrateDownOne(db: Knex): Promise<void> {
  await db.migrate.down({ migrationSource });
}

/** Rolls back every migration (tests and disaster recovery only). */
export async function rollbackAll(db: Knex): Promise<string[]> {
  // knex types it as any: [batch, names reverted].
  const [, reverted]: [number, string[]] = await db.migrate.rollback({ migrationSource }, true);
  return reverted;
}

/** The `code` of a pg error (a SQLSTATE), if `err` carries one. */
function sqlState(err: unknown): unknown {
  return typeof err === 'object' && err !== null && 'code' in err ? err.code : undefined;
}

const DATABASE_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,62}$/;

/**
 * Creates the database named in `url` when it does not exist yet, connecting to the server's
 * `postgres` maintenance database only then: when the database exists (the usual case, and the
 * only one a pooler or a managed database may allow), that connection is never made. Returns
 * true when it created it.
 */
export async function ensureDatabase(url: string): Promise<boolean> {
  const name = databaseName(url);
  const target = new pg.Client({ connectionString: url });
  try {
    await target.connect();
    return false;
  } catch (err) {
    // 3D000 invalid_catalog_name: the database does not exist; anything else is a real failure.
    if (sqlState(err) !== '3D000') throw err;
  } finally {
    await target.end().catch(() => undefined);
  }
  const admin = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  try {
    // Copies starting together (a retried Job beside the first) would race to create it: two
    // CREATE DATABASE of one name fail with a duplicate key, not 42P04. The lock (of the
    // maintenance database, released with the session) lets one create and the others see it.
    await admin.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount) return false;
    try {
      await admin.query(`create database "${name}"`);
      return true;
    } catch (err) {
      // Another process that does not take the lock created it a moment ago.
      const code = sqlState(err);
      if (code === '42P04' || code === '23505') return false;
      throw err;
    }
  } finally {
    await admin.end();
  }
}

/** Drops a database (the test run's own); never used on the service's database. */
export async function dropDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  const admin = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  try {
    await admin.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await admin.end();
  }
}

export function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!DATABASE_NAME.test(name)) {
    throw new Error(`DATABASE_URL must name a database made of letters, digits, _ or - (got "${name}")`);
  }
  return name;
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
