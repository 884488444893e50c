import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createKnex } from '@catalogue/db';
import { freePort } from './index';
import {
  asPostgresUser,
  createCatalogueDatabase,
  initCluster,
  postgresBinDir,
  postgresTempDir,
} from './postgres-cluster';

/**
 * A PostgreSQL server of one test file, for tests that stop, kill or freeze the database (the
 * shared server on 5432 is never touched). Its database `catalogue` is migrated and seeded.
 */
export interface DisposablePostgres {
  /** postgres://…/catalogue on the private server. */
  url: string;
  /** SIGSTOP to the postmaster and every backend: connections stay open, nothing answers. */
  freeze(): void;
  /** SIGCONT: the frozen server carries on. */
  thaw(): void;
  /** Immediate shutdown (no checkpoint, as after a crash); `start()` brings the same data back. */
  kill(): Promise<void>;
  start(): Promise<void>;
  /** Kills the server and removes its files. */
  stop(): Promise<void>;
}

/** The processes whose parent is `pid` (PostgreSQL's backends call setsid, so no process group holds them). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid …": comm may hold spaces, so read after its closing parenthesis.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return children;
}

const quiet = { warn: () => undefined, error: () => undefined };

async function waitForConnections(url: string, deadlineMs: number): Promise<void> {
  const db = createKnex({
    url,
    poolMin: 0,
    poolMax: 1,
    statementTimeoutMs: 5_000,
    connectTimeoutMs: 1_000,
    log: quiet,
  });
  try {
    const deadline = Date.now() + deadlineMs;
    for (;;) {
      try {
        await db.raw('select 1');
        return;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    await db.destroy();
  }
}

export async function startPrivatePostgres(): Promise<DisposablePostgres> {
  const bin = postgresBinDir();
  const dir = postgresTempDir('catalogue-pg-');
  const data = join(dir, 'data');
  initCluster(bin, data);
  const port = await freePort();
  const serverUrl = `postgres://postgres@127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  const start = async (): Promise<void> => {
    const [command, args] = asPostgresUser(join(bin, 'postgres'), [
      ...['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1'],
      ...['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    ]);
    child = spawn(command, args, { stdio: 'ignore' });
    await waitForConnections(`${serverUrl}/postgres`, 15_000);
  };
  /** Signals the postmaster and its children (stopped first, so it forks no new backend meanwhile). */
  const signalAll = (signal: NodeJS.Signals): void => {
    const pid = child?.pid;
    if (!pid || child!.exitCode !== null || child!.signalCode !== null) return;
    const order = signal === 'SIGCONT' ? [...childrenOf(pid), pid] : [pid, ...childrenOf(pid)];
    for (const target of order) {
      try {
        process.kill(target, signal);
      } catch {
        // Ended meanwhile.
      }
    }
  };
  const kill = (): Promise<void> =>
    new Promise<void>((resolve) => {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return resolve();
      const force = setTimeout(() => signalAll('SIGKILL'), 5_000);
      running.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      signalAll('SIGCONT');
      // Immediate shutdown: the postmaster ends its backends and its shared memory, as after a crash.
      running.kill('SIGQUIT');
    });

  await start();
  const url = await createCatalogueDatabase(serverUrl);
  return {
    url,
    freeze: () => signalAll('SIGSTOP'),
    thaw: () => signalAll('SIGCONT'),
    kill,
    start,
    stop: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
