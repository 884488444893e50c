import { copyRows, createKnex, isDatabaseUnavailable, parseBinaryCopy, type Knex } from '@catalogue/db';
import { testConfig } from '@catalogue/testing';

/**
 * Rows read as bytes by COPY … TO STDOUT (FORMAT binary) (copy-rows.ts): the list's pieces reach
 * Node undecoded. The values must be the bytes the server holds, the statement timeout must
 * still stop a long COPY, and the connection must go back to the pool usable.
 */
describe('rows as bytes by binary COPY', () => {
  let db: Knex;

  beforeAll(() => {
    db = createKnex({ ...testConfig().database, poolMax: 1, statementTimeoutMs: 1_000 });
  });
  afterAll(() => db.destroy());

  test('when text, booleans and nulls are copied, then each value is its UTF-8 bytes, one byte per boolean, null for NULL', async () => {
    const text = 'Žluťoučký kůň \u0001 "úpěl" \\ \n\t {"a":[1]}';

    const rows = await copyRows(
      db,
      db.raw(`select ?::text, true, false, null::text, ''::text`, [text]).toString(),
    );

    expect(rows).toHaveLength(1);
    const [value, yes, no, missing, empty] = rows[0]!;
    expect(value!.equals(Buffer.from(text))).toBe(true);
    expect([...yes!]).toEqual([1]);
    expect([...no!]).toEqual([0]);
    expect(missing).toBeNull();
    expect(empty!.length).toBe(0);
  });

  test('when many rows of large values are copied, then they come back whole and in order', async () => {
    const rows = await copyRows(
      db,
      `select n, repeat('ř' || n::text, 20000) from generate_series(1, 50) as n order by n`,
    );

    expect(rows).toHaveLength(50);
    rows.forEach(([n, big], i) => {
      expect(n!.readInt32BE(0)).toBe(i + 1);
      expect(big!.equals(Buffer.from(`ř${i + 1}`.repeat(20000)))).toBe(true);
    });
  });

  test('when the server sends notices among the rows, then every row still comes back whole', async () => {
    // A notice per row, interleaved with the CopyData messages (the pool has one connection: the
    // session's temporary function is there for the COPY).
    await db.raw(`create or replace function pg_temp.noisy(n int) returns int language plpgsql as $$
      begin raise notice 'row %', n; return n; end $$`);

    const rows = await copyRows(
      db,
      `select pg_temp.noisy(n), repeat('ž' || n::text, 5000) from generate_series(1, 30) as n order by n`,
    );

    expect(rows).toHaveLength(30);
    rows.forEach(([n, big], i) => {
      expect(n!.readInt32BE(0)).toBe(i + 1);
      expect(big!.equals(Buffer.from(`ž${i + 1}`.repeat(5000)))).toBe(true);
    });
    expect((await copyRows(db, 'select 7'))[0]![0]!.readInt32BE(0)).toBe(7);
  });

  test('when a COPY outlives the statement timeout, then it is cancelled as unavailable and the connection serves the next query', async () => {
    const err = await copyRows(db, 'select pg_sleep(20)').catch((e: unknown) => e);

    expect(err).toMatchObject({ code: '57014' });
    expect(isDatabaseUnavailable(err)).toBe(true);
    const again = await copyRows(db, 'select 42');
    expect(again[0]![0]!.readInt32BE(0)).toBe(42);
  });

  test('when a COPY has ended, then no timer is left holding it and its bytes', async () => {
    // The pool's query_timeout (statement timeout + slack: 3 s here, 32 s with the default
    // settings) arms a timer per query that only the query's end clears; a COPY that never ended
    // it held every page it read until the timer ran out.
    const setTimer = jest.spyOn(global, 'setTimeout');
    const clearTimer = jest.spyOn(global, 'clearTimeout');
    try {
      for (let i = 0; i < 3; i++) await copyRows(db, `select repeat('x', 100000)`);

      const readTimeouts = setTimer.mock.results
        .filter((_result, i) => setTimer.mock.calls[i]![1] === 3_000)
        .map((result) => result.value as unknown);
      const cleared = new Set(clearTimer.mock.calls.map(([timer]) => timer as unknown));
      expect(readTimeouts.length).toBeGreaterThanOrEqual(3);
      expect(readTimeouts.filter((timer) => !cleared.has(timer))).toEqual([]);
    } finally {
      setTimer.mockRestore();
      clearTimer.mockRestore();
    }
  });

  test('when the bytes are not a binary COPY or are cut short, then parsing fails instead of inventing rows', () => {
    expect(() => parseBinaryCopy(Buffer.from('1\tabc\n'))).toThrow(/signature/);
    const header = Buffer.from('PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0', 'latin1');
    const cut = Buffer.concat([header, Buffer.from([0, 1, 0, 0, 0, 10]), Buffer.from('abc')]);
    expect(() => parseBinaryCopy(cut)).toThrow(/cut short/);
  });
});
