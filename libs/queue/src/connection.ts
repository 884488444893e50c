import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { Config } from '@catalogue/config';

/** A connection to the deployment's Redis: one server (standalone, or Sentinel's master), or a cluster. */
export type RedisClient = Redis | Cluster;

/** Where Redis is: `config.redis` (any topology), or a standalone server's URL (tests, tools). */
export type RedisTarget = string | Config['redis'];

/**
 * THE factory of Redis connections: every connection of every process (queues, workers, the
 * rate limiter, readiness, metrics, the admin tools) is made here, so each topology of
 * `config.redis` reaches every use.
 * - standalone: `REDIS_URL`'s server;
 * - sentinel: the master the sentinels name (ioredis asks them again on every reconnect and,
 *   with the failover detector, as soon as they announce a new master);
 * - cluster: an ioredis Cluster from the seed nodes, `REDIS_URL`'s credentials and TLS on every
 *   node (the queue prefix carries a hash tag, see libs/config).
 * `maxRetriesPerRequest: null` is what BullMQ requires for workers (blocking commands must wait
 * through a reconnect or a failover instead of failing); `options` override the defaults.
 */
export function createRedis(target: string, connectionName: string, options?: RedisOptions): Redis;
export function createRedis(target: RedisTarget, connectionName: string, options?: RedisOptions): RedisClient;
export function createRedis(
  target: RedisTarget,
  connectionName: string,
  options: RedisOptions = {},
): RedisClient {
  if (typeof target === 'string' || target.topology === 'standalone') {
    const url = typeof target === 'string' ? target : target.url;
    return new Redis(url, { maxRetriesPerRequest: null, connectionName, ...options });
  }
  const fromUrl = credentialsOf(target.url);
  if (target.topology === 'sentinel') {
    return new Redis({
      sentinels: target.sentinels.map(({ host, port }) => ({ host, port })),
      name: target.sentinelName,
      sentinelPassword: target.sentinelPassword || undefined,
      ...fromUrl,
      // rediss: TLS to the master (the sentinels themselves are asked in plain).
      enableTLSForSentinelMode: fromUrl.tls !== undefined,
      // No failoverDetector: its subscriptions to the sentinels outlive quit()
      // (https://github.com/redis/ioredis/issues/1362)
      // and keep a stopping process alive. A failover is seen without it: Redis drops every
      // client of a server whose role changes, and a dead master drops them too; ioredis then
      // asks the sentinels again and checks the role of the server they name.
      maxRetriesPerRequest: null,
      connectionName,
      ...options,
    });
  }
  const { lazyConnect, retryStrategy, ...nodeOptions } = options;
  const clusterOptions: ClusterOptions = {
    redisOptions: {
      ...fromUrl,
      db: undefined, // a cluster has database 0 only
      maxRetriesPerRequest: null,
      connectionName,
      ...nodeOptions,
    },
    // TLS certificates name the nodes' host names, which the cluster's own answers replace by
    // addresses: keep the names (as AWS ElastiCache documents for ioredis).
    ...(fromUrl.tls ? { dnsLookup: (address, callback) => callback(null, address) } : {}),
    ...(lazyConnect !== undefined ? { lazyConnect } : {}),
    ...(retryStrategy ? { clusterRetryStrategy: (times: number) => retryStrategy(times) } : {}),
  };
  return new Cluster(
    target.clusterNodes.map(({ host, port }) => ({ host, port })),
    clusterOptions,
  );
}

/** Credentials, database and TLS of a `redis://` or `rediss://` URL, for topologies not at its address. */
function credentialsOf(url: string): Pick<RedisOptions, 'username' | 'password' | 'db' | 'tls'> {
  const parsed = new URL(url);
  const db = Number(parsed.pathname.slice(1) || 0);
  return {
    username: decodeURIComponent(parsed.username) || undefined,
    password: decodeURIComponent(parsed.password) || undefined,
    db: Number.isInteger(db) ? db : 0,
    tls: parsed.protocol === 'rediss:' ? {} : undefined,
  };
}

/** A readable description of where `target` is, without passwords (logs, error messages). */
export function describeRedis(target: RedisTarget): string {
  const redact = (url: string): string => {
    try {
      const parsed = new URL(url);
      if (parsed.password) parsed.password = '***';
      return parsed.toString();
    } catch {
      return '(unparseable URL)';
    }
  };
  if (typeof target === 'string' || target.topology === 'standalone') {
    return redact(typeof target === 'string' ? target : target.url);
  }
  const list = (addresses: Config['redis']['sentinels']): string =>
    addresses.map(({ host, port }) => `${host}:${port}`).join(',');
  return target.topology === 'cluster'
    ? `cluster ${list(target.clusterNodes)}`
    : `sentinels ${list(target.sentinels)} (master ${target.sentinelName})`;
}

/**
 * Readiness probe: fails at once while the connection is down (commands would otherwise
 * wait in the offline queue for the reconnect), and pings when it is up.
 */
export async function pingRedis(redis: RedisClient): Promise<void> {
  if (redis.status !== 'ready') throw new Error(`redis connection is ${redis.status}`);
  await redis.ping();
}

/**
 * `promise`, or a rejection after `ms`: with `maxRetriesPerRequest: null` a command waits in the
 * offline queue for as long as Redis is unreachable, and a request or a shutdown must not.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from Redis within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
