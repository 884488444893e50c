import type { Config } from '@catalogue/config';
import { authChangesChannel, createRedis, publish, type RedisClient } from '@catalogue/queue';
import type { AuthTable } from './admin.service';

export interface AuthChangePublisher {
  /** For AdminOptions.authChanged: publishes the table's change (a failure is reported, not thrown). */
  authChanged(table: AuthTable): Promise<void>;
  close(): Promise<void>;
}

/**
 * Tells the APIs' auth caches of a committed change over the deployment's Redis (one lazy
 * connection, made at the first change). A failure to publish does not undo the change, which
 * is saved: `warn` says so, and that the caches may keep the old answer for AUTH_CACHE_TTL_MS.
 */
export function authChangePublisher(config: Config, warn: (text: string) => void): AuthChangePublisher {
  let redis: RedisClient | undefined;
  const channel = authChangesChannel(config.redis.queuePrefix);
  return {
    async authChanged(table) {
      if (!redis) {
        redis = createRedis(config.redis, 'catalogue-admin', {
          lazyConnect: true,
          maxRetriesPerRequest: 1,
        });
        redis.on('error', () => undefined); // reported below, at the publish that fails
      }
      try {
        await publish(redis, channel, table);
      } catch (err) {
        warn(
          `warning: the change is saved, but the APIs were not told (${err instanceof Error ? err.message : String(err)}); ` +
            `they may answer from their auth caches for up to AUTH_CACHE_TTL_MS (${config.http.authCacheTtlMs} ms)\n`,
        );
      }
    },
    async close() {
      redis?.disconnect();
    },
  };
}
