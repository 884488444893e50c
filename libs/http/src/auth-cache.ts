/**
 * What authentication reads on every request — a token's eshop, whether an eshop allows an
 * origin — kept in process for `ttlMs`. Correct across replicas because every change to those
 * tables notifies at commit (migration 20261125000100): a notification empties the cache, so a
 * revoked token or a removed origin stops working on every replica as soon as its notification
 * arrives (milliseconds after the commit). While the listening connection is down the cache is
 * not used at all (every request reads the database), and it starts empty when the connection is
 * back; the TTL only bounds how old an entry can get should a notification ever be lost on a
 * live connection. Unknown tokens are never cached (the failure limiter counts them).
 */
import { AUTH_CHANGED_CHANNEL, listen, type Eshop, type Listener, type TokenKind } from '@catalogue/db';
import type { Logger } from '@catalogue/logger';

export interface AuthCache {
  /** The eshop of a token by its hash: cached, or `load`ed (and cached when found). */
  eshopOfToken(
    kind: TokenKind,
    hash: string,
    load: () => Promise<Eshop | undefined>,
  ): Promise<Eshop | undefined>;
  /** Whether an eshop allows an origin: cached, or `load`ed. */
  originAllowed(eshopId: number, origin: string, load: () => Promise<boolean>): Promise<boolean>;
  /** Whether entries are served (the listener is up and the TTL is not 0). */
  active(): boolean;
  close(): Promise<void>;
}

/** No caching: every call loads (tests that build routers by hand, AUTH_CACHE_TTL_MS=0). */
export const NO_AUTH_CACHE: AuthCache = {
  eshopOfToken: (_kind, _hash, load) => load(),
  originAllowed: (_eshopId, _origin, load) => load(),
  active: () => false,
  close: () => Promise.resolve(),
};

export interface AuthCacheOptions {
  databaseUrl: string;
  ttlMs: number;
  /** Entries at most; the oldest go first. */
  maxEntries?: number;
  logger: Logger;
  /** Shown in pg_stat_activity for the listening connection. */
  applicationName: string;
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

  const listener: Listener = listen(
    {
      url: opts.databaseUrl,
      channel: AUTH_CHANGED_CHANNEL,
      applicationName: `${opts.applicationName}-auth-listener`,
    },
    {
      onNotify: clear,
      onUp: () => {
        clear();
        listening = true;
        opts.logger.debug('auth cache: listening for changes');
      },
      onDown: (err) => {
        if (listening) opts.logger.warn({ err: err.message }, 'auth cache off: change notifications lost');
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
    close: () => listener.close(),
  };
}
