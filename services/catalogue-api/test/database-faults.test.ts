import { eventually } from '@catalogue/testing';
import { catalogueOnPrivatePostgres } from './helpers';

const LIST = '/api/v2/rest/products?page=1&per_page=10';

/**
 * PostgreSQL stopped, crashed and frozen under the catalogue API (a private server, so the
 * shared one is never touched): every request ends, within the configured bounds, as 503 with
 * Retry-After and code `unavailable` — never 500, never a request hanging on a dead socket.
 */
describe('catalogue-api when PostgreSQL fails', () => {
  const app = catalogueOnPrivatePostgres({
    DATABASE_POOL_MAX: '2',
    DATABASE_STATEMENT_TIMEOUT_MS: '1000',
    DATABASE_CONNECT_TIMEOUT_MS: '1000',
    HTTP_MAX_CONCURRENT_REQUESTS: '2',
  });

  const expectUnavailable = (res: { status: number; body: unknown; headers: Headers }): void => {
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.body).toMatchObject({ code: 'unavailable' });
  };

  test('when PostgreSQL answers, then the list is served', async () => {
    expect((await app.api.get(LIST)).status).toBe(200);
  });

  test('when PostgreSQL is frozen (connections open, nothing answers), then 503 instead of a hanging request', async () => {
    app.pg.freeze();
    try {
      expectUnavailable(await app.api.get(LIST));
    } finally {
      app.pg.thaw();
    }
  });

  test('when more requests arrive than the process takes at once, then the extra ones get 503 at once', async () => {
    app.pg.freeze();
    try {
      // Two requests hold the two slots (each waits for the frozen database); the third is shed.
      const results = await Promise.all([app.api.get(LIST), app.api.get(LIST), app.api.get(LIST)]);
      for (const res of results) expectUnavailable(res);
      expect(results.map((r) => (r.body as { error: string }).error)).toContain(
        'The server is busy; try again shortly.',
      );
    } finally {
      app.pg.thaw();
    }
    // The slots are free again once the held requests ended. The pool gets its connections
    // back as the thawed server closes the ones the stall check ended, which can take longer
    // than this test's 1 s connect timeout on a busy machine (seen once in CI: one 503 first).
    await eventually(async () => expect((await app.api.get(LIST)).status).toBe(200), 15_000);
  });

  test('when PostgreSQL is down, then 503 with Retry-After; when it is back, then 200 again', async () => {
    await app.pg.kill();
    expectUnavailable(await app.api.get(LIST));
    await app.pg.start();
    const deadline = Date.now() + 15_000;
    let status = 0;
    while (status !== 200 && Date.now() < deadline) status = (await app.api.get(LIST)).status;
    expect(status).toBe(200);
  });
});
