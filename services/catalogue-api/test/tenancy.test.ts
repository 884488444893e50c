import { catalogueService } from './helpers';

/** Two eshops use the same external ids; neither may see or change the other's items. */
describe('catalogue-api: tenancy of imports, lists and deletes', () => {
  const svc = catalogueService();

  /** The stored rows of one eshop, with updated_at at full (microsecond) precision. */
  function rows(table: string, eshopId: number) {
    return svc.deps
      .db(table)
      .select('*', svc.deps.db.raw('updated_at::text as updated_at_text'))
      .where({ eshop_id: eshopId })
      .orderBy('external_id');
  }

  const ENTITIES = [
    { path: 'products', table: 'products', type: 'product' },
    { path: 'categories', table: 'categories', type: 'category' },
    { path: 'brands', table: 'brands', type: 'brand' },
    { path: 'blogs', table: 'blogs', type: 'blog' },
  ] as const;

  const named = (id: string, label: string) => ({ id, name: { default: `${label} ${id}` } });

  test.each(ENTITIES)(
    'when eshops A and B import $path with the same ids, then each list shows only its own eshop items',
    async ({ path, type }) => {
      const a = await svc.eshop();
      const b = await svc.eshop();
      await a.api.post(`/api/v2/rest/${path}`, [named('X1', 'A'), named('A-only', 'A')]);
      await b.api.post(`/api/v2/rest/${path}`, [named('X1', 'B')]);
      await svc.setStatus(a.eshop.id, type, ['X1', 'A-only'], 'ready');
      await svc.setStatus(b.eshop.id, type, ['X1'], 'ready');

      const listB = await b.api.get(`/api/v2/rest/${path}?is_edited=false`);
      const listA = await a.api.get(`/api/v2/rest/${path}?is_edited=false`);

      expect(listB.status).toBe(200);
      expect(listB.body.data.map((item: { id: string; name: object }) => [item.id, item.name])).toEqual([
        ['X1', { default: 'B X1' }],
      ]);
      expect(listB.body.meta.total).toBe(1);
      expect(listA.body.data.map((item: { id: string }) => item.id).sort()).toEqual(['A-only', 'X1']);
    },
  );

  test('when B imports P1 that A already has, then B gets a row of its own and A row is untouched', async () => {
    const a = await svc.eshop();
    const b = await svc.eshop();
    await a.api.post('/api/v2/rest/products', [named('P1', 'A')]);
    await svc.setStatus(a.eshop.id, 'product', ['P1'], 'ready');
    const aBefore = await rows('products', a.eshop.id);

    const res = await b.api.post('/api/v2/rest/products', [named('P1', 'B')]);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, imported: 1, updated: 0, skipped: 0, errors: [] });
    expect(await rows('products', a.eshop.id)).toEqual(aBefore);
    const [bRow] = await rows('products', b.eshop.id);
    expect(bRow).toMatchObject({ external_id: 'P1', name: { default: 'B P1' }, status: 'generate' });
    expect(bRow.id).not.toBe(aBefore[0].id);
    expect(bRow.guid).not.toBe(aBefore[0].guid);
    const forP1 = [...(await svc.renderJobs(a.eshop.id)), ...(await svc.renderJobs(b.eshop.id))].filter(
      (job) => job.external_id === 'P1',
    );
    expect(forP1.map((job) => job.eshop_id).sort()).toEqual([a.eshop.id, b.eshop.id].sort());
  });

  test('when B changes an item that A holds under the same id, then only B row changes', async () => {
    const a = await svc.eshop();
    const b = await svc.eshop();
    await a.api.post('/api/v2/rest/categories', [named('C1', 'Same')]);
    await b.api.post('/api/v2/rest/categories', [named('C1', 'Same')]);

    const res = await b.api.post('/api/v2/rest/categories', [
      { id: 'C1', is_visible: false, name: { default: 'Same C1' } },
    ]);

    expect(res.body).toEqual({ success: true, imported: 0, updated: 1, skipped: 0, errors: [] });
    expect((await rows('categories', a.eshop.id))[0].is_visible).toBe(true);
    expect((await rows('categories', b.eshop.id))[0].is_visible).toBe(false);
  });

  test.each([
    { path: 'products', table: 'products', notFound: 'Product not found' },
    { path: 'categories', table: 'categories', notFound: 'Category not found' },
    { path: 'brands', table: 'brands', notFound: 'Brand not found' },
    { path: 'blogs', table: 'blogs', notFound: 'Blog not found' },
  ])(
    'when B deletes $path that only A has, then B gets "$notFound" and A rows stay',
    async ({ path, table, notFound }) => {
      const a = await svc.eshop();
      const b = await svc.eshop();
      await a.api.post(`/api/v2/rest/${path}`, [named('X1', 'A'), named('X2', 'A')]);
      await b.api.post(`/api/v2/rest/${path}`, [named('X2', 'B')]);
      const aBefore = await rows(table, a.eshop.id);

      const res = await b.api.delete(`/api/v2/rest/${path}`, ['X1', 'X2']);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: false,
        deleted: 1,
        skipped: 1,
        errors: [{ index: 0, id: 'X1', errors: [notFound] }],
      });
      expect(await rows(table, a.eshop.id)).toEqual(aBefore);
      expect((await rows(table, b.eshop.id)).map((r) => [r.external_id, r.is_delete])).toEqual([
        ['X2', true],
      ]);
    },
  );

  test("when B's product refers to A's brand, categories or parameters, then it is skipped as invalid", async () => {
    const a = await svc.eshop();
    const b = await svc.eshop();
    await a.api.post('/api/v2/rest/brands', [named('B1', 'A')]);
    await a.api.post('/api/v2/rest/categories', [named('C1', 'A')]);
    await a.api.post('/api/v2/rest/parameters', [{ id: 7, name: 'Colour' }]);

    const res = await b.api.post('/api/v2/rest/products', [
      { ...named('P1', 'B'), brand_id: 'B1' },
      { ...named('P2', 'B'), categories_ids: ['C1'], parameters_ids: [7] },
    ]);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: false,
      imported: 0,
      updated: 0,
      skipped: 2,
      errors: [
        { index: 0, id: 'P1', errors: ['The selected brand_id is invalid.'] },
        {
          index: 1,
          id: 'P2',
          errors: ['The selected categories_ids.0 is invalid.', 'The selected parameters_ids.0 is invalid.'],
        },
      ],
    });
    expect(await rows('products', b.eshop.id)).toEqual([]);
  });

  test("when B's multi-import product refers to A's brand, then it is skipped while B's own brand is accepted", async () => {
    const a = await svc.eshop();
    const b = await svc.eshop();
    await a.api.post('/api/v2/rest/brands', [named('B-A', 'A')]);

    const res = await b.api.post('/api/v2/rest/multi-import', {
      brands: [named('B-B', 'B')],
      products: [
        { ...named('P1', 'B'), brand_id: 'B-A' },
        { ...named('P2', 'B'), brand_id: 'B-B' },
      ],
    });

    expect(res.status).toBe(200);
    expect(res.body.results.products).toEqual({
      imported: 1,
      updated: 0,
      skipped: 1,
      errors: [{ index: 0, id: 'P1', errors: ['The selected brand_id is invalid.'] }],
    });
    expect((await rows('products', b.eshop.id)).map((r) => r.external_id)).toEqual(['P2']);
    expect((await rows('brands', a.eshop.id)).map((r) => r.external_id)).toEqual(['B-A']);
  });

  test('when B imports parameters with the ids A uses, then B gets its own parameters and A values are untouched', async () => {
    const a = await svc.eshop();
    const b = await svc.eshop();
    await a.api.post('/api/v2/rest/parameters', [
      { id: 1, name: 'Colour', values: [{ id: 1, value: 'Red' }] },
    ]);

    const res = await b.api.post('/api/v2/rest/parameters', [
      { id: 1, name: 'Size', values: [{ id: 1, value: 'XL' }] },
    ]);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      imported: 1,
      updated: 0,
      skipped: 0,
      errors: [],
      values_imported: 1,
      values_updated: 0,
    });
    const valuesOf = (eshopId: number) =>
      svc.deps
        .db('parameter_values as v')
        .join('parameters as p', 'p.id', 'v.parameter_id')
        .where('v.eshop_id', eshopId)
        .select('p.name', 'v.value');
    expect(await valuesOf(a.eshop.id)).toEqual([{ name: 'Colour', value: 'Red' }]);
    expect(await valuesOf(b.eshop.id)).toEqual([{ name: 'Size', value: 'XL' }]);
  });

  test("when B imports variants for P1, then A's variants of P1 are kept", async () => {
    const a = await svc.eshop();
    const b = await svc.eshop();
    await a.api.post('/api/v2/rest/products', [{ ...named('P1', 'A'), variant: [{ code: 'A-V1' }] }]);

    await b.api.post('/api/v2/rest/products', [{ ...named('P1', 'B'), variant: [{ code: 'B-V1' }] }]);
    await b.api.post('/api/v2/rest/products', [{ ...named('P1', 'B'), variant: [] }]);

    const codesOf = (eshopId: number) =>
      svc.deps.db('product_variants').where({ eshop_id: eshopId }).orderBy('id').pluck('code');
    expect(await codesOf(a.eshop.id)).toEqual(['A-V1']);
    expect(await codesOf(b.eshop.id)).toEqual([]);
  });
});
