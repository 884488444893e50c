// runNumbered (libs/db/src/sql-rows.ts): a statement that numbers its own parameters runs through
// knex with its values handed to node-postgres as they are, inside the caller's transaction.
import { createKnex, type Knex } from '@catalogue/db';
import { testConfig } from '@catalogue/testing';
import { runNumbered } from '../src/sql-rows';

let db: Knex;
beforeAll(() => {
  db = createKnex(testConfig().database);
});
afterAll(() => db.destroy());

describe('runNumbered', () => {
  test('when values hold text with ? and $1, nulls and an array, then each reaches its own parameter unchanged', async () => {
    const values = ['a ? b $1', null, [3, 1, 2], '{"x": "?"}'];
    const sent: { sql: string }[] = [];
    const listen = (query: { sql: string }) => sent.push(query);
    db.on('query', listen);
    try {
      const result = await runNumbered(
        db,
        'select $1::text as t, $2::text as n, $3::int[] as ids, $4::jsonb as j',
        values,
      );
      expect(result.rows).toEqual([{ t: 'a ? b $1', n: null, ids: [3, 1, 2], j: { x: '?' } }]);
      expect(result.rowCount).toBe(1);
    } finally {
      db.off('query', listen);
    }
    expect(sent.map((q) => q.sql)).toEqual([
      'select $1::text as t, $2::text as n, $3::int[] as ids, $4::jsonb as j',
    ]);
  });

  test("when it runs in a transaction, then it runs on the transaction's connection and sees its changes", async () => {
    const seen = await db.transaction(async (trx) => {
      await trx.raw("select set_config('ccs.probe', 'in the transaction', true)");
      return runNumbered(trx, 'select current_setting($1, true) as v', ['ccs.probe']);
    });
    expect(seen.rows).toEqual([{ v: 'in the transaction' }]);
  });

  test('when the statement fails, then the error carries its text before the server message, as knex gives it', async () => {
    await expect(runNumbered(db, 'select $1::int as n', ['not a number'])).rejects.toThrow(
      'select $1::int as n - invalid input syntax for type integer: "not a number"',
    );
  });
});
