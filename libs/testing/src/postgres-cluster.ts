import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareDatabase } from '@catalogue/content-store';
import { createKnex } from '@catalogue/db';

/**
 * What the private PostgreSQL servers of the tests (private-postgres.ts, private-replica.ts)
 * share: finding the binaries, running them as `postgres` when we are root, a data directory
 * made by initdb, and the migrated and seeded database `catalogue`. How each starts and stops
 * its servers stays in its own file (their settings and signals differ).
 */

/** The newest PostgreSQL's `bin` directory under /usr/lib/postgresql (Debian's layout). */
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions.length) throw new Error(`no PostgreSQL binaries under ${root}`);
  return join(root, versions[0]!, 'bin');
}

/**
 * PostgreSQL refuses to run as root: as root (the CI container) the binaries run as the
 * `postgres` user through setpriv, which execs (so the pid we hold is the postmaster's).
 */
export function asPostgresUser(command: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [command, args];
  return ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', command, ...args]];
}

/** A new temporary directory (`<prefix>…`) the servers may write to: owned by `postgres` when we are root. */
export function postgresTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (process.getuid?.() === 0) {
    const id = (flag: string): number => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  return dir;
}

/** Runs one of the PostgreSQL tools (initdb, pg_basebackup…) to its end, as `postgres` when root. */
export function runPostgresTool(bin: string, tool: string, args: string[]): void {
  const [command, argv] = asPostgresUser(join(bin, tool), args);
  execFileSync(command, argv, { stdio: 'ignore' });
}

/** A new cluster in `data`: trusted local connections, user `postgres`, UTF-8, no fsync while made. */
export function initCluster(bin: string, data: string): void {
  runPostgresTool(bin, 'initdb', [
    ...['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C.UTF-8'],
    ...['--no-sync', '--no-instructions'],
  ]);
}

/**
 * Creates the database `catalogue` on the running server at `serverUrl` (postgres://…:port,
 * no database), migrated and seeded as the shared one is; returns its URL.
 */
export async function createCatalogueDatabase(serverUrl: string): Promise<string> {
  const admin = createKnex({
    url: `${serverUrl}/postgres`,
    poolMin: 0,
    poolMax: 1,
    statementTimeoutMs: 30_000,
  });
  try {
    await admin.raw('create database catalogue');
  } finally {
    await admin.destroy();
  }
  const url = `${serverUrl}/catalogue`;
  const db = createKnex({ url, poolMin: 0, poolMax: 1, statementTimeoutMs: 60_000 });
  try {
    await prepareDatabase(db);
  } finally {
    await db.destroy();
  }
  return url;
}
