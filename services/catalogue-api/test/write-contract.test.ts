import { importEntities } from '../src/services/entity-import';
import { catalogueService } from './helpers';

/**
 * The reproduction of a cross-table write: a field outside an entity's write contract (here `variant`, which only
 * v2 products have) is ignored by every other import, whatever its shape, and never writes
 * another table; the item's own fields are imported.
 */
describe('catalogue-api: fields outside the write contract are ignored', () => {
  const svc = catalogueService();

  const VARIANT = [{ code: 'X', ean: '1' }];

  /** Every import path that has no `variant` field: where to post, and how to read back the item. */
  const PATHS = [
    {
      label: 'v2 categories',
      path: '/api/v2/rest/categories',
      table: 'categories',
      v1: false,
      section: null,
    },
    { label: 'v2 brands', path: '/api/v2/rest/brands', table: 'brands', v1: false, section: null },
    { label: 'v2 blogs', path: '/api/v2/rest/blogs', table: 'blogs', v1: false, section: null },
    {
      label: 'multi-import categories',
      path: '/api/v2/rest/multi-import',
      table: 'categories',
      v1: false,
      section: 'categories',
    },
    {
      label: 'multi-import brands',
      path: '/api/v2/rest/multi-import',
      table: 'brands',
      v1: false,
      section: 'brands',
    },
    {
      label: 'multi-import blogs',
      path: '/api/v2/rest/multi-import',
      table: 'blogs',
      v1: false,
      section: 'blogs',
    },
    {
      label: 'v1 products',
      path: '/api/v1/products/bulk-import',
      table: 'products',
      v1: true,
      section: null,
    },
    {
      label: 'v1 categories',
      path: '/api/v1/categories/bulk-import',
      table: 'categories',
      v1: true,
      section: null,
    },
  ] as const;

  type Path = (typeof PATHS)[number];

  function item(path: Path, variant: unknown): Record<string, unknown> {
    return path.v1
      ? { id: 'I1', name: 'Garden', description: '<p>Green</p>', is_visible: false, variant }
      : {
          id: 'I1',
          name: { default: 'Garden', cs: 'Zahrada' },
          description: { default: '<p>Green</p>' },
          is_visible: false,
          variant,
        };
  }

  const body = (path: Path, items: unknown[]) => (path.section ? { [path.section]: items } : items);
  const counts = (path: Path, res: { body: Record<string, unknown> }) =>
    (path.section ? (res.body.results as Record<string, unknown>)[path.section] : res.body) as Record<
      string,
      unknown
    >;

  test.each(PATHS)(
    'when $label get an item with a variant, then 200, the item is imported without it and no variant row is written',
    async (path) => {
      // Another eshop's product: the category's internal id used to be taken for a product id.
      const other = await svc.eshop();
      await other.api.post('/api/v2/rest/products', [{ id: 'P1', name: { default: 'Theirs' } }]);
      const shop = await svc.eshop();

      const res = await shop.api.post(path.path, body(path, [item(path, VARIANT)]));

      expect(res.status).toBe(200);
      expect(counts(path, res)).toMatchObject({ imported: 1, updated: 0, skipped: 0, errors: [] });
      const [row] = await svc.deps.db(path.table).where({ eshop_id: shop.eshop.id });
      expect(row).toMatchObject({
        external_id: 'I1',
        is_visible: false,
        name: path.v1 ? { default: 'Garden' } : { default: 'Garden', cs: 'Zahrada' },
        description: { default: '<p>Green</p>' },
      });
      expect(await svc.deps.db('product_variants').where({ eshop_id: shop.eshop.id })).toEqual([]);
      expect(await svc.deps.db('product_variants').where({ eshop_id: other.eshop.id })).toEqual([]);
    },
  );

  const BAD_VARIANTS: [string, unknown][] = [
    ['a string', 'x'],
    ['[null]', [null]],
    ['[{}]', [{}]],
    ['a 256-character code', [{ code: 'c'.repeat(256), ean: '1' }]],
    ['1,001 variants', Array.from({ length: 1001 }, (_, i) => ({ code: `V${i}` }))],
  ];

  test.each(PATHS.flatMap((path) => BAD_VARIANTS.map(([shape, variant]) => ({ ...path, shape, variant }))))(
    'when $label get an item whose variant is $shape, then 200 and the item is imported (not a 500)',
    async ({ shape: _shape, variant, ...path }) => {
      const shop = await svc.eshop();

      const res = await shop.api.post(path.path, body(path, [item(path, variant)]));

      expect(res.status).toBe(200);
      expect(counts(path, res)).toMatchObject({ imported: 1, skipped: 0 });
      expect(await svc.deps.db(path.table).where({ eshop_id: shop.eshop.id }).pluck('external_id')).toEqual([
        'I1',
      ]);
      expect(await svc.deps.db('product_variants').where({ eshop_id: shop.eshop.id })).toEqual([]);
    },
  );

  test('when a v2 product has a variant of a wrong shape, then that item is reported and the others are imported', async () => {
    const shop = await svc.eshop();
    const name = { default: 'Chair' };

    const res = await shop.api.post('/api/v2/rest/products', [
      { id: 'P1', name, variant: 'x' },
      { id: 'P2', name, variant: [null] },
      { id: 'P3', name, variant: [{}] },
      { id: 'P4', name, variant: [{ code: 'c'.repeat(256) }] },
      { id: 'P5', name, variant: [{ code: 'OK', ean: null, colour: 'red' }] },
    ]);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: false,
      imported: 1,
      updated: 0,
      skipped: 4,
      errors: [
        { index: 0, id: 'P1', errors: ['The variant field must be an array.'] },
        { index: 1, id: 'P2', errors: ['The variant.0 field must be an object.'] },
        { index: 2, id: 'P3', errors: ['The variant.0.code field is required.'] },
        { index: 3, id: 'P4', errors: ['The variant.0.code field must not be greater than 255 characters.'] },
      ],
    });
    expect(
      await svc.deps.db('product_variants').where({ eshop_id: shop.eshop.id }).select('code', 'ean'),
    ).toEqual([{ code: 'OK', ean: null }]);
  });

  test('when a v1 item carries v2 fields (seo_title as a map or a string), then they are ignored and nothing else is written', async () => {
    const shop = await svc.eshop();

    const res = await shop.api.post('/api/v1/products/bulk-import', [
      { id: 'P1', name: 'Chair', seo_title: { cs: 'Židle' }, seo_description: 'abc' },
      { id: 'P2', name: 'Table', seo_title: 'abc', short_description: 'Short' },
    ]);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, imported: 2, updated: 0, skipped: 0, errors: [] });
    const rows = await svc.deps
      .db('products')
      .where({ eshop_id: shop.eshop.id })
      .orderBy('external_id')
      .select('external_id', 'name', 'seo_title', 'seo_description', 'short_description');
    expect(rows).toEqual([
      {
        external_id: 'P1',
        name: { default: 'Chair' },
        seo_title: {},
        seo_description: {},
        short_description: {},
      },
      {
        external_id: 'P2',
        name: { default: 'Table' },
        seo_title: {},
        seo_description: {},
        short_description: { default: 'Short' },
      },
    ]);
  });

  test('when the write path itself is handed a category with variants, then it writes no variant row', async () => {
    // Second line of defence: even an item that slipped past the projection cannot write variants.
    const shop = await svc.eshop();

    const outcome = await svc.deps.db.transaction((trx) =>
      importEntities(trx, shop.eshop.id, 'category', [
        { index: 0, item: { id: 'C1', name: { default: 'Chairs' }, variant: VARIANT } },
      ]),
    );

    expect(outcome).toMatchObject({ imported: 1, updated: 0, errors: [] });
    expect(await svc.deps.db('product_variants').where({ eshop_id: shop.eshop.id })).toEqual([]);
  });

  test('when an unknown field holds text PostgreSQL cannot store, then it is ignored like any unknown field', async () => {
    const shop = await svc.eshop();

    const res = await shop.api.post('/api/v2/rest/brands', [
      { id: 'B1', name: { default: 'Acme' }, note: 'a\u0000b' },
    ]);

    expect(res.body).toMatchObject({ success: true, imported: 1 });
  });
});
