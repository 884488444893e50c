import { Redis, type RedisOptions } from 'ioredis';

/**
 * A Redis connection for BullMQ. `maxRetriesPerRequest: null` is what BullMQ requires for
 * workers (blocking commands must wait through a reconnect instead of failing).
 */
export function createRedis(url: string, connectionName: string, options: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, connectionName, ...options });
}

/**
 * Readiness probe: fails at once while the connection is down (commands would otherwise
 * wait in the offline queue for the reconnect), and pings when it is up.
 */
export async function pingRedis(redis: Redis): Promise<void> {
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
