// The services behind PgBouncer in transaction mode: a private pgbouncer in front of
// this run's database, both APIs connected through it with the default statement timeout, their
// core flows, the statement timeout firing through the pooler, an admin revocation reaching
// the auth caches at once, and migrations that need neither the pooler nor the maintenance
// database (docs/decisions/0050-pgbouncer-in-transaction-mode.md, "PgBouncer in transaction mode").
import { adminService, authChangePublisher, type AuthChangePublisher } from '@catalogue/admin';
import {
  createKnex,
  ensureDatabase,
  isDatabaseUnavailable,
  tokensRepository,
  type Knex,
} from '@catalogue/db';
import { WHITE_LABEL_TOKEN_HEADER } from '@catalogue/http';
import {
  eventually,
  makeEshop,
  runNodeScript,
  serveServiceForTests,
  startPrivatePgBouncer,
  testConfig,
  type DisposablePgBouncer,
} from '@catalogue/testing';
import pg from 'pg';
import { catalogueApi } from '../services/catalogue-api/src/service';
import { whiteLabelApi } from '../services/white-label-api/src/service';

const ORIGIN = 'https://admin.pooled.test';
const directUrl = (): string => testConfig().database.url;

let bouncer: DisposablePgBouncer;
/** Filled before the services start (serveServiceForTests reads it in its beforeAll). */
const pooled: Record<string, string> = {};
beforeAll(async () => {
  bouncer = await startPrivatePgBouncer(directUrl(), { poolMode: 'transaction', poolSize: 5 });
  // The defaults that failed before: DATABASE_STATEMENT_TIMEOUT_MS=30000, the auth cache on.
  pooled.DATABASE_URL = bouncer.url;
  pooled.DATABASE_STATEMENT_TIMEOUT_MS = '30000';
});
afterAll(() => bouncer?.stop());

const catalogue = serveServiceForTests(catalogueApi, pooled);
const whiteLabel = serveServiceForTests(whiteLabelApi, pooled);

