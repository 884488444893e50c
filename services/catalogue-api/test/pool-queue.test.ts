import { createKnex, poolState, type Knex } from '@catalogue/db';
import { eventually } from '@catalogue/testing';
import { catalogueService } from './helpers';

const POOL_MAX = 2;
const QUEUE_MAX = 1;
const IMPORT = '/api/v2/rest/products';
const product = (id: string) => [{ id, name: { default: `Product ${id}` } }];

async function until(what: string, check: () => Promise<boolean> | boolean, ms = 15_000): Promise<void> {
  await eventually(async () => {
    if (!(await check())) throw new Error(`not within ${ms} ms: ${what}`);
  }, ms);
}

/**
 * The bounded queue in front of the database pool: with every connection held and
 * DATABASE_POOL_QUEUE_MAX requests already waiting for one, the next request is answered 503
 * with Retry-After at once (while the others still wait) and counted as shed; the held and the
 * queued requests are served when the connections come back.
 */
describe('catalogue-api: a bounded queue for database connections', () => {
  const svc = catalogueService({
    DATABASE_POOL_MAX: String(POOL_MAX),
    DATABASE_POOL_QUEUE_MAX: String(QUEUE_MAX),
  });
  let locker: Knex;

  beforeAll(() => {
    locker = createKnex({ url: svc.deps.config.database.url, poolMin: 0, poolMax: 1, statementTimeoutMs: 0 });
  });
  afterAll(() => locker.destroy());

  test(`when ${POOL_MAX} imports hold the pool and ${QUEUE_MAX} waits, then one more is answered 503 at once and the others succeed`, async () => {
    // Arrange: imports are slow because a transaction of the test holds a lock they need: the
    // eshop's event counter, which every import that changes something takes last (only this
    // eshop's writes wait, so test files running beside this one are not held).
    const { api, eshop } = await svc.eshop();
    expect((await api.post(IMPORT, product('WARM'))).status).toBe(200);
    const trx = await locker.transaction();
    const slow: Promise<{ status: number }>[] = [];
    try {
      const locked = await trx('event_sequences')
        .where({ eshop_id: eshop.id })
        .forUpdate()
        .select('eshop_id');
      expect(locked).toHaveLength(1);
      // Sessions waiting for a lock this transaction holds (the first import; the second may
      // wait behind the first).
      const blocked = async () => {
        // A transaction reads the activity statistics once and keeps them: read them afresh.
        await trx.raw('select pg_stat_clear_snapshot()');
        const { rows } = await trx.raw<{ rows: { n: number }[] }>(
          'select count(*)::int as n from pg_stat_activity where pg_backend_pid() = any(pg_blocking_pids(pid))',
        );
        return rows[0]!.n;
      };
      const held = () => {
        const pool = poolState(svc.deps.db);
        return pool.total === POOL_MAX && pool.idle === 0;
      };
      for (let i = 0; i < POOL_MAX; i++) slow.push(api.post(IMPORT, product(`HELD-${i}`)));
      await until(
        `${POOL_MAX} imports holding the pool, one waiting for the lock`,
        async () => held() && (await blocked()) >= 1,
      );
      slow.push(api.post(IMPORT, product('QUEUED')));
      await until(
        `${QUEUE_MAX} import waiting for a connection`,
        () => poolState(svc.deps.db).waiting === QUEUE_MAX,
      );

      // Act: one more than the pool and its queue take.
      const shed = await api.post(IMPORT, product('SHED'));

      // Assert: refused while the others still wait (so at once, not after a timeout).
      expect(shed.status).toBe(503);
      expect(shed.headers.get('retry-after')).toBe('5');
      expect(shed.body).toEqual({ error: 'The server is busy; try again shortly.', code: 'unavailable' });
      // Refused at the door, before authentication: a request without a token, which would
      // otherwise be a 401 that needs no connection.
      const unknown = await fetch(`${svc.url}${IMPORT}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(product('UNKNOWN')),
      });
      expect(unknown.status).toBe(503);
      expect(unknown.headers.get('retry-after')).toBe('5');
      expect(await blocked()).toBeGreaterThanOrEqual(1);
      expect(held()).toBe(true);
      expect(poolState(svc.deps.db).waiting).toBe(QUEUE_MAX);
    } finally {
      await trx.rollback();
    }
    expect((await Promise.all(slow)).map((r) => r.status)).toEqual([200, 200, 200]);
    const stored = await svc.deps
      .db('products')
      .where({ eshop_id: eshop.id })
      .orderBy('external_id')
      .pluck('external_id');
    expect(stored).toEqual(['HELD-0', 'HELD-1', 'QUEUED', 'WARM']);
    const metrics = await (await fetch(`${svc.url}/metrics`)).text();
    expect(metrics).toContain('http_requests_shed_total{reason="database_queue"} 2');
  }, 60_000);
});

/**
 * The pool's wait budget: a request admitted at the door (its expected wait was short) that then
 * waits the whole budget without a connection is answered 503 with Retry-After then, and counted
 * apart from the refusals at once (`database_wait`): the client waited for nothing.
 */
describe('catalogue-api: a request that waited the pool budget', () => {
  const BUDGET_MS = 400;
  const svc = catalogueService({ DATABASE_POOL_MAX: '1', DATABASE_POOL_QUEUE_BUDGET_MS: String(BUDGET_MS) });
  let locker: Knex;

  beforeAll(() => {
    locker = createKnex({ url: svc.deps.config.database.url, poolMin: 0, poolMax: 1, statementTimeoutMs: 0 });
  });
  afterAll(() => locker.destroy());

  test('when the one connection is held past the budget, then a waiting import is answered 503 after the budget and counted as database_wait', async () => {
    const { api, eshop } = await svc.eshop();
    expect((await api.post(IMPORT, product('WARM'))).status).toBe(200);
    const trx = await locker.transaction();
    let held: Promise<{ status: number }> | undefined;
    try {
      await trx('event_sequences').where({ eshop_id: eshop.id }).forUpdate().select('eshop_id');
      held = api.post(IMPORT, product('HELD'));
      await until('the import holding the one connection', () => {
        const pool = poolState(svc.deps.db);
        return pool.total === 1 && pool.idle === 0;
      });
      const started = Date.now();

      const waited = await api.post(IMPORT, product('WAITED'));

      expect(waited.status).toBe(503);
      expect(waited.headers.get('retry-after')).toBe('5');
      expect(waited.body).toEqual({ error: 'The server is busy; try again shortly.', code: 'unavailable' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(BUDGET_MS - 50);
    } finally {
      await trx.rollback();
    }
    expect((await held)?.status).toBe(200);
    const metrics = await (await fetch(`${svc.url}/metrics`)).text();
    expect(metrics).toContain('http_requests_shed_total{reason="database_wait"} 1');
    expect(metrics).not.toContain('http_requests_shed_total{reason="database_queue"}');
    const stored = await svc.deps
      .db('products')
      .where({ eshop_id: eshop.id })
      .orderBy('external_id')
      .pluck('external_id');
    expect(stored).toEqual(['HELD', 'WARM']);
  }, 60_000);
});
