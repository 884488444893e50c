import { catalogueService } from './helpers';

const TABLES = [
  'parameters',
  'parameter_values',
  'categories',
  'brands',
  'products',
  'product_variants',
  'blogs',
] as const;

describe('catalogue-api: POST /api/v2/rest/multi-import', () => {
  const svc = catalogueService();

  /** The render-content jobs of one eshop (the queue is shared with other test files), in a stable order. */
  async function renderJobs(eshopId: number) {
    return (await svc.renderJobs(eshopId)).sort((a, b) =>
      `${a.entity_type}/${a.external_id}`.localeCompare(`${b.entity_type}/${b.external_id}`),
    );
  }

  function rows(table: string, eshopId: number) {
    return svc.deps.db(table).where({ eshop_id: eshopId }).orderBy('id');
  }

  /** How many rows each catalogue table holds for the eshop. */
  async function counts(eshopId: number): Promise<Record<string, number>> {
    const entries = await Promise.all(
      TABLES.map(async (table) => [table, (await rows(table, eshopId)).length] as const),
    );
    return Object.fromEntries(entries);
  }

  const named = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    name: { default: `Item ${id}` },
    ...extra,
  });
  const clean = { skipped: 0, errors: [] };

  test('when every section is sent and items refer to items of the same request, then everything is written in order and render jobs are queued', async () => {
    const shop = await svc.eshop();

    const res = await shop.api.post('/api/v2/rest/multi-import', {
      blogs: [named('BL1', { category: 'News' })],
      products: [
        named('P1', {
          brand_id: 'B1',
          categories_ids: ['C1', 'C2'],
          parameters_ids: [10],
          variant: [{ code: 'P1-A', ean: '123' }],
        }),
      ],
      brands: [named('B1', { image_preview: 'https://cdn.shop.test/b1.png' })],
      categories: [named('C1'), named('C2')],
      parameters: [
        {
          id: 10,
          name: 'Colour',
          values: [
            { id: 1, value: 'Red' },
            { id: 2, value: 'Blue' },
          ],
        },
      ],
    });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      results: {
        parameters: { imported: 1, updated: 0, ...clean, values_imported: 2, values_updated: 0 },
        categories: { imported: 2, updated: 0, ...clean },
        brands: { imported: 1, updated: 0, ...clean },
        products: { imported: 1, updated: 0, ...clean },
        blogs: { imported: 1, updated: 0, ...clean },
      },
    });
    expect(await counts(shop.eshop.id)).toEqual({
      parameters: 1,
      parameter_values: 2,
      categories: 2,
      brands: 1,
      products: 1,
      product_variants: 1,
      blogs: 1,
    });
    expect(await rows('products', shop.eshop.id)).toEqual([
      expect.objectContaining({
        external_id: 'P1',
        status: 'generate',
        brand_id: 'B1',
        categories_ids: ['C1', 'C2'],
        parameters_ids: [10],
      }),
    ]);
    expect(await rows('blogs', shop.eshop.id)).toEqual([
      expect.objectContaining({ external_id: 'BL1', category: 'News', status: 'generate' }),
    ]);
    const e = shop.eshop.id;
    expect(await renderJobs(e)).toEqual([
      { eshop_id: e, entity_type: 'blog', external_id: 'BL1' },
      { eshop_id: e, entity_type: 'brand', external_id: 'B1' },
      { eshop_id: e, entity_type: 'category', external_id: 'C1' },
      { eshop_id: e, entity_type: 'category', external_id: 'C2' },
      { eshop_id: e, entity_type: 'product', external_id: 'P1' },
    ]);
  });

  test('when items refer to ids that already exist, then the references are valid and re-sent items count as updated', async () => {
    const shop = await svc.eshop();
    await shop.api.post('/api/v2/rest/brands', [named('B1')]);
    await shop.api.post('/api/v2/rest/categories', [named('C1')]);
    await shop.api.post('/api/v2/rest/parameters', [
      { id: 10, name: 'Colour', values: [{ id: 1, value: 'Red' }] },
    ]);

    const res = await shop.api.post('/api/v2/rest/multi-import', {
      parameters: [
        {
          id: 10,
          name: 'Colour',
          values: [
            { id: 1, value: 'Dark red' },
            { id: 2, value: 'Blue' },
          ],
        },
      ],
      categories: [named('C1')],
      products: [named('P1', { brand_id: 'B1', categories_ids: ['C1'], parameters_ids: [10] })],
    });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      results: {
        parameters: { imported: 0, updated: 1, ...clean, values_imported: 1, values_updated: 1 },
        categories: { imported: 0, updated: 1, ...clean },
        products: { imported: 1, updated: 0, ...clean },
      },
    });
    expect(await rows('products', shop.eshop.id)).toEqual([
      expect.objectContaining({
        external_id: 'P1',
        brand_id: 'B1',
        categories_ids: ['C1'],
        parameters_ids: [10],
      }),
    ]);
    const values = await rows('parameter_values', shop.eshop.id);
    expect(values.map((v) => [Number(v.external_id), v.value])).toEqual([
      [1, 'Dark red'],
      [2, 'Blue'],
    ]);
  });

  test('when items of several sections are invalid, then they are skipped and reported per section and the valid ones are written', async () => {
    const shop = await svc.eshop();

    const res = await shop.api.post('/api/v2/rest/multi-import', {
      parameters: [
        { id: 1, name: 'Colour', values: [{ id: 1, value: 'Red' }] },
        {
          id: 2,
          name: 'Size',
          values: [
            { id: 1, value: 'S' },
            { id: 1, value: 'M' },
          ],
        },
      ],
      brands: [named('B1'), { id: 'B2' }],
      products: [
        named('P1', { brand_id: 'B2' }),
        named('P2', { brand_id: 'B1', is_visible: 'yes' }),
        named('P3', { brand_id: 'B1', parameters_ids: [1] }),
        named('P4', { parameters_ids: [1, 2] }),
      ],
      blogs: [named('BL1'), named('BL1')],
    });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: false,
      results: {
        parameters: {
          imported: 1,
          updated: 0,
          skipped: 1,
          errors: [{ index: 1, id: 2, errors: [expect.stringContaining('duplicate')] }],
          values_imported: 1,
          values_updated: 0,
        },
        brands: {
          imported: 1,
          updated: 0,
          skipped: 1,
          errors: [{ index: 1, id: 'B2', errors: ['The name field is required.'] }],
        },
        products: {
          imported: 1,
          updated: 0,
          skipped: 3,
          errors: [
            { index: 0, id: 'P1', errors: ['The selected brand_id is invalid.'] },
            { index: 1, id: 'P2', errors: ['The is_visible field must be true or false.'] },
            { index: 3, id: 'P4', errors: ['The selected parameters_ids.1 is invalid.'] },
          ],
        },
        blogs: {
          imported: 1,
          updated: 0,
          skipped: 1,
          errors: [{ index: 1, id: 'BL1', errors: ['The id field has a duplicate value.'] }],
        },
      },
    });
    expect((await rows('parameters', shop.eshop.id)).map((r) => Number(r.external_id))).toEqual([1]);
    expect((await rows('brands', shop.eshop.id)).map((r) => r.external_id)).toEqual(['B1']);
    expect((await rows('products', shop.eshop.id)).map((r) => r.external_id)).toEqual(['P3']);
    expect((await rows('blogs', shop.eshop.id)).map((r) => r.external_id)).toEqual(['BL1']);
    expect((await renderJobs(shop.eshop.id)).map((j) => j.external_id)).toEqual(['BL1', 'B1', 'P3']);
  });

  test('when a non-default language is null, then it is removed from the stored map', async () => {
    const shop = await svc.eshop();
    await shop.api.post('/api/v2/rest/products', [
      {
        id: 'P1',
        name: { default: 'Chair', cs: 'Židle', en: 'Chair EN' },
        url: { cs: 'https://shop.test/cs' },
      },
    ]);

    const res = await shop.api.post('/api/v2/rest/multi-import', {
      products: [{ id: 'P1', name: { default: 'Chair', cs: null }, url: { cs: null } }],
    });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, results: { products: { imported: 0, updated: 1, ...clean } } });
    expect(await rows('products', shop.eshop.id)).toEqual([
      expect.objectContaining({ name: { default: 'Chair', en: 'Chair EN' }, url: {}, status: 'generate' }),
    ]);
  });

  test('when the default language is null, then the item is skipped and reported', async () => {
    const shop = await svc.eshop();

    const res = await shop.api.post('/api/v2/rest/multi-import', {
      categories: [{ id: 'C1', name: { default: null, cs: 'Židle' } }],
    });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: false,
      results: {
        categories: {
          imported: 0,
          updated: 0,
          skipped: 1,
          errors: [{ index: 0, id: 'C1', errors: [expect.stringContaining('name.default')] }],
        },
      },
    });
    expect(await rows('categories', shop.eshop.id)).toEqual([]);
  });

  test('when every name language sent is null, then an item left without any name is skipped and reported, and one that keeps a name is written', async () => {
    const shop = await svc.eshop({ languages: ['default', 'cs', 'en'] });
    await shop.api.post('/api/v2/rest/products', [
      { id: 'P-CS', name: { cs: 'Židle' } },
      { id: 'P-BOTH', name: { default: 'Chair', cs: 'Židle' } },
    ]);
    const before = await rows('products', shop.eshop.id);

    const res = await shop.api.post('/api/v2/rest/multi-import', {
      products: [
        { id: 'P-NEW', name: { cs: null } },
        { id: 'P-CS', name: { cs: null } },
        { id: 'P-BOTH', name: { cs: null } },
      ],
    });

    expect(res.status).toBe(200);
    const nameless = ['The name field is required.'];
    expect(res.body).toEqual({
      success: false,
      results: {
        products: {
          imported: 0,
          updated: 1,
          skipped: 2,
          errors: [
            { index: 0, id: 'P-NEW', errors: nameless },
            { index: 1, id: 'P-CS', errors: nameless },
          ],
        },
      },
    });
    const after = await rows('products', shop.eshop.id);
    const byId = (list: typeof after, id: string) => list.find((row) => row.external_id === id);
    expect(after).toHaveLength(2);
    expect(byId(after, 'P-BOTH').name).toEqual({ default: 'Chair' });
    expect(byId(after, 'P-CS')).toEqual(byId(before, 'P-CS'));
  });

  test('when a section is an empty array, then it is reported with zero counts', async () => {
    const shop = await svc.eshop();

    const res = await shop.api.post('/api/v2/rest/multi-import', { brands: [] });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, results: { brands: { imported: 0, updated: 0, ...clean } } });
  });

  describe('request-level errors', () => {
    test.each([
      { case: 'an array', body: [named('P1')], field: 'body' },
      { case: 'an object without sections', body: {}, field: 'body' },
      { case: 'an object with unknown sections only', body: { items: [named('P1')] }, field: 'body' },
      {
        case: 'an object with a section that is not an array',
        body: { brands: [named('B1')], products: named('P1') },
        field: 'products',
      },
    ])('when the body is $case, then 422 naming $field and nothing is written', async ({ body, field }) => {
      const shop = await svc.eshop();

      const res = await shop.api.post('/api/v2/rest/multi-import', body);

      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: 'The given data was invalid.',
        code: 'validation_failed',
        errors: { [field]: [expect.any(String)] },
      });
      expect(Object.values(await counts(shop.eshop.id)).every((n) => n === 0)).toBe(true);
    });

    test('when one section has 101 items, then 422 with the bulk error and no section is written', async () => {
      const shop = await svc.eshop();

      const res = await shop.api.post('/api/v2/rest/multi-import', {
        brands: [named('B1')],
        products: Array.from({ length: 101 }, (_, i) => named(`P${i}`)),
      });

      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        success: false,
        errors: { bulk: ['Maximum 100 items allowed for bulk import'] },
        code: 'bulk_limit_exceeded',
      });
      expect(await counts(shop.eshop.id)).toMatchObject({ brands: 0, products: 0 });
      expect(await renderJobs(shop.eshop.id)).toEqual([]);
    });

    test('when every section has 100 items, then all of them are written', async () => {
      const shop = await svc.eshop();
      const hundred = (prefix: string) => Array.from({ length: 100 }, (_, i) => named(`${prefix}${i}`));

      const res = await shop.api.post('/api/v2/rest/multi-import', {
        parameters: Array.from({ length: 100 }, (_, i) => ({ id: i + 1, name: `Parameter ${i}` })),
        categories: hundred('C'),
        brands: hundred('B'),
        products: hundred('P'),
        blogs: hundred('BL'),
      });

      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(await counts(shop.eshop.id)).toMatchObject({
        parameters: 100,
        categories: 100,
        brands: 100,
        products: 100,
        blogs: 100,
      });
    });

    test('when no token is sent, then 401 and nothing is written', async () => {
      const shop = await svc.eshop();

      const res = await fetch(`${svc.url}/api/v2/rest/multi-import`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ brands: [named('B1')] }),
      });

      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: 'Authorization token required', code: 'token_missing' });
      expect(await counts(shop.eshop.id)).toMatchObject({ brands: 0 });
    });
  });

  describe('all or nothing', () => {
    const triggers: string[] = [];

    // Inside this describe block, so it runs before the service's own afterAll closes the pool.
    afterAll(async () => {
      for (const name of triggers) {
        await svc.deps.db.raw(`drop trigger if exists ${name} on blogs`);
        await svc.deps.db.raw(`drop function if exists ${name}()`);
      }
    });

    /** A real failure inside the transaction: a trigger refuses the blog 'BOOM' of one eshop. */
    async function failBlogBoom(eshopId: number): Promise<void> {
      const name = `multi_import_boom_${eshopId}`;
      await svc.deps.db.raw(`
        create function ${name}() returns trigger language plpgsql as $$
        begin
          if new.eshop_id = ${eshopId} and new.external_id = 'BOOM' then
            raise exception 'injected failure';
          end if;
          return new;
        end $$`);
      triggers.push(name);
      await svc.deps.db.raw(
        `create trigger ${name} before insert on blogs for each row execute function ${name}()`,
      );
    }

    test('when the database fails while writing the last section, then 500 and nothing of any section is written or queued', async () => {
      const shop = await svc.eshop();
      await shop.api.post('/api/v2/rest/categories', [named('C0', { name: { default: 'Before' } })]);
      const categoriesBefore = await rows('categories', shop.eshop.id);
      const jobsBefore = await renderJobs(shop.eshop.id);
      await failBlogBoom(shop.eshop.id);

      const body = {
        parameters: [{ id: 10, name: 'Colour', values: [{ id: 1, value: 'Red' }] }],
        categories: [named('C0', { name: { default: 'After' } }), named('C1')],
        brands: [named('B1')],
        products: [named('P1', { brand_id: 'B1', categories_ids: ['C1'], variant: [{ code: 'V1' }] })],
        blogs: [named('BL1'), named('BOOM')],
      };

      const res = await shop.api.post('/api/v2/rest/multi-import', body);

      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        error: expect.any(String),
        request_id: expect.any(String),
        code: 'internal',
      });
      expect(JSON.stringify(res.body)).not.toContain('injected failure');
      expect(res.headers.get('x-request-id')).toBe(res.body.request_id);
      expect(await counts(shop.eshop.id)).toEqual({
        parameters: 0,
        parameter_values: 0,
        categories: 1,
        brands: 0,
        products: 0,
        product_variants: 0,
        blogs: 0,
      });
      expect(await rows('categories', shop.eshop.id)).toEqual(categoriesBefore);
      expect(await renderJobs(shop.eshop.id)).toEqual(jobsBefore);
      // The same request without the refused blog goes through: the failure was the injected one.
      const retry = await shop.api.post('/api/v2/rest/multi-import', { ...body, blogs: [named('BL1')] });
      expect(retry.status).toBe(200);
      expect(retry.body.success).toBe(true);
    });
  });
});
