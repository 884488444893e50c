import { favouritesRepository, idempotencyRepository } from '@catalogue/db';
import { editorService, EXPIRED, LICENCE_ERROR, type Shop } from './editor-client';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;

/** A section widget as the editor holds it: wrapper, heading, image with per-language attributes, link. */
const children = () => [
  {
    id: 1,
    parent_id: 0,
    child_id: 0,
    class: 'ccs-widget ccs-widget--section',
    is_editable: false,
    tag: 'section',
    value: [],
    extension: [],
  },
  {
    id: 2,
    parent_id: 1,
    child_id: 0,
    class: 'ccs-section__heading',
    is_editable: true,
    tag: 'h2',
    value: { default: 'Hello', cs: 'Ahoj' },
    extension: [],
  },
  {
    id: 3,
    parent_id: 1,
    child_id: 1,
    class: '',
    is_editable: true,
    tag: 'img',
    value: {},
    extension: { default: { src: 'https://cdn.test/a.jpg', alt: 'Shoe' }, cs: [] },
  },
  {
    id: 4,
    parent_id: 1,
    child_id: 2,
    class: '',
    is_editable: true,
    tag: 'a',
    value: { default: 'More' },
    extension: {
      href: { default: 'https://shop.test/more', cs: 'https://shop.test/cs/more' },
      title: 'More',
    },
  },
];

