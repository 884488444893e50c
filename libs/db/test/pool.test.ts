import { createKnex, isDatabaseUnavailable, poolState, type Knex } from '@catalogue/db';
import { testConfig } from '@catalogue/testing';

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

  test('when the pool is full and its queue too, then a query fails at once with an error that means "unavailable"', async () => {
    const tiny = createKnex({ ...testConfig().database, poolMax: 1, poolQueueMax: 0 });
    try {
      // A knex query runs when awaited: then() starts it.
      const held = tiny.raw('select pg_sleep(0.5)').then(() => 'done');
      await new Promise((r) => setTimeout(r, 100));
      expect(poolState(tiny)).toMatchObject({ total: 1, idle: 0, waiting: 0 });

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
});
