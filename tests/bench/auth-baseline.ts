// The bare baseline of the auth benchmark, run as its own process like the service: Koa and one
// pg Pool of the service's default size answering GET /api/v2/rest/whoami with the service's
// body, and the service's token cache (libs/http/src/auth-cache.ts) written the plainest way:
//
// - the eshop of a token is looked up by the SHA-256 of the bearer token with the repository's
//   statement (tokensRepository.findEshopByTokenHash, checked by auth.bench.ts before measuring)
//   and kept in one Map for AUTH_CACHE_TTL_MS (the service's default, 60 s);
// - at most 10,000 entries, the oldest inserted going first (a hit does not refresh an entry);
// - unknown tokens are never cached (every one reads the database);
// - a notification on the service's channel (LISTEN ccs_auth_changed, sent at every committed
//   change to tokens and eshops) empties the cache, and a load that started before it does not
//   store its answer; while the listening connection is down nothing is served from the cache.
//   (The service now hears of changes over Redis pub/sub, which works behind PgBouncer; the
//   database triggers still NOTIFY, and a benchmark sends no change while it measures, so the
//   channel does not weigh on either side.)
//
// No rate limit, no access log, no metrics, no request id, no security headers: the best
// equivalent handler for what whoami has to do.
//
//   GET /api/v2/rest/whoami   200 {"data":{"eshop_id":N}}, or 401
//   GET /readyz               select 1
import { createHash } from 'node:crypto';
import Koa from 'koa';
import pg from 'pg';
import { listenAsTheService } from './baseline-listen';

/** The statement knex generates for tokensRepository.findEshopByTokenHash (api tokens). */
export const TOKEN_SQL =
  'select "eshops"."id", "eshops"."name", "eshops"."languages", "eshops"."enable_site_link", ' +
  '"eshops"."enable_rich_snippet", "eshops"."review_required", ' +
  `to_char(eshops.licence_valid_until, 'YYYY-MM-DD') as licence_valid_until, ` +
  '"eshops"."rate_limit_per_minute", "eshops"."content_fallback", "eshops"."default_language", ' +
  '"eshops"."publish_mode", "eshops"."created_at", "eshops"."updated_at" from "eshops" ' +
  'inner join "api_tokens" on "api_tokens"."eshop_id" = "eshops"."id" ' +
  'where "api_tokens"."token_hash" = $1 and "api_tokens"."revoked_at" is null limit $2';

/** The service's channel (AUTH_CHANGED_CHANNEL, migration 20261125000100). */
export const AUTH_CHANGED_CHANNEL = 'ccs_auth_changed';
/** The service's defaults: AUTH_CACHE_TTL_MS and the cache's bound. */
export const TTL_MS = 60_000;
export const MAX_ENTRIES = 10_000;

const BEARER = /^Bearer\s+(\S+)\s*$/i;

interface EshopRow {
  id: number;
}

/** The token cache: a Map, a TTL, a bound, emptied by `clear()` (the notification). */
export class TokenCache {
  private readonly entries = new Map<string, { eshop: EshopRow; expires: number }>();
  private generation = 0;
  listening = false;

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  async eshopOf(hash: string, load: () => Promise<EshopRow | undefined>): Promise<EshopRow | undefined> {
    if (!this.listening) return load();
    const hit = this.entries.get(hash);
    if (hit && hit.expires > Date.now()) return hit.eshop;
    const started = this.generation;
    const eshop = await load();
    if (eshop && started === this.generation) {
      this.entries.delete(hash);
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(hash, { eshop, expires: Date.now() + TTL_MS });
    }
    return eshop;
  }
}

/**
 * What whoami does, written plainly: the bearer token's SHA-256 looked up through the cache, the
 * eshop's id answered (or 401). The floor (auth-floor.ts) answers with the same function.
 */
export function whoamiHandler(pool: pg.Pool, cache: TokenCache): (ctx: Koa.Context) => Promise<void> {
  return async (ctx) => {
    const token = BEARER.exec(ctx.get('Authorization'))?.[1];
    const hash = token ? createHash('sha256').update(token, 'utf8').digest('hex') : '';
    const eshop = token
      ? await cache.eshopOf(hash, async () => (await pool.query<EshopRow>(TOKEN_SQL, [hash, 1])).rows[0])
      : undefined;
    if (!eshop) {
      ctx.status = 401;
      ctx.body = { message: 'Authorization token required' };
      return;
    }
    ctx.state.eshop = eshop;
    ctx.body = { data: { eshop_id: eshop.id } };
  };
}

export function createAuthBaselineApp(pool: pg.Pool, cache: TokenCache): Koa {
  const app = new Koa();
  const whoami = whoamiHandler(pool, cache);
  app.use(async (ctx) => {
    if (ctx.path === '/readyz') {
      await pool.query('select 1');
      ctx.body = { status: 'ready' };
      return;
    }
    await whoami(ctx);
  });
  return app;
}

/** LISTENs on the service's channel: every notification empties the cache; a lost connection turns it off. */
async function listenForChanges(url: string, cache: TokenCache): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: 'baseline-auth-listener' });
  const down = (): void => {
    cache.listening = false;
    cache.clear();
  };
  client.on('notification', () => cache.clear());
  client.on('error', down);
  client.on('end', down);
  await client.connect();
  await client.query(`LISTEN ${AUTH_CHANGED_CHANNEL}`);
  cache.clear();
  cache.listening = true;
  return client;
}

/**
 * Serves `build`'s app on PORT as the service does (keep-alive timeout, a pool of the service's
 * size, the token cache emptied by notifications), until SIGTERM or SIGINT.
 */
export async function serve(
  applicationName: string,
  build: (pool: pg.Pool, cache: TokenCache) => Koa,
): Promise<void> {
  const url = process.env.DATABASE_URL;
  const pool = new pg.Pool({ connectionString: url, max: 10, application_name: applicationName });
  const cache = new TokenCache();
  const listener = await listenForChanges(url!, cache);
  const stop = listenAsTheService(build(pool, cache).callback(), Number(process.env.PORT), () => {
    void Promise.all([pool.end(), listener.end()]).then(() => process.exit(0));
  });
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (require.main === module) void serve('baseline', createAuthBaselineApp);
