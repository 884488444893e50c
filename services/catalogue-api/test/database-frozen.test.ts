import { eventually } from '@catalogue/testing';
import { catalogueOnPrivatePostgres, type ApiResponse } from './helpers';

const LIST = '/api/v2/rest/products?page=1&per_page=10';
/**
 * What a frozen server cost a request before the guard: the statement timeout (30 s, the
 * default kept here) and the client's 2 s beyond it. The guard's bound is the connect timeout
 * (5 s) or the stall check (2 s) plus its probe (2 s); the limit below is half the old cost, so a
 * busy machine does not break the test and a request held to the old bound still fails it.
 */
const OLD_COST_MS = 32_000;
const LIMIT_MS = OLD_COST_MS / 2;

async function timed(call: () => Promise<ApiResponse>): Promise<{ res: ApiResponse; ms: number }> {
  const started = Date.now();
  const res = await call();
  return { res, ms: Date.now() - started };
}

/**
 * PostgreSQL frozen (SIGSTOP: its connections stay open, nothing answers) under the catalogue API
 * with the default statement timeout: requests answer 503 within the configured bound, not after
 * the 32 s the client-side query timeout alone allows, and the service serves again once the
 * server carries on.
 */
describe('catalogue-api when PostgreSQL freezes (default statement timeout)', () => {
  const app = catalogueOnPrivatePostgres({
    DATABASE_POOL_MAX: '2',
    DATABASE_STATEMENT_TIMEOUT_MS: '30000',
    DATABASE_CONNECT_TIMEOUT_MS: '5000',
    DATABASE_STALL_CHECK_MS: '2000',
  });

  const expectUnavailable = ({ res, ms }: { res: ApiResponse; ms: number }): void => {
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.body).toMatchObject({ code: 'unavailable' });
    expect(ms).toBeLessThan(LIMIT_MS);
  };

  test('when PostgreSQL is frozen, then a list and an import answer 503 within the bound, the import stores nothing, and after SIGCONT both succeed', async () => {
    // Arrange: the pool holds open connections to the server (the case the old bound missed).
    expect((await app.api.get(LIST)).status).toBe(200);
    expect(
      (await app.api.post('/api/v2/rest/products', [{ id: 'BEFORE', name: { default: 'Before' } }])).status,
    ).toBe(200);

    app.pg.freeze();
    try {
      // Act + Assert: each request alone, then both at once.
      expectUnavailable(await timed(() => app.api.get(LIST)));
      expectUnavailable(
        await timed(() =>
          app.api.post('/api/v2/rest/products', [{ id: 'FROZEN', name: { default: 'Frozen' } }]),
        ),
      );
      const both = await Promise.all([
        timed(() => app.api.get(LIST)),
        timed(() => app.api.post('/api/v2/rest/products', [{ id: 'FROZEN', name: { default: 'Frozen' } }])),
      ]);
      for (const answer of both) expectUnavailable(answer);
      const ready = await fetch(`${app.server.url}/readyz`);
      expect(ready.status).toBe(503);
    } finally {
      app.pg.thaw();
    }

    // The server carries on: requests succeed again (the first may still meet a connection
    // closed under it while frozen, so a few tries).
    await eventually(async () => expect((await app.api.get(LIST)).status).toBe(200), 20_000);
    const after = await app.api.post('/api/v2/rest/products', [{ id: 'AFTER', name: { default: 'After' } }]);
    expect(after.status).toBe(200);
    // The imports answered 503 changed nothing: their transactions died with their connections.
    const ids = await app.deps.db('products').orderBy('external_id').pluck('external_id');
    expect(ids).toEqual(['AFTER', 'BEFORE']);
  }, 90_000);
});
