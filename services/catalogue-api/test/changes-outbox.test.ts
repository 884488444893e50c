// The change feed's guarantees under failure and concurrency: events exist exactly when their
// change committed, and each eshop's are numbered 1..N without gaps or duplicates however many
// requests write at once.
import { catalogueService, type Client } from './helpers';

describe('catalogue-api: events are written with the change', () => {
  const svc = catalogueService();

  const named = (id: string, name = `Item ${id}`) => ({ id, name: { default: name } });

  async function feed(api: Client) {
    const events: { id: number; type: string; entity_type: string; external_id: string }[] = [];
    let cursor = '';
    for (;;) {
      const res = await api.get(`/api/v2/rest/changes?limit=1000&after=${cursor}`);
      expect(res.status).toBe(200);
      events.push(...res.body.data);
      cursor = res.body.next_cursor;
      if (!res.body.has_more) return events;
    }
  }

  describe('a change that is rolled back', () => {
    // A constraint trigger checked at COMMIT, so the import has run every statement (its event
    // append included) when it fails: only writing the events in the import's own transaction
    // keeps them from outliving it. Limited to this file's eshop, so no other test meets it.
    const trigger = `events_test_refuse_${process.pid}`;
    let shop: Awaited<ReturnType<typeof svc.eshop>>;

    beforeAll(async () => {
      shop = await svc.eshop();
      const db = svc.deps.db;
      await db.raw(
        `create or replace function ??() returns trigger language plpgsql as $$
        begin raise exception 'refused at commit by the test'; end $$`,
        [trigger],
      );
      await db.raw(
        `create constraint trigger ?? after insert or update on products deferrable initially deferred
         for each row when (new.eshop_id = ${Number(shop.eshop.id)} and new.external_id like 'REFUSED%')
         execute function ??()`,
        [trigger, trigger],
      );
    });

    afterAll(async () => {
      await svc.deps.db.raw('drop trigger if exists ?? on products', [trigger]);
      await svc.deps.db.raw('drop function if exists ??()', [trigger]);
    });

    test('when an import fails at commit, then neither its items nor its events remain, and the next events take the numbers', async () => {
      await shop.api.post('/api/v2/rest/products', [named('P1')]);

      const failed = await shop.api.post('/api/v2/rest/multi-import', {
        categories: [named('C1')],
        products: [named('P1', 'Renamed'), named('REFUSED-1')],
      });
      const deleted = await shop.api.delete('/api/v2/rest/products', ['P1']);

      expect(failed.status).toBe(500);
      expect(deleted.status).toBe(200);
      expect((await feed(shop.api)).map((e) => [e.id, e.type, e.entity_type, e.external_id])).toEqual([
        [1, 'item.created', 'product', 'P1'],
        [2, 'item.deleted', 'product', 'P1'],
      ]);
      expect(await svc.deps.db('categories').where({ eshop_id: shop.eshop.id })).toEqual([]);
    });
  });

  test('when 10,000 item changes arrive in concurrent requests of two eshops, then each eshop has exactly that many events, numbered 1..N', async () => {
    const a = await svc.eshop();
    const b = await svc.eshop();
    // Eshop A: 100 requests of 100 items, each id in two requests (with different names), so
    // half the writes race to create an item the other request is creating too.
    const requestsA = Array.from({ length: 100 }, (_, r) =>
      Array.from({ length: 100 }, (_, i) => named(`A${(r * 50 + i) % 5_000}`, `Name ${r}`)),
    );
    const requestsB = Array.from({ length: 5 }, (_, r) =>
      Array.from({ length: 100 }, (_, i) => named(`B${r * 100 + i}`)),
    );

    // In waves of 21 requests at once (both eshops' writers interleaved in the first).
    const calls = [
      ...requestsB.map((items) => () => b.api.post('/api/v2/rest/products', items)),
      ...requestsA.map((items) => () => a.api.post('/api/v2/rest/products', items)),
    ];
    const answers = [];
    for (let start = 0; start < calls.length; start += 21) {
      answers.push(...(await Promise.all(calls.slice(start, start + 21).map((call) => call()))));
    }

    for (const answer of answers) expect(answer.body).toMatchObject({ success: true, skipped: 0 });
    const eventsA = await feed(a.api);
    const eventsB = await feed(b.api);
    expect(eventsA.map((e) => e.id)).toEqual(Array.from({ length: 10_000 }, (_, i) => i + 1));
    expect(eventsB.map((e) => e.id)).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    // Every item of A was created once and then updated once by the other request naming it.
    const byItem = new Map<string, string[]>();
    for (const e of eventsA) byItem.set(e.external_id, [...(byItem.get(e.external_id) ?? []), e.type]);
    expect(byItem.size).toBe(5_000);
    for (const types of byItem.values()) expect(types).toEqual(['item.created', 'item.updated']);
    expect(new Set(eventsB.map((e) => e.external_id)).size).toBe(500);
    expect(eventsB.every((e) => e.type === 'item.created')).toBe(true);
  }, 180_000);
});
