// Private Redis Cluster and Sentinel sets for the topology tests: real redis-server processes
// on free loopback ports, their files in a temporary directory, all stopped (and the directory
// removed) by stop(). The shared Redis on 6379 is never touched.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './index';

const run = promisify(execFile);

/** The password of every private server (data nodes and sentinels): the credentials path is used. */
export const TOPOLOGY_PASSWORD = 'topology-secret';

interface Server {
  port: number;
  child: ChildProcess;
}

function spawnServer(args: string[]): ChildProcess {
  const child = spawn('redis-server', args, { stdio: 'ignore' });
  // A failed spawn (no redis-server) surfaces through waitForPort's deadline.
  child.on('error', () => undefined);
  return child;
}

async function waitForPort(port: number, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.end(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (up) return;
    if (Date.now() > deadline) throw new Error(`${what} did not start on port ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function kill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** `redis-cli` against one of the private servers; its standard output. */
async function cli(port: number, args: string[], password = TOPOLOGY_PASSWORD): Promise<string> {
  const { stdout } = await run(
    'redis-cli',
    ['-h', '127.0.0.1', '-p', String(port), '--no-auth-warning', '-a', password, ...args],
    {
      timeout: 30_000,
    },
  );
  return stdout;
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const DATA_ARGS = [
  '--bind',
  '127.0.0.1',
  '--save',
  '',
  '--appendonly',
  'no',
  '--requirepass',
  TOPOLOGY_PASSWORD,
];

export interface PrivateRedisCluster {
  /** The masters' addresses, `127.0.0.1:port,…` (REDIS_CLUSTER_NODES). */
  nodes: string;
  /** The configuration variables that point the services at the cluster. */
  env: Record<string, string>;
  ports: number[];
  stop(): Promise<void>;
}

/**
 * A Redis Cluster of three masters without replicas (`redis-cli --cluster create`), every slot
 * served, password `TOPOLOGY_PASSWORD`. Resolves once every node reports `cluster_state:ok`.
 */
export async function startRedisCluster(): Promise<PrivateRedisCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'redis-cluster-'));
  const servers: Server[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(servers.map(({ child }) => kill(child)));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < 3; i += 1) {
      // The cluster bus port is given too: port + 10000 (its default) may be taken or invalid.
      const [port, busPort] = [await freePort(), await freePort()];
      const child = spawnServer([
        '--port',
        String(port),
        '--cluster-port',
        String(busPort),
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(dir, `nodes-${port}.conf`),
        '--cluster-node-timeout',
        '5000',
        '--masterauth',
        TOPOLOGY_PASSWORD,
        '--dir',
        dir,
        '--dbfilename',
        `dump-${port}.rdb`,
        ...DATA_ARGS,
      ]);
      servers.push({ port, child });
    }
    for (const { port } of servers) await waitForPort(port, 'cluster node');
    const nodes = servers.map(({ port }) => `127.0.0.1:${port}`);
    await cli(servers[0]!.port, [
      '--cluster',
      'create',
      ...nodes,
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    for (const { port } of servers) {
      await until(
        async () => (await cli(port, ['cluster', 'info'])).includes('cluster_state:ok'),
        'cluster_state:ok',
        20_000,
      );
    }
    return {
      nodes: nodes.join(','),
      env: {
        REDIS_CLUSTER_NODES: nodes.join(','),
        REDIS_URL: `redis://:${TOPOLOGY_PASSWORD}@127.0.0.1:${servers[0]!.port}`,
      },
      ports: servers.map(({ port }) => port),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

export interface PrivateRedisSentinel {
  /** The sentinels' addresses, `127.0.0.1:port,…` (REDIS_SENTINELS). */
  sentinels: string;
  /** The master group's name (REDIS_SENTINEL_NAME). */
  name: string;
  /** The configuration variables that point the services at the set. */
  env: Record<string, string>;
  /** The port of the current master, as the sentinels report it. */
  masterPort(): Promise<number>;
  /**
   * Kills the current master's process (SIGKILL, after its replica has every write: `WAIT`) and
   * resolves once the sentinels name the promoted replica. Returns the new master's port.
   */
  killMaster(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * A master, one replica and three sentinels (quorum 2) watching them as `name`, every server
 * with password `TOPOLOGY_PASSWORD` (the sentinels too). A master found down for 1 s is
 * failed over to the replica.
 */
export async function startRedisSentinel(name = 'catalogue-test'): Promise<PrivateRedisSentinel> {
  const dir = await mkdtemp(join(tmpdir(), 'redis-sentinel-'));
  const data: Server[] = [];
  const sentinels: Server[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all([...sentinels, ...data].map(({ child }) => kill(child)));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const masterPort = await freePort();
    const replicaPort = await freePort();
    for (const [port, extra] of [
      [masterPort, []],
      [replicaPort, ['--replicaof', '127.0.0.1', String(masterPort)]],
    ] as const) {
      data.push({
        port,
        child: spawnServer([
          '--port',
          String(port),
          '--masterauth',
          TOPOLOGY_PASSWORD,
          // A replica writes the RDB of its full sync to disk even with saving off: in the
          // temporary directory, one file per server, never in the working directory.
          '--dir',
          dir,
          '--dbfilename',
          `dump-${port}.rdb`,
          ...DATA_ARGS,
          ...extra,
        ]),
      });
    }
    for (const { port } of data) await waitForPort(port, 'redis-server');
    await until(
      async () => (await cli(replicaPort, ['info', 'replication'])).includes('master_link_status:up'),
      'the replica to sync',
      20_000,
    );
    for (let i = 0; i < 3; i += 1) {
      const port = await freePort();
      // Sentinels rewrite their configuration file: each has its own, in the directory.
      const file = join(dir, `sentinel-${port}.conf`);
      await writeFile(
        file,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          `requirepass ${TOPOLOGY_PASSWORD}`,
          `sentinel sentinel-pass ${TOPOLOGY_PASSWORD}`,
          `sentinel monitor ${name} 127.0.0.1 ${masterPort} 2`,
          `sentinel auth-pass ${name} ${TOPOLOGY_PASSWORD}`,
          `sentinel down-after-milliseconds ${name} 1000`,
          `sentinel failover-timeout ${name} 10000`,
          `sentinel parallel-syncs ${name} 1`,
          '',
        ].join('\n'),
      );
      sentinels.push({ port, child: spawnServer([file, '--sentinel']) });
    }
    for (const { port } of sentinels) await waitForPort(port, 'redis-sentinel');
    // Every sentinel knows the replica and the two other sentinels (hello messages every 2 s):
    // only then can a failover be agreed and carried out.
    for (const { port } of sentinels) {
      await until(
        async () => {
          const info = await cli(port, ['sentinel', 'master', name]);
          const field = (key: string): number => {
            const lines = info.split('\n').map((l) => l.trim());
            return Number(lines[lines.indexOf(key) + 1]);
          };
          return field('num-slaves') >= 1 && field('num-other-sentinels') >= 2;
        },
        'the sentinels to discover each other',
        30_000,
      );
    }
    const currentMaster = async (): Promise<number> => {
      const out = await cli(sentinels[0]!.port, ['sentinel', 'get-master-addr-by-name', name]);
      return Number(out.trim().split('\n')[1]);
    };
    return {
      sentinels: sentinels.map(({ port }) => `127.0.0.1:${port}`).join(','),
      name,
      env: {
        REDIS_SENTINELS: sentinels.map(({ port }) => `127.0.0.1:${port}`).join(','),
        REDIS_SENTINEL_NAME: name,
        REDIS_SENTINEL_PASSWORD: TOPOLOGY_PASSWORD,
        // Host and port are the sentinels' business: a wrong address here must not matter.
        REDIS_URL: `redis://:${TOPOLOGY_PASSWORD}@127.0.0.1:1`,
      },
      masterPort: currentMaster,
      killMaster: async () => {
        const oldPort = await currentMaster();
        const master = data.find(({ port }) => port === oldPort)!;
        // Asynchronous replication: a write the replica has not received is lost in a failover.
        // WAIT makes the test's "nothing is lost" about the service, not about replication lag.
        await cli(oldPort, ['wait', '1', '5000']);
        await kill(master.child);
        let newPort = oldPort;
        await until(
          async () => {
            newPort = await currentMaster();
            if (newPort === oldPort) return false;
            return (await cli(newPort, ['role'])).startsWith('master');
          },
          'the sentinels to promote the replica',
          30_000,
        );
        return newPort;
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
