// A product links its own parameter values (docs/decisions/0032-a-product-shows-only-its-own.md, "A product shows only its own
// parameter values"): value ids in parameters_ids, parameter ids, and the parameter_values
// extension, in v1, v2 and multi-import; unknown, foreign and ambiguous ids are the item's error;
// the links are stored with the eshop in their keys and re-imports replace them.
import { catalogueService } from './helpers';

describe('catalogue-api: product parameter links', () => {
  const svc = catalogueService();

  /** Weight (values 101, 102), Colour (values 201, 202, and 101: shared with Weight), Season (301). */
  const PARAMETERS = [
    {
      id: 10,
      name: 'Weight',
      values: [
        { id: 101, value: '280 g' },
        { id: 102, value: '1.9 kg' },
      ],
    },
    {
      id: 20,
      name: 'Colour',
      values: [
        { id: 201, value: 'Red' },
        { id: 202, value: 'Green' },
        { id: 101, value: 'Blue' },
      ],
    },
    { id: 30, name: 'Season', values: [{ id: 301, value: 'All year' }] },
  ];

  /** The stored links of a product as [parameter external id, value or null], in position order. */
  async function links(eshopId: number, product: string): Promise<[number, string | null][]> {
    const rows = await svc.deps
      .db('product_parameter_values as l')
      .join('products as p', (j) => j.on('p.eshop_id', 'l.eshop_id').andOn('p.id', 'l.product_id'))
      .join('parameters as par', (j) => j.on('par.eshop_id', 'l.eshop_id').andOn('par.id', 'l.parameter_id'))
      .leftJoin('parameter_values as v', (j) => j.on('v.eshop_id', 'l.eshop_id').andOn('v.id', 'l.value_id'))
      .where({ 'l.eshop_id': eshopId, 'p.external_id': product })
      .orderBy('l.position')
      .select<{ parameter: number; value: string | null }[]>('par.external_id as parameter', 'v.value');
    return rows.map((r) => [r.parameter, r.value]);
  }

  async function shopWithParameters() {
    const shop = await svc.eshop();
    const res = await shop.api.post('/api/v2/rest/parameters', PARAMETERS);
    expect(res.body.success).toBe(true);
    return shop;
  }

  const product = (id: string, fields: Record<string, unknown>) => ({ id, name: { default: id }, ...fields });

  test('when a v2 product names a parameter id, a value id and explicit pairs, then exactly those links are stored, in order', async () => {
    const shop = await shopWithParameters();

    const res = await shop.api.post('/api/v2/rest/products', [
      product('P1', {
        parameters_ids: [30, 102, 10],
        parameter_values: [{ parameter_id: 20, value_ids: [202, 101] }],
      }),
    ]);

    expect(res.body).toEqual({ success: true, imported: 1, updated: 0, skipped: 0, errors: [] });
    expect(await links(shop.eshop.id, 'P1')).toEqual([
      [30, null],
      [10, '1.9 kg'],
      [10, null],
      [20, 'Green'],
      [20, 'Blue'],
    ]);
    const stored = await svc.deps.db('products').where({ eshop_id: shop.eshop.id }).first();
    expect(stored).toMatchObject({
      parameters_ids: [30, 102, 10],
      parameter_values: [{ parameter_id: 20, value_ids: [202, 101] }],
    });
  });

  test('when ids name nothing, another parameter’s value or values of two parameters, then the item is skipped with each problem and nothing is stored', async () => {
    const shop = await shopWithParameters();

    const res = await shop.api.post('/api/v2/rest/products', [
      product('P1', {
        parameters_ids: [10, 999, 101],
        parameter_values: [
          { parameter_id: 10, value_ids: [101, 201] },
          { parameter_id: 77, value_ids: [101] },
        ],
      }),
      product('P2', { parameters_ids: [301] }),
    ]);

    expect(res.body).toEqual({
      success: false,
      imported: 1,
      updated: 0,
      skipped: 1,
      errors: [
        {
          index: 0,
          id: 'P1',
          errors: [
            'The selected parameters_ids.1 is invalid.',
            'The selected parameters_ids.2 is ambiguous.',
            'The selected parameter_values.0.value_ids.1 is invalid.',
            'The selected parameter_values.1.parameter_id is invalid.',
          ],
        },
      ],
    });
    expect(await svc.deps.db('products').where({ eshop_id: shop.eshop.id }).pluck('external_id')).toEqual([
      'P2',
    ]);
    expect(await links(shop.eshop.id, 'P2')).toEqual([[30, 'All year']]);
  });

  test('when a product names another eshop’s parameter or value ids, then they are invalid and it links nothing there', async () => {
    const theirs = await shopWithParameters();
    const mine = await svc.eshop();
    await mine.api.post('/api/v2/rest/parameters', [
      { id: 40, name: 'Mine', values: [{ id: 401, value: 'x' }] },
    ]);

    const res = await mine.api.post('/api/v2/rest/products', [
      product('P1', { parameters_ids: [102], parameter_values: [{ parameter_id: 40, value_ids: [201] }] }),
    ]);

    expect(res.body.errors).toEqual([
      {
        index: 0,
        id: 'P1',
        errors: [
          'The selected parameters_ids.0 is invalid.',
          'The selected parameter_values.0.value_ids.0 is invalid.',
        ],
      },
    ]);
    expect(
      await svc.deps.db('product_parameter_values').whereIn('eshop_id', [mine.eshop.id, theirs.eshop.id]),
    ).toEqual([]);
  });

  test('when a number is both a parameter id and a value id, then the parameter wins', async () => {
    const shop = await shopWithParameters();
    // Value 10 of Colour has the id of the parameter Weight.
    await shop.api.post('/api/v2/rest/parameters', [
      { id: 20, name: 'Colour', values: [{ id: 10, value: 'White' }] },
    ]);

    const res = await shop.api.post('/api/v2/rest/products', [product('P1', { parameters_ids: [10] })]);

    expect(res.body.success).toBe(true);
    expect(await links(shop.eshop.id, 'P1')).toEqual([[10, null]]);
  });

  test('when a product is re-imported, then its links are replaced; a field not sent keeps its part', async () => {
    const shop = await shopWithParameters();
    await shop.api.post('/api/v2/rest/products', [
      product('P1', { parameters_ids: [102], parameter_values: [{ parameter_id: 20, value_ids: [201] }] }),
    ]);

    await shop.api.post('/api/v2/rest/products', [product('P1', { parameters_ids: [301] })]);
    expect(await links(shop.eshop.id, 'P1')).toEqual([
      [30, 'All year'],
      [20, 'Red'],
    ]);

    await shop.api.post('/api/v2/rest/products', [product('P1', { parameter_values: [] })]);
    expect(await links(shop.eshop.id, 'P1')).toEqual([[30, 'All year']]);
  });

  test('when a linked value or parameter is deleted, then its links go with it', async () => {
    const shop = await shopWithParameters();
    await shop.api.post('/api/v2/rest/products', [product('P1', { parameters_ids: [102, 30, 202] })]);

    await svc.deps.db('parameter_values').where({ eshop_id: shop.eshop.id, external_id: 102 }).delete();
    await svc.deps.db('parameters').where({ eshop_id: shop.eshop.id, external_id: 30 }).delete();

    expect(await links(shop.eshop.id, 'P1')).toEqual([[20, 'Green']]);
  });

  test('when a v1 product names a value id, then it links that value; the v1 contract has no parameter_values', async () => {
    const shop = await shopWithParameters();

    const res = await shop.api.post('/api/v1/products/bulk-import', [
      { id: 'P1', name: 'Shoe', parameters_ids: [101, 10, 102] },
    ]);

    expect(res.body.errors).toEqual([
      { index: 0, id: 'P1', errors: ['The selected parameters_ids.0 is ambiguous.'] },
    ]);
    const ok = await shop.api.post('/api/v1/products/bulk-import', [
      {
        id: 'P1',
        name: 'Shoe',
        parameters_ids: [10, 102],
        parameter_values: [{ parameter_id: 20, value_ids: [201] }],
      },
    ]);
    expect(ok.body.success).toBe(true);
    expect(await links(shop.eshop.id, 'P1')).toEqual([
      [10, null],
      [10, '1.9 kg'],
    ]);
  });

  test('when a multi-import sends parameters and products naming them, then the products link values of the same request', async () => {
    const shop = await svc.eshop();

    const res = await shop.api.post('/api/v2/rest/multi-import', {
      parameters: PARAMETERS,
      products: [
        product('P1', { parameters_ids: [301], parameter_values: [{ parameter_id: 10, value_ids: [101] }] }),
        product('P2', { parameter_values: [{ parameter_id: 10, value_ids: [202] }] }),
      ],
    });

    expect(res.body.results.products).toEqual({
      imported: 1,
      updated: 0,
      skipped: 1,
      errors: [{ index: 1, id: 'P2', errors: ['The selected parameter_values.0.value_ids.0 is invalid.'] }],
    });
    expect(await links(shop.eshop.id, 'P1')).toEqual([
      [30, 'All year'],
      [10, '280 g'],
    ]);
  });

  test('when parameter_values has a wrong shape, then the item is skipped with the field named', async () => {
    const shop = await shopWithParameters();

    const res = await shop.api.post('/api/v2/rest/products', [
      product('P1', { parameter_values: [{ parameter_id: '10', value_ids: [101] }] }),
      product('P2', { parameter_values: [{ parameter_id: 10 }] }),
      product('P3', { parameter_values: [{ parameter_id: 10, value_ids: [0] }] }),
    ]);

    expect(res.body.errors).toEqual([
      { index: 0, id: 'P1', errors: ['The parameter_values.0.parameter_id field must be an integer.'] },
      { index: 1, id: 'P2', errors: ['The parameter_values.0.value_ids field is required.'] },
      { index: 2, id: 'P3', errors: ['The parameter_values.0.value_ids.0 field must be at least 1.'] },
    ]);
    expect(await svc.deps.db('products').where({ eshop_id: shop.eshop.id })).toEqual([]);
  });

  test('when a parameter is imported with name_translations, then the names are kept per language; not sent they stay, sent they are replaced', async () => {
    const shop = await svc.eshop();
    const stored = async () =>
      (await svc.deps.db('parameters').where({ eshop_id: shop.eshop.id }).first())!.name_translations;

    const first = await shop.api.post('/api/v2/rest/parameters', [
      { id: 10, name: 'Weight', name_translations: { cs: 'Hmotnost', default: 'Ignored', de: ' ' } },
    ]);
    expect(first.body.success).toBe(true);
    expect(await stored()).toEqual({ cs: 'Hmotnost' });

    await shop.api.post('/api/v1/parameters/bulk-import', [{ id: 10, name: 'Weight' }]);
    expect(await stored()).toEqual({ cs: 'Hmotnost' });

    await shop.api.post('/api/v2/rest/parameters', [
      { id: 10, name: 'Weight', name_translations: { en: 'Mass' } },
    ]);
    expect(await stored()).toEqual({ en: 'Mass' });

    const bad = await shop.api.post('/api/v2/rest/parameters', [
      { id: 10, name: 'Weight', name_translations: { xx: 'Nope', cs: 1 } },
    ]);
    expect(bad.body.errors).toEqual([
      {
        index: 0,
        id: 10,
        errors: expect.arrayContaining(['The name_translations.xx field is not a supported language.']),
      },
    ]);
    expect(await stored()).toEqual({ en: 'Mass' });
  });
});
