// The bare baseline of the auth benchmark, run as its own process like the service: Koa and one
// pg Pool of the service's default size answering GET /api/v2/rest/whoami by the token lookup
// the service runs (tokensRepository.findEshopByTokenHash: the SHA-256 of the bearer token
// joined to its eshop, not revoked), with the service's body. No rate limit, no logging, no
// metrics, no security headers.
//
//   GET /api/v2/rest/whoami   200 {"data":{"eshop_id":N}}, or 401
//   GET /readyz               select 1
import { createHash } from 'node:crypto';
import Koa from 'koa';
import pg from 'pg';

/** The statement knex generates for tokensRepository.findEshopByTokenHash (api tokens). */
export const TOKEN_SQL =
  'select "eshops"."id", "eshops"."name", "eshops"."languages", "eshops"."enable_site_link", ' +
  '"eshops"."enable_rich_snippet", "eshops"."review_required", ' +
  `to_char(eshops.licence_valid_until, 'YYYY-MM-DD') as licence_valid_until, ` +
  '"eshops"."rate_limit_per_minute", "eshops"."created_at", "eshops"."updated_at" from "eshops" ' +
  'inner join "api_tokens" on "api_tokens"."eshop_id" = "eshops"."id" ' +
  'where "api_tokens"."token_hash" = $1 and "api_tokens"."revoked_at" is null limit $2';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export function createAuthBaselineApp(pool: pg.Pool): Koa {
  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.path === '/readyz') {
      await pool.query('select 1');
      ctx.body = { status: 'ready' };
      return;
    }
    const token = BEARER.exec(ctx.get('Authorization'))?.[1];
    const hash = token ? createHash('sha256').update(token, 'utf8').digest('hex') : '';
    const eshop = token ? (await pool.query<{ id: number }>(TOKEN_SQL, [hash, 1])).rows[0] : undefined;
    if (!eshop) {
      ctx.status = 401;
      ctx.body = { message: 'Authorization token required' };
      return;
    }
    ctx.body = { data: { eshop_id: eshop.id } };
  });
  return app;
}

function main(): void {
  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL,
    max: 10,
    application_name: 'baseline',
  });
  const server = createAuthBaselineApp(pool).listen(Number(process.env.PORT), '127.0.0.1');
  server.keepAliveTimeout = 65_000; // as the service's startHttpServer
  const stop = (): void => {
    server.close(() => void pool.end().then(() => process.exit(0)));
    server.closeAllConnections();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (require.main === module) main();
