import { catalogueService, type Client } from './helpers';

/** What a client needs of an event to compare: its number, type and item. */
type Seen = [number, string, string, string];

describe('catalogue-api: GET /api/v2/rest/changes (the change feed)', () => {
  const svc = catalogueService();

  const named = (id: string, name = `Item ${id}`) => ({ id, name: { default: name } });
  const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

  /** Every event of the feed, paging with next_cursor as a client would; the pages' sizes too. */
  async function readAll(api: Client, limit = 1000, after?: string) {
    const events: { id: number; type: string; entity_type: string; external_id: string; data: unknown }[] =
      [];
    const pages: number[] = [];
    let cursor = after;
    for (;;) {
      const query = `limit=${limit}${cursor === undefined ? '' : `&after=${cursor}`}`;
      const res = await api.get(`/api/v2/rest/changes?${query}`);
      expect(res.status).toBe(200);
      events.push(...res.body.data);
      pages.push(res.body.data.length);
      cursor = res.body.next_cursor;
      if (!res.body.has_more) return { events, pages, cursor: cursor! };
    }
  }

  const seen = (events: Awaited<ReturnType<typeof readAll>>['events']): Seen[] =>
    events.map((e) => [e.id, e.type, e.entity_type, e.external_id]);

  test('when items are created, updated, sent unchanged and deleted, then the feed has each change once, in order, with the deletion', async () => {
    const shop = await svc.eshop();
    await shop.api.post('/api/v2/rest/categories', [named('C1')]);
    await shop.api.post('/api/v2/rest/products', [named('P2'), named('P1')]);
    await shop.api.post('/api/v2/rest/products', [named('P1', 'Renamed'), named('P2')]);
    await shop.api.post('/api/v2/rest/parameters', [
      { id: 7, name: 'Colour', values: [{ id: 1, value: 'Red' }] },
    ]);
    await shop.api.post('/api/v2/rest/multi-import', { brands: [named('B1')], blogs: [named('G1')] });
    await shop.api.delete('/api/v2/rest/products', ['P2', 'NOPE']);

    const res = await shop.api.get('/api/v2/rest/changes');

    expect(res.status).toBe(200);
    expect(seen(res.body.data)).toEqual([
      [1, 'item.created', 'category', 'C1'],
      [2, 'item.created', 'product', 'P1'],
      [3, 'item.created', 'product', 'P2'],
      // P2 was sent as stored: nothing written, no event.
      [4, 'item.updated', 'product', 'P1'],
      [5, 'item.created', 'parameter', '7'],
      [6, 'item.created', 'brand', 'B1'],
      [7, 'item.created', 'blog', 'G1'],
      [8, 'item.deleted', 'product', 'P2'],
    ]);
    expect(res.body.data[0]).toEqual({
      id: 1,
      type: 'item.created',
      entity_type: 'category',
      external_id: 'C1',
      occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      data: {},
    });
    expect(res.body.has_more).toBe(false);
    expect(res.body.next_cursor).toBe(base64url('8'));

    // The client stored next_cursor: later it sees only what happened since.
    await shop.api.post('/api/v2/rest/products', [named('P2')]);
    const later = await shop.api.get(`/api/v2/rest/changes?after=${res.body.next_cursor}`);
    // Importing a deleted item brings it back: an update of the stored row.
    expect(seen(later.body.data)).toEqual([[9, 'item.updated', 'product', 'P2']]);
    const idle = await shop.api.get(`/api/v2/rest/changes?after=${later.body.next_cursor}`);
    expect(idle.body).toEqual({ data: [], next_cursor: later.body.next_cursor, has_more: false });
  });

  test('when the feed is read in small pages, then next_cursor walks through every event once and has_more ends it', async () => {
    const shop = await svc.eshop();
    await shop.api.post(
      '/api/v2/rest/products',
      Array.from({ length: 23 }, (_, i) => named(`P${String(i).padStart(2, '0')}`)),
    );
    await shop.api.delete('/api/v2/rest/products', ['P03', 'P11']);

    const { events, pages } = await readAll(shop.api, 10);

    expect(pages).toEqual([10, 10, 5]);
    expect(events.map((e) => e.id)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(events.slice(-2).map((e) => [e.type, e.external_id])).toEqual([
      ['item.deleted', 'P03'],
      ['item.deleted', 'P11'],
    ]);
  });

  test("when two eshops change items, then each feed has only its own events and another eshop's cursor shows none of its events", async () => {
    const a = await svc.eshop();
    const b = await svc.eshop();
    await a.api.post('/api/v2/rest/products', [named('SAME'), named('A-ONLY')]);
    await b.api.post('/api/v2/rest/products', [named('SAME'), named('B1'), named('B2'), named('B3')]);
    await b.api.delete('/api/v2/rest/products', ['SAME']);

    const feedA = await readAll(a.api);
    const feedB = await readAll(b.api);

    expect(seen(feedA.events)).toEqual([
      [1, 'item.created', 'product', 'A-ONLY'],
      [2, 'item.created', 'product', 'SAME'],
    ]);
    expect(seen(feedB.events).map(([, type, , id]) => `${type} ${id}`)).toEqual([
      'item.created B1',
      'item.created B2',
      'item.created B3',
      'item.created SAME',
      'item.deleted SAME',
    ]);
    // B's cursor is a position in B's feed; in A's it names nothing of B.
    const withForeignCursor = await a.api.get(`/api/v2/rest/changes?after=${base64url('1')}`);
    expect(seen(withForeignCursor.body.data)).toEqual([[2, 'item.created', 'product', 'SAME']]);
    const pastTheEnd = await a.api.get(`/api/v2/rest/changes?after=${feedB.cursor}`);
    expect(pastTheEnd.body).toEqual({ data: [], next_cursor: feedB.cursor, has_more: false });
  });

  test.each([
    ['not base64url', 'M*'],
    ['not a number', base64url('ten')],
    ['a negative number', base64url('-1')],
    ['a number with a leading zero', base64url('07')],
    ['a fraction', base64url('1.5')],
    ['too large', base64url('99999999999999999')],
    ['padded', `${base64url('12')}=`],
    ['not canonical (same bytes, other letters)', 'MR'],
    ['too long', 'M'.repeat(65)],
  ])('when the cursor is %s, then 400 cursor_invalid and no events', async (_, cursor) => {
    const shop = await svc.eshop();
    await shop.api.post('/api/v2/rest/products', [named('P1')]);

    const res = await shop.api.get(`/api/v2/rest/changes?after=${encodeURIComponent(cursor)}`);

    if (cursor.length > 64) {
      // Refused by the query schema before it is read as a cursor.
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('validation_failed');
    } else {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: expect.any(String), code: 'cursor_invalid' });
    }
  });

  describe('after the sweeper deleted events past the retention', () => {
    /** An eshop with events 1..4 of which the sweeper deleted `deleted` (the oldest). */
    async function swept(deleted: number[]) {
      const shop = await svc.eshop();
      await shop.api.post('/api/v2/rest/products', [named('P1'), named('P2'), named('P3'), named('P4')]);
      await svc.deps.db('events').where({ eshop_id: shop.eshop.id }).whereIn('seq', deleted).delete();
      return shop;
    }

    test('when the cursor is before a deleted event, then 410 cursor_expired, saying what to do', async () => {
      const shop = await swept([1, 2]);

      const res = await shop.api.get(`/api/v2/rest/changes?after=${base64url('0')}`);
      const behind = await shop.api.get(`/api/v2/rest/changes?after=${base64url('1')}`);

      expect(res.status).toBe(410);
      expect(res.body).toEqual({
        error: expect.stringMatching(/30 days.*lists again/),
        code: 'cursor_expired',
      });
      expect(behind.status).toBe(410);
    });

    test('when every event after the cursor was deleted, then 410 too (nothing left to page through is not the end)', async () => {
      const shop = await swept([1, 2, 3, 4]);

      const res = await shop.api.get(`/api/v2/rest/changes?after=${base64url('2')}`);
      const atEnd = await shop.api.get(`/api/v2/rest/changes?after=${base64url('4')}`);

      expect(res.status).toBe(410);
      expect(atEnd.status).toBe(200);
      expect(atEnd.body.data).toEqual([]);
    });

    test('when the cursor is at the last deleted event, or there is none, then the kept events follow', async () => {
      const shop = await swept([1, 2]);

      const fromCursor = await readAll(shop.api, 1000, base64url('2'));
      const fromStart = await readAll(shop.api);

      expect(fromCursor.events.map((e) => e.id)).toEqual([3, 4]);
      expect(fromStart.events.map((e) => e.id)).toEqual([3, 4]);
    });
  });

  test.each(['0', '1001', 'ten', '1.5'])('when limit is %s, then 422 validation_failed', async (limit) => {
    const shop = await svc.eshop();

    const res = await shop.api.get(`/api/v2/rest/changes?limit=${limit}`);

    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(Object.keys(res.body.errors ?? {})).toEqual(['limit']);
  });

  test('when the feed is empty, then the start cursor is returned to come back with', async () => {
    const shop = await svc.eshop();

    const res = await shop.api.get('/api/v2/rest/changes?after=');

    expect(res.body).toEqual({ data: [], next_cursor: base64url('0'), has_more: false });
  });

  test('without a token, then 401', async () => {
    const res = await fetch(`${svc.url}/api/v2/rest/changes`);
    expect(res.status).toBe(401);
  });
});
