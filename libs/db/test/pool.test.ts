import { createKnex, isDatabaseUnavailable, poolState, type Knex } from '@catalogue/db';
import { eventually, testConfig } from '@catalogue/testing';

/**
 * The pool's frozen-server guard asks the server whether it answers when a connection is held
 * long; a server that answers is slow, not frozen, and its long statements must carry on.
 * (The frozen case: services/catalogue-api/test/database-frozen.test.ts.)
 */
describe('database pool guards', () => {
  let db: Knex;

  beforeAll(() => {
    db = createKnex({ ...testConfig().database, poolMax: 2, stallCheckMs: 200 });
  });
  afterAll(() => db.destroy());

  test('when a statement runs longer than the stall check on a server that answers, then it completes', async () => {
    const { rows } = await db.raw<{ rows: { done: number }[] }>('select 1 as done from pg_sleep(1.5)');

    expect(rows).toEqual([{ done: 1 }]);
  });

  test('when the server ends a held connection between statements, then the next statement fails and nothing else does', async () => {
    const trx = await db.transaction();
    const { rows } = await trx.raw<{ rows: { pid: number }[] }>('select pg_backend_pid() as pid');
    // The server ends the connection while no statement of it runs (as a server killed during a
    // transaction does): its client emits `error` with no query to hand it to.
    await db.raw('select pg_terminate_backend(?)', [rows[0]!.pid]);
    await new Promise((resolve) => setTimeout(resolve, 300));

    await expect(trx.raw('select 1')).rejects.toThrow();
    await trx.rollback().catch(() => undefined);
    expect((await db.raw<{ rows: { one: number }[] }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  test('when the pool is full and its queue too, then a query fails at once with an error that means "unavailable"', async () => {
    const tiny = createKnex({ ...testConfig().database, poolMax: 1, poolQueueMax: 0 });
    try {
      // A knex query runs when awaited: then() starts it.
      const held = tiny.raw('select pg_sleep(0.5)').then(() => 'done');
      await eventually(() => expect(poolState(tiny)).toMatchObject({ total: 1, idle: 0, waiting: 0 }));

      const refused = await tiny.raw('select 1').then(
        () => undefined,
        (err: unknown) => err,
      );

      expect(refused).toMatchObject({ name: 'PoolQueueFullError' });
      expect(isDatabaseUnavailable(refused)).toBe(true);
      expect(await held).toBe('done');
    } finally {
      await tiny.destroy();
    }
  });

  const refusal = (query: Promise<unknown>) =>
    query.then(
      () => undefined,
      (err: unknown) => err,
    );

  test('when no connection frees up within the queue budget, then the waiting query is refused then as "unavailable"', async () => {
    const tiny = createKnex({ ...testConfig().database, poolMax: 1, poolQueueBudgetMs: 300 });
    try {
      const held = tiny.raw('select pg_sleep(1)').then(() => 'done');
      await eventually(() => expect(poolState(tiny)).toMatchObject({ total: 1, idle: 0, waiting: 0 }));
      const started = Date.now();

      const refused = await refusal(tiny.raw('select 1'));

      expect(refused).toMatchObject({ name: 'PoolQueueFullError', waited: true });
      expect(isDatabaseUnavailable(refused)).toBe(true);
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      expect(Date.now() - started).toBeLessThan(900);
      expect(await held).toBe('done');
      // The connection the refused query would have had went back to the pool.
      expect(await tiny.raw('select 1 as one').then((r: { rows: unknown[] }) => r.rows)).toEqual([
        { one: 1 },
      ]);
    } finally {
      await tiny.destroy();
    }
  });

  test('when the expected wait for a connection is longer than the queue budget, then the query is refused at once', async () => {
    const tiny = createKnex({ ...testConfig().database, poolMax: 1, poolQueueBudgetMs: 300 });
    try {
      // Connections are held about 500 ms each.
      await tiny.raw('select pg_sleep(0.5)');
      const held = tiny.raw('select pg_sleep(0.5)').then(() => 'done');
      await eventually(() => expect(poolState(tiny)).toMatchObject({ total: 1, idle: 0, waiting: 0 }));
      const started = Date.now();

      const refused = await refusal(tiny.raw('select 1'));

      expect(refused).toMatchObject({ name: 'PoolQueueFullError', waited: false });
      expect(Date.now() - started).toBeLessThan(150);
      expect(await held).toBe('done');
    } finally {
      await tiny.destroy();
    }
  });

  test('when a burst of 100 queries meets a pool of 2 on a healthy server, then every one is served', async () => {
    const small = createKnex({
      ...testConfig().database,
      poolMax: 2,
      poolQueueMax: 1_000,
      poolQueueBudgetMs: 3_000,
    });
    try {
      const results = await Promise.allSettled(
        Array.from({ length: 100 }, () => small.raw('select pg_sleep(0.005)')),
      );

      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    } finally {
      await small.destroy();
    }
  });
});

/**
 * Closing a pool while a query is in flight (a request still running when its service stops):
 * the query's answer is delivered, its connection is given back, and the close completes. knex
 * drops its reference to a pool it was given as soon as destroy() starts, and a connection
 * released after that was never given back: pool.end() then waited for it forever.
 */
describe('closing the pool amid a query', () => {
  test('when destroy() is called while a query runs, then the query answers, its connection is given back and destroy() completes', async () => {
    const db = createKnex({ ...testConfig().database, poolMax: 2 });
    // A connection outside the pool holds a lock the pooled query waits for: it is in flight,
    // on the server, for as long as the test wants.
    const holder = createKnex({ ...testConfig().database, poolMax: 1 });
    const key = 424_242;
    const holding = await holder.transaction();
    try {
      await holding.raw('select pg_advisory_xact_lock(?)', [key]);
      const query = db
        .raw<{ rows: { one: number }[] }>('select 1 as one from pg_advisory_xact_lock(?)', [key])
        .then((r) => r.rows);
      // The pooled query waits for the lock on the server (the activity view is read anew: within
      // a transaction it is a snapshot).
      await eventually(async () => {
        await holding.raw('select pg_stat_clear_snapshot()');
        const { rows } = await holding.raw<{ rows: unknown[] }>(
          `select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like '%pg_advisory_xact_lock%' and pid <> pg_backend_pid()`,
        );
        expect(rows.length).toBeGreaterThan(0);
      });
      expect(poolState(db)).toEqual({ total: 1, idle: 0, waiting: 0 });

      const closing = db.destroy().then(() => 'closed');
      await holding.commit();

      expect(await query).toEqual([{ one: 1 }]);
      // A close that never completes is the failure: bounded so the test says so.
      const bound = new Promise((r) => setTimeout(() => r('still open'), 10_000).unref());
      expect(await Promise.race([closing, bound])).toBe('closed');
      expect(poolState(db)).toEqual({ total: 0, idle: 0, waiting: 0 });
      // A query asked for after the close is refused, not left waiting.
      await expect(db.raw('select 1')).rejects.toThrow();
    } finally {
      if (!holding.isCompleted()) await holding.rollback();
      await holder.destroy();
    }
  });
});
