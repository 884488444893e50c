/**
 * What authentication reads on every request — a token's eshop (with its rate limit), whether
 * an eshop allows an origin — kept in process for `ttlMs`. Correct across replicas because every
 * change to those tables made through the admin service is published on Redis after its commit
 * (libs/queue invalidations.ts): a message empties the cache, so a revoked token, a removed
 * origin or a changed rate limit takes effect on every replica as soon as the message arrives
 * (milliseconds after the commit), whatever pooler stands in front of PostgreSQL. While the
 * subscribing connection is down, or does not answer the readiness ping, the cache is not used
 * at all (every request reads the database), and it starts empty when the connection is back;
 * the TTL bounds how old an entry can get for a change made another way (an operator's SQL).
 * Unknown tokens are never cached (the failure limiter counts them).
 */
import type { Eshop, TokenKind } from '@catalogue/db';
import type { Logger } from '@catalogue/logger';
import { subscribe, type RedisTarget, type Subscription } from '@catalogue/queue';

export interface AuthCache {
  /** The eshop of a token by its hash: cached, or `load`ed (and cached when found). */
  eshopOfToken(
    kind: TokenKind,
    hash: string,
    load: () => Promise<Eshop | undefined>,
  ): Promise<Eshop | undefined>;
  /** Whether an eshop allows an origin: cached, or `load`ed. */
  originAllowed(eshopId: number, origin: string, load: () => Promise<boolean>): Promise<boolean>;
  /** Whether entries are served (the subscriber is up and the TTL is not 0). */
  active(): boolean;
  /**
   * Readiness: `ok` when the invalidation channel answers a ping now, `off` otherwise (then
   * nothing is served from memory until it is back); `disabled` when nothing is cached.
   */
  state(): Promise<'ok' | 'off' | 'disabled'>;
  close(): Promise<void>;
}

/** No caching: every call loads (tests that build routers by hand, AUTH_CACHE_TTL_MS=0). */
export const NO_AUTH_CACHE: AuthCache = {
  eshopOfToken: (_kind, _hash, load) => load(),
  originAllowed: (_eshopId, _origin, load) => load(),
  active: () => false,
  state: () => Promise.resolve('disabled'),
  close: () => Promise.resolve(),
};

export interface AuthCacheOptions {
  /** The deployment's Redis and the channel of auth changes (authChangesChannel). */
  redis: RedisTarget;
  channel: string;
  ttlMs: number;
  /** Entries at most; the oldest go first. */
  maxEntries?: number;
  logger: Logger;
  /** The subscribing connection's name is this plus `-auth-changes` (CLIENT LIST). */
  applicationName: string;
  /** How long the readiness ping of the subscribing connection may take (default 1 s). */
  checkTimeoutMs?: number;
}

export function createAuthCache(opts: AuthCacheOptions): AuthCache {
  if (opts.ttlMs <= 0) return NO_AUTH_CACHE;
  const maxEntries = opts.maxEntries ?? 10_000;
  const entries = new Map<string, { value: unknown; expires: number }>();
  let listening = false;
  // Bumped by every invalidation: a load that started before one must not store its answer.
  let generation = 0;
  const clear = (): void => {
    generation++;
    entries.clear();
  };

  const subscription: Subscription = subscribe(
    { redis: opts.redis, channel: opts.channel, connectionName: `${opts.applicationName}-auth-changes` },
    {
      onMessage: clear,
      onUp: () => {
        clear();
        listening = true;
        opts.logger.debug('auth cache: subscribed to changes');
      },
      onDown: (err) => {
        if (listening) opts.logger.warn({ err: err.message }, 'auth cache off: change messages lost');
        listening = false;
        clear();
      },
    },
  );

  async function cached<T>(key: string, load: () => Promise<T>, keep: (value: T) => boolean): Promise<T> {
    if (!listening) return load();
    const hit = entries.get(key);
    if (hit && hit.expires > Date.now()) return hit.value as T;
    const started = generation;
    const value = await load();
    if (keep(value) && generation === started) {
      entries.delete(key);
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(key, { value, expires: Date.now() + opts.ttlMs });
    }
    return value;
  }

  return {
    eshopOfToken: (kind, hash, load) => cached(`token:${kind}:${hash}`, load, (eshop) => eshop !== undefined),
    originAllowed: (eshopId, origin, load) => cached(`origin:${eshopId}:${origin}`, load, () => true),
    active: () => listening,
    state: async () => ((await subscription.check(opts.checkTimeoutMs ?? 1_000)) ? 'ok' : 'off'),
    close: () => subscription.close(),
  };
}
