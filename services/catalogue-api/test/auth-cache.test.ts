// The auth cache across replicas: two catalogue-api processes' worth of deps on the same
// database, each keeping tokens' eshops in memory, emptied by the Redis message the admin
// service publishes after every change to the token and eshop tables (libs/http auth-cache.ts).
import { adminService, authChangePublisher, type AuthChangePublisher } from '@catalogue/admin';
import { hashToken, tokensRepository } from '@catalogue/db';
import {
  eventually,
  makeEshop,
  serveServiceForTests,
  startPrivateRedis,
  testConfig,
  type DisposableRedis,
} from '@catalogue/testing';
import { catalogueApi } from '../src/service';

describe('catalogue-api: the auth cache across replicas', () => {
  const a = serveServiceForTests(catalogueApi);
  const b = serveServiceForTests(catalogueApi);
  const replicas = [a, b];
  let changes: AuthChangePublisher;
  /** The operators' path: the admin service, telling the caches through Redis. */
  const admin = () => adminService(a.deps.db, { authChanged: changes.authChanged });

  const whoami = async (url: string, token: string): Promise<number> =>
    (await fetch(`${url}/api/v2/rest/whoami`, { headers: { Authorization: `Bearer ${token}` } })).status;
  const cacheState = async (url: string): Promise<string> =>
    ((await (await fetch(`${url}/readyz`)).json()) as { checks: Record<string, string> }).checks.auth_cache!;

  /** Token lookups a replica sends to Postgres while `run` runs. */
  async function tokenQueries(
    replica: (typeof replicas)[number],
    run: () => Promise<unknown>,
  ): Promise<number> {
    let count = 0;
    const listener = (q: { sql: string }) => void (/_tokens"\."token_hash"/.test(q.sql) && count++);
    replica.deps.db.on('query', listener);
    try {
      await run();
    } finally {
      replica.deps.db.off('query', listener);
    }
    return count;
  }

  beforeAll(async () => {
    changes = authChangePublisher(testConfig(), (text) => {
      throw new Error(text);
    });
    for (const replica of replicas)
      await eventually(async () => expect(await cacheState(replica.url)).toBe('ok'), 5_000);
  });

  afterAll(() => changes.close());

  async function revokeAll(eshopId: number): Promise<void> {
    const tokens = await tokensRepository.listForEshop(a.deps.db, eshopId);
    for (const t of tokens) await admin().revokeToken(eshopId, t.prefix);
  }

  test('when a token is used again, then the replica answers from memory without asking Postgres', async () => {
    const { eshop, apiToken } = await makeEshop(a.deps.db);
    expect(await whoami(a.url, apiToken)).toBe(200);

    // The test database is shared by every test file, and any file's eshop or token write empties
    // the cache (that is its job): so the claim is that five uses in a row can go without a query.
    await eventually(async () => {
      const queries = await tokenQueries(a, async () => {
        for (let i = 0; i < 5; i++) expect(await whoami(a.url, apiToken)).toBe(200);
      });
      expect(queries).toBe(0);
    }, 10_000);
    expect(eshop.id).toBeGreaterThan(0);
  });

  test('when a token both replicas hold is revoked, then both refuse it as soon as the change is committed', async () => {
    const { eshop, apiToken } = await makeEshop(a.deps.db);
    for (const r of replicas) expect(await whoami(r.url, apiToken)).toBe(200);

    await revokeAll(eshop.id);

    // The message arrives milliseconds after the commit; the TTL (60 s) is not what ends it.
    for (const r of replicas)
      await eventually(async () => expect(await whoami(r.url, apiToken)).toBe(401), 1_000);
  });

  test('when a revocation is rolled back, then the token keeps working', async () => {
    const { eshop, apiToken } = await makeEshop(a.deps.db);
    expect(await whoami(a.url, apiToken)).toBe(200);
    const [token] = await tokensRepository.listForEshop(a.deps.db, eshop.id);

    await a.deps.db
      .transaction(async (trx) => {
        await tokensRepository.revoke(trx, eshop.id, token!.kind, token!.id);
        throw new Error('roll back');
      })
      .catch(() => undefined);

    // Kept in memory, and as read anew from the database once a committed change empties the
    // cache (it arrives after anything the rolled-back revocation could have sent).
    expect(await whoami(a.url, apiToken)).toBe(200);
    await changes.authChanged('api_tokens');
    await eventually(async () => {
      let status = 0;
      const queries = await tokenQueries(a, async () => (status = await whoami(a.url, apiToken)));
      expect(queries).toBe(1);
      expect(status).toBe(200);
    }, 5_000);
  });

  test('when a token is unknown and then issued, then it works at once (refusals are not kept)', async () => {
    const { eshop } = await makeEshop(a.deps.db);
    const token = `cat_${'x'.repeat(40)}-${eshop.id}`;
    expect(await whoami(a.url, token)).toBe(401);

    await tokensRepository.insert(a.deps.db, eshop.id, 'api', {
      hash: hashToken(token),
      prefix: token.slice(0, 12),
    });

    expect(await whoami(a.url, token)).toBe(200);
  });

  test('when an eshop is changed, then the replicas read it again', async () => {
    const { eshop, apiToken } = await makeEshop(a.deps.db);
    expect(await whoami(b.url, apiToken)).toBe(200);

    await admin().updateEshop(eshop.id, { rateLimitPerMinute: 1 });

    await eventually(async () => {
      const queries = await tokenQueries(b, () => whoami(b.url, apiToken));
      expect(queries).toBe(1);
    }, 1_000);
  });
});

describe('catalogue-api: the auth cache while its Redis is down', () => {
  let redis: DisposableRedis;
  const overrides: Record<string, string> = {};
  beforeAll(async () => {
    redis = await startPrivateRedis();
    overrides.REDIS_URL = redis.url;
  });
  afterAll(() => redis.stop());
  const replica = serveServiceForTests(catalogueApi, overrides);

  const whoami = async (token: string): Promise<number> =>
    (await fetch(`${replica.url}/api/v2/rest/whoami`, { headers: { Authorization: `Bearer ${token}` } }))
      .status;
  const cacheState = async (): Promise<string> =>
    ((await (await fetch(`${replica.url}/readyz`)).json()) as { checks: Record<string, string> }).checks
      .auth_cache!;
  async function tokenQueries(run: () => Promise<unknown>): Promise<number> {
    let count = 0;
    const listener = (q: { sql: string }) => void (/_tokens"\."token_hash"/.test(q.sql) && count++);
    replica.deps.db.on('query', listener);
    try {
      await run();
    } finally {
      replica.deps.db.off('query', listener);
    }
    return count;
  }

  test('when the invalidation channel is lost, then readiness says so and every request reads Postgres until it is back', async () => {
    await eventually(async () => expect(await cacheState()).toBe('ok'), 5_000);
    const { eshop, apiToken } = await makeEshop(replica.deps.db);
    expect(await whoami(apiToken)).toBe(200);

    await redis.stop();
    await eventually(async () => expect(await cacheState()).toBe('off'), 5_000);
    const blind = await tokenQueries(() => whoami(apiToken));
    // Nobody can tell the replica now: the change is made without the admin service's message.
    const [token] = await tokensRepository.listForEshop(replica.deps.db, eshop.id);
    await tokensRepository.revoke(replica.deps.db, eshop.id, token!.kind, token!.id);
    const refused = await whoami(apiToken);

    expect(blind).toBe(1);
    expect(refused).toBe(401);
    await redis.restart();
    await eventually(async () => expect(await cacheState()).toBe('ok'), 10_000);
  });
});