describe('white-label-api: widget favourites', () => {
  const service = editorService();
  const db = () => service.deps.db;
  let sectionId: number;

  beforeAll(async () => {
    sectionId = (await db()('widgets').where({ type: 'section' }).first('id'))!.id;
  });

  const stored = (shop: Shop) => favouritesRepository.list(db(), shop.id);
  const create = (shop: Shop, overrides: Record<string, unknown> = {}) =>
    shop.post('/widget-favourite', {
      name: 'My section',
      widget_id: sectionId,
      children: children(),
      ...overrides,
    });

  test('when a favourite is saved, then 201 answers it and it is stored with its elements', async () => {
    const shop = await service.shop();
    const res = await create(shop);
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      name: 'My section',
      widget_id: sectionId,
      children: children().map((c) => ({ ...c, value: Array.isArray(c.value) ? {} : c.value })),
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: expect.stringMatching(TIMESTAMP),
    });
    const [row] = await stored(shop);
    expect(row).toMatchObject({ id: res.body.data.id, name: 'My section', widgetId: sectionId });
    expect(row!.children).toEqual(res.body.data.children);
  });

  test('when element values carry scripts and handlers, then they are sanitised before they are stored', async () => {
    const shop = await service.shop();
    const elements = children();
    elements[1]!.value = {
      default: '<strong onclick="alert(1)">Hi</strong><script>alert(2)</script>',
      cs: '<img src=x onerror=alert(3)>ok',
    };
    const res = await create(shop, { children: elements });
    expect(res.status).toBe(201);
    const [row] = await stored(shop);
    for (const output of [JSON.stringify(res.body), JSON.stringify(row)]) {
      expect(output).not.toMatch(/alert|onclick|onerror|<script/i);
    }
    expect(row!.children[1]).toMatchObject({
      value: { default: '<strong>Hi</strong>', cs: expect.stringContaining('ok') },
    });
  });

  test('when favourites are listed and read, then the eshop sees only its own', async () => {
    const shop = await service.shop();
    const other = await service.shop();
    const first = await create(shop, { name: 'First' });
    const second = await create(shop, { name: 'Second' });
    const theirs = await create(other, { name: 'Theirs' });
    const list = await shop.get('/widget-favourite');
    expect(list.status).toBe(200);
    expect(list.body.data.map((f: { name: string }) => f.name)).toEqual(['First', 'Second']);
    const one = await shop.get(`/widget-favourite/${second.body.data.id}`);
    expect(one.body).toEqual({ data: second.body.data });
    expect(first.status).toBe(201);
    const guessed = await shop.get(`/widget-favourite/${theirs.body.data.id}`);
    expect(guessed.status).toBe(404);
    expect(guessed.body).toEqual({ error: 'Widget favourite not found', code: 'not_found' });
  });

  test("when a favourite is deleted, then it is gone; another eshop's favourite is 404 and untouched", async () => {
    const shop = await service.shop();
    const other = await service.shop();
    const mine = await create(shop);
    const theirs = await create(other);
    const refused = await shop.delete(`/widget-favourite/${theirs.body.data.id}`);
    expect(refused.status).toBe(404);
    expect(await stored(other)).toHaveLength(1);
    const res = await shop.delete(`/widget-favourite/${mine.body.data.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id: mine.body.data.id }, message: 'Widget favourite deleted' });
    expect(await stored(shop)).toEqual([]);
    expect((await shop.get(`/widget-favourite/${mine.body.data.id}`)).status).toBe(404);
    expect((await shop.delete(`/widget-favourite/${mine.body.data.id}`)).status).toBe(404);
  });

  const broken = (index: number, patch: Record<string, unknown>) =>
    children().map((c, i) => (i === index ? { ...c, ...patch } : c));

  test.each([
    ['no name', { name: '   ' }, 'name', 'The name field is required.'],
    ['an unknown widget', { widget_id: 999_999 }, 'widget_id', 'The selected widget_id is invalid.'],
    ['no children', { children: [] }, 'children', 'The children field must have at least 1 items.'],
    [
      'a javascript: link',
      { children: broken(3, { extension: { href: 'javascript:alert(1)' } }) },
      'children.3.extension.href',
      'The children.3.extension.href field must be a valid URL.',
    ],
    [
      'a per-language image source that is not http(s)',
      { children: broken(2, { extension: { cs: { src: 'data:image/png;base64,AA' } } }) },
      'children.2.extension.cs.src',
      'The children.2.extension.cs.src field must be a valid URL.',
    ],
    [
      'an event-handler attribute',
      { children: broken(2, { extension: { onclick: 'alert(1)' } }) },
      'children.2.extension.onclick',
      'The children.2.extension.onclick field is not allowed.',
    ],
    [
      'a parent that is not in the list',
      { children: broken(1, { parent_id: 99 }) },
      'children.1.parent_id',
      'The selected children.1.parent_id is invalid.',
    ],
    [
      'a duplicate element id',
      { children: broken(2, { id: 2 }) },
      'children.2.id',
      'The children.2.id field has a duplicate value.',
    ],
    [
      'an unknown language',
      { children: broken(1, { value: { xx: 'Hi' } }) },
      'children.1.value.xx',
      'The children.1.value.xx field is not allowed.',
    ],
    [
      'a NUL character',
      { children: broken(1, { value: { default: 'a\u0000' } }) },
      'children.1.value.default',
      'The children.1.value.default field must be valid text (no NUL characters or unpaired surrogates).',
    ],
  ])(
    'when the favourite has %s, then 422 names the field and nothing is stored',
    async (_, overrides, field, message) => {
      const shop = await service.shop();
      const res = await create(shop, overrides);
      expect(res.status).toBe(422);
      expect(res.body.errors?.[field]).toContain(message);
      expect(await stored(shop)).toEqual([]);
    },
  );

  test('when elements point at each other in a cycle, then 422 and nothing is stored', async () => {
    const shop = await service.shop();
    const elements = [
      ...children().slice(0, 1),
      { id: 5, parent_id: 6, child_id: 0, tag: 'p', value: { default: 'a' } },
      { id: 6, parent_id: 5, child_id: 0, tag: 'p', value: { default: 'b' } },
    ];
    const res = await create(shop, { children: elements });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors ?? {}).sort()).toEqual([
      'children.1.parent_id',
      'children.2.parent_id',
    ]);
    expect(await stored(shop)).toEqual([]);
  });

  test('when the favourite id is not a positive integer, then 422', async () => {
    const shop = await service.shop();
    const res = await shop.get('/widget-favourite/0');
    expect(res.status).toBe(422);
    expect(res.body.errors?.widget_favourite_id).toEqual([
      'The widget_favourite_id field must be at least 1.',
    ]);
  });

  test('when the licence is not valid, then every favourite operation answers 403 and nothing changes', async () => {
    const shop = await service.shop(EXPIRED);
    const existing = await favouritesRepository.create(db(), shop.id, {
      name: 'Kept',
      widgetId: sectionId,
      children: [],
    });
    const replies = [
      await shop.get('/widget-favourite'),
      await create(shop),
      await shop.get(`/widget-favourite/${existing.id}`),
      await shop.delete(`/widget-favourite/${existing.id}`),
    ];
    for (const res of replies) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual(LICENCE_ERROR);
    }
    expect((await stored(shop)).map((f) => f.id)).toEqual([existing.id]);
  });

  test('when a create is retried with the same Idempotency-Key, then the first answer is replayed and one favourite is stored', async () => {
    const shop = await service.shop();
    const body = { name: 'Once', widget_id: sectionId, children: children() };
    const headers = { 'Idempotency-Key': `fav-${process.pid}-${Date.now()}` };

    const first = await shop.post('/widget-favourite', body, { headers });
    const retry = await shop.post('/widget-favourite', body, { headers });

    expect(first.status).toBeLessThan(300);
    expect(retry.status).toBe(first.status);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect((await stored(shop)).map((f) => f.name)).toEqual(['Once']);
  });

  test('when the process dies after the create committed and a retry takes the key over, then the first favourite is answered and no second is stored', async () => {
    // Arrange: every write after the handler fails (the process is gone); the client saw nothing.
    const shop = await service.shop();
    const body = { name: 'Crash', widget_id: sectionId, children: children() };
    const key = `fav-crash-${process.pid}-${Date.now()}`;
    const dead = new Error('process killed');
    const completeInTransaction = idempotencyRepository.complete.bind(idempotencyRepository);
    const complete = jest
      .spyOn(idempotencyRepository, 'complete')
      .mockImplementation(async (trx, ...rest) => {
        if (!trx.isTransaction) throw dead;
        return completeInTransaction(trx, ...rest);
      });
    const release = jest.spyOn(idempotencyRepository, 'release').mockRejectedValue(dead);
    try {
      await shop.post('/widget-favourite', body, { headers: { 'Idempotency-Key': key } });
    } finally {
      complete.mockRestore();
      release.mockRestore();
    }
    const [first] = await stored(shop);
    await db()('idempotency_keys')
      .where({ eshop_id: shop.id, key })
      .update({ locked_until: db().raw("now() - interval '1 second'") });

    // Act
    const retry = await shop.post('/widget-favourite', body, { headers: { 'Idempotency-Key': key } });

    // Assert
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect((retry.body as { data: { id: number } }).data.id).toBe(first!.id);
    expect((await stored(shop)).map((f) => f.name)).toEqual(['Crash']);
  });
});
