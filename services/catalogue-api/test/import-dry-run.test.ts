// `?dry_run=true` on every import (an extension): the answer is the real call's, plus a summary,
// and nothing of the eshop changes — no rows in any table, no events, no render jobs, no
// Idempotency-Key outcome. Against the real Postgres, Redis and BullMQ queue.
import { catalogueService, type Client } from './helpers';

type Shop = Awaited<ReturnType<ReturnType<typeof catalogueService>['eshop']>>;

describe('catalogue-api: dry-run imports', () => {
  const svc = catalogueService();
  let tables: string[] = [];

  beforeAll(async () => {
    // Every table that holds an eshop's rows: the snapshot below covers whatever an import touches.
    tables = (
      await svc.deps
        .db('information_schema.columns')
        .where({ table_schema: 'public', column_name: 'eshop_id' })
        .orderBy('table_name')
        .pluck<string[]>('table_name')
    ).filter((t) => !t.startsWith('knex_'));
    expect(tables).toEqual(expect.arrayContaining(['products', 'events', 'idempotency_keys']));
  });

  /** Every row of the eshop in every such table (and its render jobs), to compare before/after. */
  async function snapshot(eshopId: number) {
    const rows: Record<string, unknown[]> = {};
    for (const table of tables) {
      rows[table] = await svc.deps.db(table).where({ eshop_id: eshopId }).orderByRaw('1, 2');
    }
    return { rows, jobs: await svc.renderJobs(eshopId) };
  }

  /** The dry run's answer without what it adds: what the real call must answer. */
  function asReal(body: unknown) {
    expect(body).toHaveProperty('dry_run', true);
    return Object.fromEntries(
      Object.entries(body ?? {}).filter(([key]) => key !== 'dry_run' && key !== 'summary'),
    );
  }

  /** Dry run, check nothing changed, then the real call: both answers agree. */
  async function dryThenReal<P extends string>(shop: Shop, path: P, body: unknown) {
    const before = await snapshot(shop.eshop.id);
    const dry = await shop.api.post(`${path}?dry_run=true`, body);
    expect(dry.status).toBe(200);
    expect(await snapshot(shop.eshop.id)).toEqual(before);
    const real = await shop.api.post(path, body);
    expect(real.status).toBe(200);
    expect(real.body).toEqual(asReal(dry.body));
    expect(real.body).not.toHaveProperty('summary');
    return { dry: dry.body, real: real.body };
  }

  const named = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    name: { default: `Item ${id}` },
    ...extra,
  });

  async function seed(api: Client) {
    await api.post('/api/v2/rest/parameters', [
      { id: 10, name: 'Colour', values: [{ id: 100, value: 'Red' }] },
    ]);
    await api.post('/api/v2/rest/brands', [named('B1')]);
    await api.post('/api/v2/rest/categories', [named('C1')]);
    await api.post('/api/v2/rest/products', [
      named('P1', { brand_id: 'B1' }),
      named('P2', { categories_ids: ['C1'], variant: [{ code: 'P2-A' }] }),
    ]);
  }

  test('when v2 products mix new, changed, unchanged and invalid items, then the dry run answers the real call, says what it would do and writes nothing', async () => {
    const shop = await svc.eshop();
    await seed(shop.api);
    const body = [
      named('P1', { brand_id: 'B1', is_visible: false }), // updated
      named('P2', { categories_ids: ['C1'], variant: [{ code: 'P2-A' }] }), // unchanged
      named('P3', { parameters_ids: [10, 100], variant: [{ code: 'P3-A', ean: '1' }] }), // created
      { id: 'P4' }, // no name
      named('P5', { brand_id: 'NOPE' }), // unknown reference
      named('P3'), // duplicate
      'not an object',
    ];

    const { dry } = await dryThenReal(shop, '/api/v2/rest/products', body);

    expect(dry).toMatchObject({ success: false, imported: 1, updated: 2, skipped: 4, dry_run: true });
    expect(dry.summary).toEqual({ product: { created: 1, updated: 1, unchanged: 1 } });
    expect(dry.errors.map((e: { index: number }) => e.index)).toEqual([3, 4, 5, 6]);
  });

  test('when v1 products and categories are tried, then the answers match the real calls', async () => {
    const shop = await svc.eshop();
    await shop.api.post('/api/v1/categories/bulk-import', [{ id: 'C1', name: 'Chairs' }]);

    const categories = await dryThenReal(shop, '/api/v1/categories/bulk-import', [
      { id: 'C1', name: 'Chairs' },
      { id: 'C2', name: 'Tables' },
      { id: 'C3' },
    ]);
    expect(categories.dry.summary).toEqual({ category: { created: 1, updated: 0, unchanged: 1 } });
    expect(categories.dry.errors).toHaveLength(1);

    const products = await dryThenReal(shop, '/api/v1/products/bulk-import', [
      { id: 'P1', name: 'Chair', categories_ids: ['C2'] },
      { id: 'P2', name: 'Lost', categories_ids: ['C9'] },
    ]);
    expect(products.dry.summary).toEqual({ product: { created: 1, updated: 0, unchanged: 0 } });
    expect(products.dry.errors).toEqual([
      { index: 1, id: 'P2', errors: ['The selected categories_ids.0 is invalid.'] },
    ]);
  });

  test.each(['/api/v1/parameters/bulk-import', '/api/v2/rest/parameters'] as const)(
    'when parameters are tried on %s, then parameters and values are told created, updated and unchanged',
    async (path) => {
      const shop = await svc.eshop();
      await shop.api.post(path, [
        {
          id: 1,
          name: 'Colour',
          values: [
            { id: 10, value: 'Red' },
            { id: 11, value: 'Blue' },
          ],
        },
        { id: 2, name: 'Size', name_translations: { cs: 'Velikost' } },
        { id: 4, name: 'Weight' },
      ]);

      const { dry } = await dryThenReal(shop, path, [
        {
          id: 1,
          name: 'Colour',
          values: [
            { id: 10, value: 'Red' },
            { id: 11, value: 'Navy' },
            { id: 12, value: 'Green' },
          ],
        },
        { id: 2, name: 'Size', name_translations: { cs: 'Rozměr' } },
        { id: 3, name: 'Material' },
        { id: 4, name: 'Mass' },
        { id: 'x', name: 'Bad id' },
        { id: 3, name: 'Again' },
      ]);

      expect(dry).toMatchObject({
        imported: 1,
        updated: 3,
        values_imported: 1,
        values_updated: 2,
        skipped: 2,
      });
      expect(dry.summary).toEqual({
        parameter: { created: 1, updated: 2, unchanged: 1 },
        parameter_value: { created: 1, updated: 1, unchanged: 1 },
      });
    },
  );

  test('when a multi-import is tried, then later sections see earlier ones inside the dry run and nothing stays', async () => {
    const shop = await svc.eshop();
    await seed(shop.api);
    const body = {
      parameters: [{ id: 20, name: 'Size', values: [{ id: 200, value: 'L' }] }],
      categories: [named('C1'), named('C2')],
      brands: [named('B2')],
      products: [
        named('P9', { brand_id: 'B2', categories_ids: ['C2'], parameters_ids: [20] }),
        named('P8', { brand_id: 'B3' }),
        named('P1', { brand_id: 'B1' }),
      ],
      blogs: [named('BL1'), { id: 'BL2', name: { default: null } }],
    };

    const { dry, real } = await dryThenReal(shop, '/api/v2/rest/multi-import', body);

    expect(real.success).toBe(false);
    expect(dry.summary).toEqual({
      parameter: { created: 1, updated: 0, unchanged: 0 },
      parameter_value: { created: 1, updated: 0, unchanged: 0 },
      category: { created: 1, updated: 0, unchanged: 1 },
      brand: { created: 1, updated: 0, unchanged: 0 },
      product: { created: 1, updated: 0, unchanged: 1 },
      blog: { created: 1, updated: 0, unchanged: 0 },
    });
    expect(await svc.renderJobs(shop.eshop.id)).toEqual(
      expect.arrayContaining([expect.objectContaining({ external_id: 'P9' })]),
    );
  });

  test('when a dry run carries an Idempotency-Key, then no key is kept and the real call with that key writes', async () => {
    const shop = await svc.eshop();
    const key = `dry-${process.pid}-${Date.now()}`;
    const post = (query: string) =>
      fetch(`${svc.url}/api/v2/rest/brands${query}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${shop.apiToken}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': key,
        },
        body: JSON.stringify([named('B1')]),
      });

    const dry = await post('?dry_run=true');
    const dryAgain = await post('?dry_run=1');
    expect(await svc.deps.db('idempotency_keys').where({ eshop_id: shop.eshop.id })).toEqual([]);
    const real = await post('');
    const replay = await post('');

    expect(await dry.json()).toMatchObject({ imported: 1, dry_run: true });
    expect(dryAgain.headers.get('idempotent-replayed')).toBeNull();
    expect(await dryAgain.json()).toMatchObject({ imported: 1, dry_run: true });
    expect(await real.json()).toEqual({ success: true, imported: 1, updated: 0, skipped: 0, errors: [] });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await svc.deps.db('brands').where({ eshop_id: shop.eshop.id }).pluck('external_id')).toEqual([
      'B1',
    ]);
  });

  test('when another eshop holds the ids, then the dry run sees only its own eshop and changes neither', async () => {
    const owner = await svc.eshop();
    await seed(owner.api);
    const other = await svc.eshop();
    const ownerBefore = await snapshot(owner.eshop.id);

    const { dry } = await dryThenReal(other, '/api/v2/rest/products', [
      named('P1', { brand_id: 'B1' }),
      named('P2', { categories_ids: ['C1'], parameters_ids: [10] }),
      named('P3'),
    ]);

    expect(dry.summary).toEqual({ product: { created: 1, updated: 0, unchanged: 0 } });
    expect(dry.errors).toEqual([
      { index: 0, id: 'P1', errors: ['The selected brand_id is invalid.'] },
      {
        index: 1,
        id: 'P2',
        errors: ['The selected categories_ids.0 is invalid.', 'The selected parameters_ids.0 is invalid.'],
      },
    ]);
    expect(await snapshot(owner.eshop.id)).toEqual(ownerBefore);
  });

  test('when a dry run and a real import of the same items run at once, then both finish and only the real one is kept', async () => {
    const shop = await svc.eshop();
    await seed(shop.api);
    const body = Array.from({ length: 40 }, (_, i) => named(`P${i}`, { brand_id: 'B1' }));

    const [dry, real] = await Promise.all([
      shop.api.post('/api/v2/rest/products?dry_run=true', body),
      shop.api.post('/api/v2/rest/products', body),
    ]);

    expect(dry.status).toBe(200);
    expect(real.status).toBe(200);
    // The dry run ran before or after the real import (it waits on the same row locks): either
    // way its answer adds up to the 40 items, and the summary to the answer.
    expect(dry.body.imported + dry.body.updated).toBe(40);
    const product = dry.body.summary?.product;
    if (!product) throw new Error('the dry run answered no product summary');
    const { created, updated, unchanged } = product;
    expect([created, updated + unchanged]).toEqual([dry.body.imported, dry.body.updated]);
    expect(real.body).toMatchObject({ imported: 38, updated: 2, skipped: 0 });
    const events = await svc.deps.db('events').where({ eshop_id: shop.eshop.id, entity_type: 'product' });
    // Two seeded products, then the real import's 39 (P1 is sent unchanged): the dry run's events were rolled back.
    expect(events).toHaveLength(41);
    expect(await svc.deps.db('products').where({ eshop_id: shop.eshop.id })).toHaveLength(40);
  });

  test.each([
    ['/api/v2/rest/products', 'yes'],
    ['/api/v2/rest/multi-import', 'maybe'],
    ['/api/v1/parameters/bulk-import', '2'],
  ])(
    'when %s gets dry_run=%s, then 422 validation_failed names the parameter and nothing is written',
    async (path, value) => {
      const shop = await svc.eshop();
      const before = await snapshot(shop.eshop.id);
      const body = path.endsWith('multi-import')
        ? { brands: [named('B1')] }
        : path.includes('parameters')
          ? [{ id: 1, name: 'x' }]
          : [named('P1')];

      const res = await shop.api.post(`${path}?dry_run=${value}`, body);

      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: 'The given data was invalid.',
        code: 'validation_failed',
        errors: { dry_run: ['The dry_run field must be true or false.'] },
      });
      expect(await snapshot(shop.eshop.id)).toEqual(before);
    },
  );

  test('when a dry run gets a body of the wrong shape or over the limit, then it is refused as the real call is', async () => {
    const shop = await svc.eshop();
    for (const [path, body] of [
      ['/api/v2/rest/brands', { not: 'an array' }],
      ['/api/v2/rest/multi-import', []],
      ['/api/v2/rest/multi-import', { brands: 'x' }],
      ['/api/v2/rest/brands', Array.from({ length: 101 }, (_, i) => named(`B${i}`))],
    ] as const) {
      const dry = await shop.api.post(`${path}?dry_run=true`, body);
      const real = await shop.api.post(path, body);
      expect([dry.status, dry.body]).toEqual([real.status, real.body]);
      expect(dry.status).toBe(422);
    }
    expect(await svc.deps.db('brands').where({ eshop_id: shop.eshop.id })).toEqual([]);
  });

  test('when dry_run is false, 0 or empty, then the import is real', async () => {
    const shop = await svc.eshop();
    for (const [i, value] of ['false', '0', ''].entries()) {
      const res = await shop.api.post(`/api/v2/rest/brands?dry_run=${value}`, [named(`B${i}`)]);
      expect(res.body).toEqual({ success: true, imported: 1, updated: 0, skipped: 0, errors: [] });
    }
    expect(await svc.deps.db('brands').where({ eshop_id: shop.eshop.id })).toHaveLength(3);
  });
});
