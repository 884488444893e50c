import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { databaseName } from '@catalogue/db';
import { freePort } from './index';

/** A PgBouncer of one test file, in front of a database of the shared (or a private) server. */
export interface DisposablePgBouncer {
  /** postgres://…@127.0.0.1:<port>/<database>: the same database, through the pooler. */
  url: string;
  /** The pooler's log so far (for a failing test's message). */
  log(): string;
  stop(): Promise<void>;
}

/**
 * Starts `pgbouncer` (the Debian package) on a free loopback port with `pool_mode =
 * transaction` by default, pooling `databaseUrl`'s database; trust authentication. As root (the
 * CI container) it runs as the `postgres` user, as PgBouncer refuses to run as root.
 */
export async function startPrivatePgBouncer(
  databaseUrl: string,
  opts: { poolMode?: 'transaction' | 'session'; poolSize?: number } = {},
): Promise<DisposablePgBouncer> {
  const target = new URL(databaseUrl);
  const database = databaseName(databaseUrl);
  const user = decodeURIComponent(target.username || 'postgres');
  const dir = mkdtempSync(join(tmpdir(), 'catalogue-pgbouncer-'));
  const port = await freePort();
  const ini = join(dir, 'pgbouncer.ini');
  const logFile = join(dir, 'pgbouncer.log');
  writeFileSync(
    ini,
    [
      '[databases]',
      `${database} = host=${target.hostname} port=${target.port || '5432'} dbname=${database}`,
      '',
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      `pool_mode = ${opts.poolMode ?? 'transaction'}`,
      `default_pool_size = ${opts.poolSize ?? 5}`,
      'max_client_conn = 500',
      `logfile = ${logFile}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" ""\n`);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const id = (flag: string): number => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
    chownSync(dir, id('-u'), id('-g'));
    for (const file of ['pgbouncer.ini', 'userlist.txt']) chownSync(join(dir, file), id('-u'), id('-g'));
  }
  const [command, args] = asRoot
    ? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', 'pgbouncer', ini]]
    : ['pgbouncer', [ini]];
  const child: ChildProcess = spawn(command, args, { stdio: 'ignore' });
  const readLog = (): string => {
    try {
      return readFileSync(logFile, 'utf8');
    } catch {
      return '';
    }
  };
  const stop = (): Promise<void> =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    }).then(() => rmSync(dir, { recursive: true, force: true }));

  const deadline = Date.now() + 10_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.end(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (up) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      const log = readLog();
      await stop();
      throw new Error(`pgbouncer did not start: ${log}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return { url: url.toString(), log: readLog, stop };
}
