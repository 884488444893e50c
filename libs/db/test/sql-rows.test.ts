// Rows knex cannot type are checked by the columns the caller names (libs/db/src/sql-rows.ts):
// a column renamed in SQL text fails at the read, naming it, instead of travelling on as undefined.
import { checkedOne, checkedRow, checkedRows, countOf } from '../src/sql-rows';

describe('checked rows', () => {
  test('when every row carries the named columns, then the rows are returned as they are', () => {
    const rows = [
      { id: 1, seq: 2 },
      { id: 3, seq: null },
    ];
    expect(checkedRows<{ id: number; seq: number | null }>(rows, ['id', 'seq'])).toBe(rows);
    expect(checkedRow<{ id: number }>(undefined, ['id'])).toBeUndefined();
  });

  test('when a row lacks a named column, then the read throws naming the column', () => {
    expect(() =>
      checkedRows<{ id: number; seq: number }>([{ id: 1, seq: 2 }, { id: 3 }], ['id', 'seq']),
    ).toThrow('the database returned no column "seq"');
    expect(() => checkedOne<{ id: number }>(undefined, ['id'])).toThrow('expected a row from the database');
  });

  test('when a count read returns its row, then countOf gives the count; no row, 0; no count column, it throws', () => {
    expect(countOf({ count: 42 })).toBe(42);
    expect(countOf(undefined)).toBe(0);
    expect(() => countOf({ total: 42 })).toThrow('the database returned no column "count"');
  });
});