async function readiness(url: string): Promise<{ status: number; checks: Record<string, string> }> {
  const res = await fetch(`${url}/readyz`);
  return { status: res.status, checks: ((await res.json()) as { checks: Record<string, string> }).checks };
}
const api = (token: string, method: string, path: string, body?: unknown) =>
  fetch(`${catalogue.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body !== undefined && { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const v3 = (token: string, path: string, body?: unknown) =>
  fetch(`${whiteLabel.url}/api/v3/white-label${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      [WHITE_LABEL_TOKEN_HEADER]: token,
      Origin: ORIGIN,
      Accept: 'application/json',
      ...(body !== undefined && { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('the APIs behind PgBouncer in transaction mode', () => {
  let changes: AuthChangePublisher;
  beforeAll(async () => {
    changes = authChangePublisher(testConfig(), (text) => {
      throw new Error(text);
    });
    for (const url of [catalogue.url, whiteLabel.url])
      await eventually(
        async () => expect(await readiness(url)).toEqual({ status: 200, checks: expect.anything() }),
        10_000,
      );
  });
  afterAll(() => changes.close());

  test('when they start with the default statement timeout, then both are ready and their auth caches subscribed', async () => {
    for (const url of [catalogue.url, whiteLabel.url]) {
      // Ready on PostgreSQL alone (an API degrades without Redis, whose connection may still be
      // opening at the first answer); Redis and the auth cache's subscription follow.
      const { status, checks } = await readiness(url);
      expect(status).toBe(200);
      expect(checks.postgres).toBe('ok');
      await eventually(
        async () => expect((await readiness(url)).checks).toMatchObject({ redis: 'ok', auth_cache: 'ok' }),
        5_000,
      );
    }
    // Every connection of the services really goes through the pooler.
    expect(catalogue.deps.config.database.url).toBe(bouncer.url);
  });

  test('when products are imported and listed through the pooler, then the list has them, and the white-label API reads them', async () => {
    const { eshop, apiToken, whiteLabelToken } = await makeEshop(catalogue.deps.db, { origins: [ORIGIN] });
    const items = [1, 2, 3].map((n) => ({ id: `P${n}`, name: { default: `Pooled chair ${n}` } }));

    const imported = await api(apiToken, 'POST', '/api/v2/rest/products', items);
    expect(imported.status).toBe(200);
    expect(await imported.json()).toMatchObject({ success: true, skipped: 0 });
    await adminService(catalogue.deps.db).setItemStatus(eshop.id, 'product', 'P1', 'ready');
    await adminService(catalogue.deps.db).setItemStatus(eshop.id, 'product', 'P2', 'ready');
    await catalogue.deps.db('products').where({ eshop_id: eshop.id }).update({ is_loaded: true });
    const listed = await api(apiToken, 'GET', '/api/v2/rest/products');
    const whoami = await api(apiToken, 'GET', '/api/v2/rest/whoami');
    const credit = await v3(whiteLabelToken, '/credit');
    const registered = await v3(whiteLabelToken, '/register-entity', {
      entity_id: 'P1',
      type: 'product',
      title: 'Pooled chair 1',
    });
    const content = await v3(whiteLabelToken, '/content/P1/type/product');

    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { data: { id: string }[] }).data.map((i) => i.id)).toEqual(['P1', 'P2']);
    expect(whoami.status).toBe(200);
    expect(credit.status).toBe(200);
    expect(registered.status).toBe(201);
    expect(content.status).toBe(200);
    expect(Array.isArray(await content.json())).toBe(true);
  });

  test('when a token in use is revoked through the admin service, then the next requests are refused without waiting for the TTL', async () => {
    const { eshop, apiToken, whiteLabelToken } = await makeEshop(catalogue.deps.db, { origins: [ORIGIN] });
    // Cached on both APIs (AUTH_CACHE_TTL_MS is 60 s).
    expect((await api(apiToken, 'GET', '/api/v2/rest/whoami')).status).toBe(200);
    expect((await v3(whiteLabelToken, '/credit')).status).toBe(200);
    expect((await v3(whiteLabelToken, '/credit')).status).toBe(200);

    const admin = adminService(catalogue.deps.db, { authChanged: changes.authChanged });
    for (const token of await tokensRepository.listForEshop(catalogue.deps.db, eshop.id))
      await admin.revokeToken(eshop.id, token.prefix);

    // The message arrives milliseconds after the commit; 5 s is a twelfth of the 60 s TTL.
    await eventually(
      async () => expect((await api(apiToken, 'GET', '/api/v2/rest/whoami')).status).toBe(401),
      5_000,
    );
    await eventually(async () => expect((await v3(whiteLabelToken, '/credit')).status).toBe(401), 5_000);
  });

  test('when an origin is removed through the admin service, then the white-label API refuses it at once', async () => {
    const { eshop, whiteLabelToken } = await makeEshop(catalogue.deps.db, { origins: [ORIGIN] });
    expect((await v3(whiteLabelToken, '/credit')).status).toBe(200);

    await adminService(catalogue.deps.db, { authChanged: changes.authChanged }).removeOrigin(
      eshop.id,
      ORIGIN,
    );

    await eventually(async () => expect((await v3(whiteLabelToken, '/credit')).status).toBe(403), 5_000);
  });
});

describe('the statement timeout through PgBouncer in transaction mode', () => {
  let db: Knex;
  let direct: pg.Client;
  beforeAll(async () => {
    db = createKnex({
      url: bouncer.url,
      poolMin: 0,
      poolMax: 3,
      statementTimeoutMs: 300,
      applicationName: 'pooled-timeout',
    });
    direct = new pg.Client({ connectionString: directUrl() });
    await direct.connect();
  });
  afterAll(async () => {
    await db.destroy();
    await direct.end();
  });
  /** Statements of `sql` still running on the server (seen on a direct connection). */
  const running = async (sql: string): Promise<number> =>
    (
      await direct.query(
        `select count(*)::int as n from pg_stat_activity where state = 'active' and query = $1 and datname = current_database()`,
        [sql],
      )
    ).rows[0].n;

  test('when a statement outside a transaction runs too long, then the server cancels it and it fails as unavailable', async () => {
    const sql = 'select pg_sleep(20) as outside';
    const err = await db.raw(sql).catch((e: unknown) => e);

    expect(err).toMatchObject({ code: '57014' });
    expect(isDatabaseUnavailable(err)).toBe(true);
    await eventually(async () => expect(await running(sql)).toBe(0), 5_000);
  });

  test('when a statement in a transaction runs too long, then the server ends it (SET LOCAL) and the transaction rolls back', async () => {
    const sql = 'select pg_sleep(20) as inside';
    const err = await db
      .transaction(async (trx) => {
        expect((await trx.raw('show statement_timeout')).rows[0].statement_timeout).toBe('300ms');
        await trx.raw(sql);
      })
      .catch((e: unknown) => e);

    expect(err).toMatchObject({ code: '57014', message: expect.stringContaining('statement timeout') });
    await eventually(async () => expect(await running(sql)).toBe(0), 5_000);
  });

  test("when transactions set the timeout, then it does not leak to the pooler's server connections", async () => {
    for (let i = 0; i < 10; i++) await db.transaction((trx) => trx.raw('select 1'));
    const seen = new Set<string>();
    for (let i = 0; i < 20; i++) seen.add((await db.raw('show statement_timeout')).rows[0].statement_timeout);
    expect([...seen]).toEqual(['0']);
  });

  test('when statements are quick, then they are answered as usual', async () => {
    expect((await db.raw('select ?::int as n', [7])).rows).toEqual([{ n: 7 }]);
    expect(await db.transaction((trx) => trx.raw('select 2 as n').then((r) => r.rows))).toEqual([{ n: 2 }]);
  });
});

describe('migrations and PgBouncer', () => {
  test('when the database exists, then ensureDatabase does not need the maintenance database (which the pooler does not serve)', async () => {
    const maintenance = new pg.Client({ connectionString: bouncer.url.replace(/\/[^/]*$/, '/postgres') });
    const refused = await maintenance.connect().then(
      () => undefined,
      (e: Error) => e,
    );
    await maintenance.end().catch(() => undefined);

    expect(refused).toBeInstanceOf(Error);
    await expect(ensureDatabase(bouncer.url)).resolves.toBe(false);
  });

  test('when DATABASE_MIGRATION_URL is set, then the migration runs there and never on DATABASE_URL', async () => {
    const result = await runNodeScript('libs/content-store/dist/cli/migrate.js', [], {
      PATH: process.env.PATH,
      // Nothing listens on port 1: a migration that touched DATABASE_URL would fail.
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere',
      DATABASE_MIGRATION_URL: directUrl(),
      REDIS_URL: testConfig().redis.url,
      LOG_LEVEL: 'silent',
    });

    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toMatchObject({ created: false, applied: [] });
  });
});
