// The outbox's numbering, whatever calls it: each eshop's events are 1, 2, 3… in commit order,
// a rolled-back transaction takes no number, and concurrent writers never share or skip one.
import { createKnex, eventsRepository, type Knex, type NewEvent } from '@catalogue/db';
import { makeEshop, testConfig } from '@catalogue/testing';

const CHECK_VIOLATION = '23514';

let db: Knex;
beforeAll(() => {
  // Room for the concurrent writers below.
  db = createKnex({ ...testConfig().database, poolMax: 12 });
});
afterAll(() => db.destroy());

const updated = (externalId: string): NewEvent => ({
  type: 'item.updated',
  entityType: 'product',
  externalId,
});

async function seqs(eshopId: number): Promise<number[]> {
  const rows = await db('events').where({ eshop_id: eshopId }).orderBy('seq').select('seq');
  return rows.map((r) => r.seq);
}

describe('eventsRepository', () => {
  test('when events are appended, then they are numbered from 1 in the order given and read back after a number', async () => {
    const { eshop } = await makeEshop(db);

    await db.transaction((trx) =>
      eventsRepository.append(trx, eshop.id, [
        updated('A'),
        { type: 'item.deleted', entityType: 'brand', externalId: 'B', data: { why: 'test' } },
      ]),
    );
    await db.transaction((trx) => eventsRepository.append(trx, eshop.id, [updated('C')]));

    const all = await eventsRepository.listAfter(db, eshop.id, 0, 10);
    expect(all.map((e) => [e.seq, e.type, e.entityType, e.externalId, e.data])).toEqual([
      [1, 'item.updated', 'product', 'A', {}],
      [2, 'item.deleted', 'brand', 'B', { why: 'test' }],
      [3, 'item.updated', 'product', 'C', {}],
    ]);
    expect(all[0]!.occurredAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect((await eventsRepository.listAfter(db, eshop.id, 1, 1)).map((e) => e.seq)).toEqual([2]);
    expect(await eventsRepository.listAfter(db, eshop.id, 3, 10)).toEqual([]);
  });

  test('when the transaction that appended events rolls back, then neither the events nor their numbers remain', async () => {
    const { eshop } = await makeEshop(db);
    await db.transaction((trx) => eventsRepository.append(trx, eshop.id, [updated('A')]));

    await expect(
      db.transaction(async (trx) => {
        await eventsRepository.append(trx, eshop.id, [updated('B'), updated('C')]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await db.transaction((trx) => eventsRepository.append(trx, eshop.id, [updated('D')]));

    expect(await seqs(eshop.id)).toEqual([1, 2]);
    expect((await eventsRepository.listAfter(db, eshop.id, 0, 10)).map((e) => e.externalId)).toEqual([
      'A',
      'D',
    ]);
  });

  test('when two eshops append, then each has its own sequence and reads only its own events', async () => {
    const a = await makeEshop(db);
    const b = await makeEshop(db);

    await db.transaction((trx) => eventsRepository.append(trx, a.eshop.id, [updated('A1')]));
    await db.transaction((trx) => eventsRepository.append(trx, b.eshop.id, [updated('B1'), updated('B2')]));
    await db.transaction((trx) => eventsRepository.append(trx, a.eshop.id, [updated('A2')]));

    expect(await seqs(a.eshop.id)).toEqual([1, 2]);
    expect(await seqs(b.eshop.id)).toEqual([1, 2]);
    expect((await eventsRepository.listAfter(db, a.eshop.id, 0, 10)).map((e) => e.externalId)).toEqual([
      'A1',
      'A2',
    ]);
  });

  test('when many transactions append concurrently, some rolling back, then the committed events are numbered 1..N without gaps or duplicates, in commit order', async () => {
    const { eshop } = await makeEshop(db);
    const writers = 40;

    const results = await Promise.allSettled(
      Array.from({ length: writers }, (_, w) =>
        db.transaction(async (trx) => {
          await eventsRepository.append(
            trx,
            eshop.id,
            Array.from({ length: 13 }, (_, i) => updated(`W${w}-${i}`)),
          );
          // Work after the append, as a writer may: the transactions overlap, their events wait.
          await trx.raw('select pg_sleep(0.005)');
          await eventsRepository.append(
            trx,
            eshop.id,
            Array.from({ length: 12 }, (_, i) => updated(`W${w}-${i + 13}`)),
          );
          if (w % 5 === 0) throw new Error('rolled back');
        }),
      ),
    );

    const committed = results.filter((r) => r.status === 'fulfilled');
    expect(committed).toHaveLength(writers - writers / 5);
    const total = committed.length * 25;
    expect(await seqs(eshop.id)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    // Each writer's events are consecutive, in the order it gave them.
    const events = await eventsRepository.listAfter(db, eshop.id, 0, total);
    for (let start = 0; start < total; start += 25) {
      const writer = events[start]!.externalId.split('-')[0];
      expect(events.slice(start, start + 25).map((e) => e.externalId)).toEqual(
        Array.from({ length: 25 }, (_, i) => `${writer}-${i}`),
      );
    }
    const counter = await db('event_sequences').where({ eshop_id: eshop.id }).first();
    expect(counter?.last_seq).toBe(total);
  });

  test('when a writer stays in its transaction after appending, then another writer of the eshop commits meanwhile, and the numbers follow the commits', async () => {
    const { eshop } = await makeEshop(db);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let appended!: () => void;
    const firstAppended = new Promise<void>((resolve) => (appended = resolve));
    const slow = db.transaction(async (trx) => {
      await eventsRepository.append(trx, eshop.id, [updated('SLOW')]);
      appended();
      await held;
    });
    await firstAppended;

    // The fast writer does not wait for the slow one (which still holds its transaction open).
    const started = Date.now();
    await db.transaction((trx) => eventsRepository.append(trx, eshop.id, [updated('FAST')]));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect((await eventsRepository.listAfter(db, eshop.id, 0, 10)).map((e) => [e.seq, e.externalId])).toEqual(
      [[1, 'FAST']],
    );
    release();
    await slow;

    expect((await eventsRepository.listAfter(db, eshop.id, 0, 10)).map((e) => [e.seq, e.externalId])).toEqual(
      [
        [1, 'FAST'],
        [2, 'SLOW'],
      ],
    );
    expect(await eventsRepository.newest(db, eshop.id)).toBe(2);
  });

  test('when an event carries more than 1 KiB of data, then the table refuses it', async () => {
    const { eshop } = await makeEshop(db);

    const append = db.transaction((trx) =>
      eventsRepository.append(trx, eshop.id, [{ ...updated('A'), data: { html: 'x'.repeat(1100) } }]),
    );

    await expect(append).rejects.toMatchObject({ code: CHECK_VIOLATION, constraint: 'events_data_small' });
    expect(await seqs(eshop.id)).toEqual([]);
  });
});
