import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createKnex, type Knex } from '@catalogue/db';
import { freePort } from './index';
import {
  asPostgresUser,
  createCatalogueDatabase,
  initCluster,
  postgresBinDir,
  postgresTempDir,
  runPostgresTool,
} from './postgres-cluster';

/**
 * A primary PostgreSQL and its streaming replica (hot standby), private to one test file, on
 * free loopback ports (the shared server on 5432 is never used for replication). The primary's
 * database `catalogue` is migrated and seeded before the replica is copied from it.
 */
export interface ReplicatedPostgres {
  /** postgres://…/catalogue on the primary. */
  primaryUrl: string;
  /** postgres://…/catalogue on the replica (read-only: a hot standby). */
  replicaUrl: string;
  /** Stops applying WAL on the replica (it keeps receiving it); resolves once replay is paused. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Resolves once the replica has replayed everything the primary had written when called. */
  waitForReplay(timeoutMs?: number): Promise<void>;
  /** Fast shutdown of the replica (its connections end at once); `startReplica()` brings it back. */
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  /** Stops both servers and removes their files. */
  stop(): Promise<void>;
}

const quiet = { warn: () => undefined, error: () => undefined };

function connect(url: string, statementTimeoutMs = 10_000): Knex {
  return createKnex({ url, poolMin: 0, poolMax: 1, statementTimeoutMs, connectTimeoutMs: 1_000, log: quiet });
}

async function poll<T>(what: string, deadlineMs: number, attempt: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await attempt();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`${what}: ${last instanceof Error ? last.message : 'timed out'}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** One postgres server on `data`, started and stopped by us. */
function server(bin: string, data: string, socketDir: string, port: number) {
  let child: ChildProcess | undefined;
  const url = `postgres://postgres@127.0.0.1:${port}`;
  const running = (): boolean => !!child && child.exitCode === null && child.signalCode === null;
  return {
    url,
    async start(): Promise<void> {
      const [command, args] = asPostgresUser(join(bin, 'postgres'), [
        ...['-D', data, '-p', String(port), '-k', socketDir, '-c', 'listen_addresses=127.0.0.1'],
        ...['-c', 'fsync=off', '-c', 'wal_level=replica', '-c', 'max_wal_senders=5', '-c', 'hot_standby=on'],
        // Queries on the standby never wait for replay, nor replay for them.
        ...['-c', 'max_standby_streaming_delay=-1', '-c', 'hot_standby_feedback=on'],
      ]);
      child = spawn(command, args, { stdio: 'ignore' });
      await poll(`postgres on ${port} did not start`, 20_000, async () => {
        if (!running()) throw new Error('postgres exited');
        const db = connect(`${url}/postgres`);
        try {
          await db.raw('select 1');
          return true;
        } finally {
          await db.destroy();
        }
      });
    },
    /** Fast shutdown (SIGINT): connections end, then the server; SIGKILL if it takes too long. */
    stop(): Promise<void> {
      return new Promise<void>((resolve) => {
        const proc = child;
        if (!proc || !running()) return resolve();
        const force = setTimeout(() => proc.kill('SIGKILL'), 10_000);
        proc.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        proc.kill('SIGINT');
      });
    },
  };
}

export async function startPrivateReplicatedPostgres(): Promise<ReplicatedPostgres> {
  const bin = postgresBinDir();
  const dir = postgresTempDir('catalogue-pg-replica-');
  const primaryData = join(dir, 'primary');
  const replicaData = join(dir, 'replica');
  initCluster(bin, primaryData);
  // Replication connections from loopback, trusted (initdb's defaults have it too; said here so
  // the helper does not depend on them).
  appendFileSync(join(primaryData, 'pg_hba.conf'), '\nhost replication postgres 127.0.0.1/32 trust\n');
  const primaryPort = await freePort();
  const primary = server(bin, primaryData, dir, primaryPort);
  let replica: ReturnType<typeof server> | undefined;
  try {
    await primary.start();
    await createCatalogueDatabase(primary.url);
    // A copy of the primary that starts as its standby: -R writes standby.signal and
    // primary_conninfo; -c fast does not wait for a spread checkpoint.
    runPostgresTool(bin, 'pg_basebackup', [
      ...['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replicaData],
      ...['-R', '-X', 'stream', '-c', 'fast', '--no-sync'],
    ]);
    replica = server(bin, replicaData, dir, await freePort());
    await replica.start();
  } catch (err) {
    await replica?.stop();
    await primary.stop();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const standby = replica;
  const primaryUrl = `${primary.url}/catalogue`;
  const replicaUrl = `${standby.url}/catalogue`;

  const onReplica = async <T>(sql: string): Promise<T[]> => {
    const db = connect(replicaUrl);
    try {
      return (await db.raw<{ rows: T[] }>(sql)).rows;
    } finally {
      await db.destroy();
    }
  };
  const replayState = async (): Promise<string> =>
    (await onReplica<{ state: string }>('select pg_get_wal_replay_pause_state() as state'))[0]!.state;

  return {
    primaryUrl,
    replicaUrl,
    async pauseReplay() {
      await onReplica('select pg_wal_replay_pause()');
      // "pause requested" until the startup process actually stops between two records.
      await poll('replay did not pause', 10_000, async () =>
        (await replayState()) === 'paused' ? true : undefined,
      );
    },
    async resumeReplay() {
      await onReplica('select pg_wal_replay_resume()');
    },
    async waitForReplay(timeoutMs = 15_000) {
      const db = connect(primaryUrl);
      let target: string;
      try {
        target = (
          await db.raw<{ rows: { lsn: string }[] }>('select pg_current_wal_insert_lsn()::text as lsn')
        ).rows[0]!.lsn;
      } finally {
        await db.destroy();
      }
      await poll('the replica did not catch up', timeoutMs, async () => {
        const [row] = await onReplica<{ done: boolean }>(
          `select coalesce(pg_last_wal_replay_lsn() >= '${target}'::pg_lsn, false) as done`,
        );
        return row?.done ? true : undefined;
      });
    },
    stopReplica: () => standby.stop(),
    startReplica: () => standby.start(),
    async stop() {
      await standby.stop();
      await primary.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
