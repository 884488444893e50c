import { catalogueService } from './helpers';

describe('catalogue-api: DELETE /api/v2/rest/{products,categories,brands,blogs} (soft delete)', () => {
  const svc = catalogueService();

  /** The stored rows of one eshop, with updated_at at full (microsecond) precision. */
  function rows(table: string, eshopId: number) {
    return svc.deps
      .db(table)
      .select('*', svc.deps.db.raw('updated_at::text as updated_at_text'))
      .where({ eshop_id: eshopId })
      .orderBy('external_id');
  }

  /** The render-content jobs of one eshop (the queue is shared with other test files). */
  async function renderJobs(eshopId: number) {
    return svc.renderJobs(eshopId);
  }

  async function deletedIds(table: string, eshopId: number): Promise<string[]> {
    return (await rows(table, eshopId)).filter((r) => r.is_delete).map((r) => r.external_id);
  }

  const ENTITIES = [
    { path: 'products', table: 'products', type: 'product', notFound: 'Product not found' },
    { path: 'categories', table: 'categories', type: 'category', notFound: 'Category not found' },
    { path: 'brands', table: 'brands', type: 'brand', notFound: 'Brand not found' },
    { path: 'blogs', table: 'blogs', type: 'blog', notFound: 'Blog not found' },
  ] as const;

  const named = (id: string) => ({ id, name: { default: `Item ${id}` } });

  test.each(ENTITIES)(
    'when $path are deleted by id strings and {id} objects, then they are soft-deleted and vanish from the list',
    async ({ path, table, type }) => {
      const shop = await svc.eshop();
      await shop.api.post(`/api/v2/rest/${path}`, [named('X1'), named('X2'), named('X3')]);
      await svc.setStatus(shop.eshop.id, type, ['X1', 'X2', 'X3'], 'ready');
      const before = await rows(table, shop.eshop.id);

      const res = await shop.api.delete(`/api/v2/rest/${path}`, ['X1', { id: 'X3' }]);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, deleted: 2, skipped: 0, errors: [] });
      const after = await rows(table, shop.eshop.id);
      expect(after.map((r) => [r.external_id, r.is_delete, r.status])).toEqual([
        ['X1', true, 'ready'],
        ['X2', false, 'ready'],
        ['X3', true, 'ready'],
      ]);
      expect(after[0].updated_at_text > before[0].updated_at_text).toBe(true);
      const list = await shop.api.get(`/api/v2/rest/${path}?is_edited=false`);
      expect(list.status).toBe(200);
      expect(list.body.data.map((item: { id: string }) => item.id)).toEqual(['X2']);
      expect(list.body.meta.total).toBe(1);
    },
  );

  test.each(ENTITIES)(
    'when $path that are missing or already deleted are deleted, then they are skipped with "$notFound"',
    async ({ path, table, notFound }) => {
      const shop = await svc.eshop();
      await shop.api.post(`/api/v2/rest/${path}`, [named('X1'), named('X2')]);
      await shop.api.delete(`/api/v2/rest/${path}`, ['X2']);
      const before = await rows(table, shop.eshop.id);

      const res = await shop.api.delete(`/api/v2/rest/${path}`, ['NOPE', 'X1', 'X2']);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: false,
        deleted: 1,
        skipped: 2,
        errors: [
          { index: 0, id: 'NOPE', errors: [notFound] },
          { index: 2, id: 'X2', errors: [notFound] },
        ],
      });
      const after = await rows(table, shop.eshop.id);
      expect(after.map((r) => [r.external_id, r.is_delete])).toEqual([
        ['X1', true],
        ['X2', true],
      ]);
      // The already deleted row is not touched again.
      expect(after[1].updated_at_text).toBe(before[1].updated_at_text);
    },
  );

  test('when an id is repeated, then it is deleted once and the repetition is reported as a duplicate', async () => {
    const shop = await svc.eshop();
    await shop.api.post('/api/v2/rest/products', [named('P1'), named('P2')]);

    const res = await shop.api.delete('/api/v2/rest/products', ['P1', { id: 'P1' }, 'P2']);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: false,
      deleted: 2,
      skipped: 1,
      errors: [{ index: 1, id: 'P1', errors: ['The id field has a duplicate value.'] }],
    });
    expect(await deletedIds('products', shop.eshop.id)).toEqual(['P1', 'P2']);
  });

  test('when a brand is deleted, then products keep their brand_id and the brand list no longer returns it', async () => {
    const shop = await svc.eshop();
    await shop.api.post('/api/v2/rest/brands', [named('B1'), named('B2')]);
    await shop.api.post('/api/v2/rest/products', [{ ...named('P1'), brand_id: 'B1' }]);
    const [productBefore] = await rows('products', shop.eshop.id);

    const res = await shop.api.delete('/api/v2/rest/brands', ['B1']);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, deleted: 1, skipped: 0, errors: [] });
    expect(await rows('products', shop.eshop.id)).toEqual([productBefore]);
    const brands = await shop.api.get('/api/v2/rest/brands?is_edited=false');
    expect(brands.body.data.map((b: { id: string }) => b.id)).toEqual(['B2']);
  });

  test('when items are deleted, then their data and status are kept and no render job is queued', async () => {
    const shop = await svc.eshop();
    await shop.api.post('/api/v2/rest/blogs', [{ ...named('BL1'), category: 'News' }]);
    await svc.setStatus(shop.eshop.id, 'blog', ['BL1'], 'ready');
    const [before] = await rows('blogs', shop.eshop.id);
    const jobsBefore = await renderJobs(shop.eshop.id);

    await shop.api.delete('/api/v2/rest/blogs', ['BL1']);

    const [after] = await rows('blogs', shop.eshop.id);
    expect(after).toMatchObject({
      is_delete: true,
      name: before.name,
      category: 'News',
      status: 'ready',
      guid: before.guid,
    });
    expect(await renderJobs(shop.eshop.id)).toEqual(jobsBefore);
  });

  test('when elements are not ids, then each is reported and the valid ones are still deleted', async () => {
    const shop = await svc.eshop();
    await shop.api.post('/api/v2/rest/categories', [named('C1')]);

    const res = await shop.api.delete('/api/v2/rest/categories', [
      5,
      '',
      null,
      { name: 'C1' },
      { id: 7 },
      'x'.repeat(5000),
      ['C1'],
      'C1',
    ]);

    expect(res.status).toBe(200);
    expect(res.body.success).toBe(false);
    expect(res.body.deleted).toBe(1);
    expect(res.body.skipped).toBe(7);
    expect(res.body.errors.map((e: { index: number }) => e.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    for (const entry of res.body.errors) expect(entry.errors).toEqual([expect.any(String)]);
    expect(await deletedIds('categories', shop.eshop.id)).toEqual(['C1']);
  });

  test('when an id contains a NUL character, then it is skipped with an error and the other ids are still deleted (never a 500)', async () => {
    const shop = await svc.eshop();
    await shop.api.post('/api/v2/rest/products', [named('P1')]);

    const res = await shop.api.delete('/api/v2/rest/products', ['P\u00001', 'P1']);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, deleted: 1, skipped: 1 });
    expect(res.body.errors).toEqual([expect.objectContaining({ index: 0 })]);
    expect(await deletedIds('products', shop.eshop.id)).toEqual(['P1']);
  });

  test('when the body is not an array, then 422 naming the body and nothing is deleted', async () => {
    const shop = await svc.eshop();
    await shop.api.post('/api/v2/rest/products', [named('P1')]);

    const res = await shop.api.delete('/api/v2/rest/products', { id: 'P1' });

    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      error: 'The given data was invalid.',
      code: 'validation_failed',
      errors: { body: [expect.any(String)] },
    });
    expect(await deletedIds('products', shop.eshop.id)).toEqual([]);
  });

  test('when 101 ids are sent, then 422 with the bulk error and nothing is deleted', async () => {
    const shop = await svc.eshop();
    await shop.api.post('/api/v2/rest/products', [named('P1')]);
    const ids = ['P1', ...Array.from({ length: 100 }, (_, i) => `X${i}`)];

    const res = await shop.api.delete('/api/v2/rest/products', ids);

    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      success: false,
      errors: { bulk: ['Maximum 100 items allowed for bulk import'] },
      code: 'bulk_limit_exceeded',
    });
    expect(await deletedIds('products', shop.eshop.id)).toEqual([]);
  });

  test('when the body is malformed JSON, then 400 and nothing is deleted', async () => {
    const shop = await svc.eshop();
    await shop.api.post('/api/v2/rest/products', [named('P1')]);

    const res = await shop.api.delete('/api/v2/rest/products', '["P1"');

    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.any(String), code: 'malformed_json' });
    expect(await deletedIds('products', shop.eshop.id)).toEqual([]);
  });

  test('when no token is sent, then 401 and nothing is deleted', async () => {
    const shop = await svc.eshop();
    await shop.api.post('/api/v2/rest/products', [named('P1')]);

    const res = await fetch(`${svc.url}/api/v2/rest/products`, {
      method: 'DELETE',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(['P1']),
    });

    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'Authorization token required', code: 'token_missing' });
    expect(await deletedIds('products', shop.eshop.id)).toEqual([]);
  });
});
