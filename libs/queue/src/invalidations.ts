/**
 * Cache invalidations over Redis pub/sub: what a process keeps in memory about data another
 * process changes (the API processes' auth cache: tokens, eshops, origins). Redis carries them
 * whatever stands between the services and PostgreSQL; PostgreSQL's LISTEN/NOTIFY does not
 * survive a transaction-mode pooler (PgBouncer accepts LISTEN on a server connection it lends
 * to someone else a moment later, and the notifications never reach the listener).
 *
 * Pub/sub delivers a message to the subscribers connected at that moment, at most once. A
 * subscriber must therefore treat the time between `onDown` and the next `onUp` as blind.
 */
import { createRedis, withTimeout, type RedisClient, type RedisTarget } from './connection';

/** The channel of the auth tables' changes, one per deployment (its QUEUE_PREFIX). */
export function authChangesChannel(queuePrefix: string): string {
  return `${queuePrefix}:auth-changed`;
}

export interface InvalidationHandlers {
  /** A message arrived (its payload). */
  onMessage(payload: string): void;
  /** Subscribed: messages from now on arrive. */
  onUp(): void;
  /** The connection is lost, did not answer a ping, or could not subscribe; ioredis reconnects. */
  onDown(err: Error): void;
}

export interface Subscription {
  /**
   * Pings the subscribing connection (readiness): true when it answered within `timeoutMs`.
   * A connection that does not answer is dropped (`onDown`) and made again.
   */
  check(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Subscribes to `channel` on a connection of its own (made by createRedis, like every other
 * connection of the service, so it goes wherever the deployment's Redis is).
 */
export function subscribe(
  opts: { redis: RedisTarget; channel: string; connectionName: string },
  handlers: InvalidationHandlers,
): Subscription {
  // Resubscribed by hand on every `ready`, so `onUp` comes after the server confirmed it.
  const redis: RedisClient = createRedis(opts.redis, opts.connectionName, { autoResubscribe: false });
  let up = false;
  let closed = false;
  const down = (err: Error): void => {
    if (!up) return;
    up = false;
    handlers.onDown(err);
  };
  redis.on('error', () => undefined); // reported through onDown; ioredis reconnects
  redis.on('close', () => down(new Error('redis connection closed')));
  redis.on('message', (channel: string, message: string) => {
    if (channel === opts.channel) handlers.onMessage(message);
  });
  redis.on('ready', () => {
    redis.subscribe(opts.channel).then(
      () => {
        if (closed || up || redis.status !== 'ready') return;
        up = true;
        handlers.onUp();
      },
      (err: Error) => {
        if (!closed) redis.disconnect(true);
        down(err);
      },
    );
  });

  return {
    async check(timeoutMs) {
      if (!up) return false;
      try {
        await withTimeout(redis.ping(), timeoutMs);
        return up;
      } catch (err) {
        down(err instanceof Error ? err : new Error(String(err)));
        if (!closed) redis.disconnect(true);
        return false;
      }
    },
    async close() {
      closed = true;
      up = false;
      redis.disconnect();
    },
  };
}

/** Publishes `payload` on `channel`; resolves to the number of subscribers that received it. */
export async function publish(
  redis: RedisClient,
  channel: string,
  payload: string,
  timeoutMs = 2_000,
): Promise<number> {
  return withTimeout(redis.publish(channel, payload), timeoutMs);
}
