import { BAD_ITEMS } from './bad-items';
import { catalogueService } from './helpers';

/**
 * Hostile and oversized input: every case is answered with an item error (or a 4xx for the
 * whole request), never a 500, and nothing is written for the bad item.
 */
describe('catalogue-api: imports with bad or oversized input', () => {
  const svc = catalogueService();

  const json = (value: unknown) => JSON.stringify(value);
  const name = { default: 'Chair' };

  const ENDPOINTS = {
    products: { path: '/api/v2/rest/products', table: 'products', valid: { id: 'OK', name }, stored: 'OK' },
    categories: {
      path: '/api/v2/rest/categories',
      table: 'categories',
      valid: { id: 'OK', name },
      stored: 'OK',
    },
    brands: { path: '/api/v2/rest/brands', table: 'brands', valid: { id: 'OK', name }, stored: 'OK' },
    blogs: { path: '/api/v2/rest/blogs', table: 'blogs', valid: { id: 'OK', name }, stored: 'OK' },
    parameters: {
      path: '/api/v2/rest/parameters',
      table: 'parameters',
      valid: { id: 1, name: 'Colour' },
      stored: 1,
    },
  } as const;

  test.each(BAD_ITEMS)(
    'when $endpoint get $case, then 200 with an item error and only the valid item is written',
    async ({ endpoint, raw, messages, id }) => {
      const shop = await svc.eshop();
      const { path, table, valid, stored } = ENDPOINTS[endpoint];

      const res = await shop.api.post(path, `[${json(valid)}, ${raw}]`);

      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: false, imported: 1, updated: 0, skipped: 1 });
      expect(res.body.errors).toEqual([
        expect.objectContaining({
          index: 1,
          errors: messages ? expect.arrayContaining(messages) : [expect.any(String)],
          ...(id !== undefined && { id }),
        }),
      ]);
      const ids = await svc.deps.db(table).where({ eshop_id: shop.eshop.id }).pluck('external_id');
      expect(ids.map((v) => (typeof stored === 'number' ? Number(v) : v))).toEqual([stored]);
    },
  );

  test.each([
    { case: 'a JSON object', body: '{"id": "P1", "name": {"default": "Chair"}}', contentType: undefined },
    { case: 'a JSON string', body: '"P1"', contentType: undefined },
    { case: 'JSON null', body: 'null', contentType: undefined },
    { case: 'a JSON number', body: '42', contentType: undefined },
    { case: 'malformed JSON', body: '[{"id": "P1",', contentType: undefined },
    { case: 'an empty body', body: '', contentType: 'application/json' },
    { case: 'a JSON array sent as text/plain', body: '[{"id": "P1"}]', contentType: 'text/plain' },
    { case: 'form-encoded data', body: 'id=P1&name=Chair', contentType: 'application/x-www-form-urlencoded' },
    {
      case: 'an item nested 2,000 levels deep',
      body: `[{"id": "P1", "name": {"default": ${'['.repeat(2000)}"deep"${']'.repeat(2000)}}}]`,
      contentType: undefined,
    },
  ])(
    'when the body is $case, then a 4xx error body and nothing is written',
    async ({ body, contentType }) => {
      const shop = await svc.eshop();

      const res = await shop.api.post('/api/v2/rest/products', body, contentType);

      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body).toEqual(expect.objectContaining({ error: expect.any(String) }));
      expect(await svc.deps.db('products').where({ eshop_id: shop.eshop.id })).toEqual([]);
    },
  );

  test('when two ids differ only in lone UTF-16 surrogates, then 200 with item errors and nothing of them is written', async () => {
    const shop = await svc.eshop();

    const res = await shop.api.post(
      '/api/v2/rest/products',
      '[{"id": "P\\ud800", "name": {"default": "A"}}, {"id": "P\\udbff", "name": {"default": "B"}}]',
    );

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, imported: 0, skipped: 2 });
    expect(await svc.deps.db('products').where({ eshop_id: shop.eshop.id })).toEqual([]);
  });

  test('when the products of one request refer to 66,000 distinct unknown parameters, then each product is reported, never a 500', async () => {
    const shop = await svc.eshop();
    // Within the limits (100 items, 1,000 parameters_ids each), but more ids than one SQL statement can bind.
    const products = Array.from({ length: 66 }, (_, p) => ({
      id: `P${p}`,
      name,
      parameters_ids: Array.from({ length: 1000 }, (_, i) => p * 1000 + i + 1),
    }));

    const res = await shop.api.post('/api/v2/rest/products', products);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, imported: 0, updated: 0, skipped: 66 });
    expect(res.body.errors).toHaveLength(66);
    expect(res.body.errors[0]).toEqual({
      index: 0,
      id: 'P0',
      errors: Array.from({ length: 1000 }, (_, i) => `The selected parameters_ids.${i} is invalid.`),
    });
    expect(await svc.deps.db('products').where({ eshop_id: shop.eshop.id })).toEqual([]);
  });

  test('when 100 products each carry 1,000 variants, then all of them are written in order', async () => {
    const shop = await svc.eshop();
    const products = Array.from({ length: 100 }, (_, p) => ({
      id: `P${p}`,
      name,
      variant: Array.from({ length: 1000 }, (_, v) => ({ code: `P${p}-V${v}`, ean: null })),
    }));

    const res = await shop.api.post('/api/v2/rest/products', products);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, imported: 100, updated: 0, skipped: 0, errors: [] });
    const [total] = await svc.deps.db('product_variants').where({ eshop_id: shop.eshop.id }).count();
    expect(Number(total?.count)).toBe(100_000);
    const [first] = await svc.deps.db('products').where({ eshop_id: shop.eshop.id, external_id: 'P7' });
    const codes = await svc.deps
      .db('product_variants')
      .where({ product_id: first!.id })
      .orderBy('id')
      .pluck('code');
    expect(codes).toEqual(Array.from({ length: 1000 }, (_, v) => `P7-V${v}`));
  });
});
