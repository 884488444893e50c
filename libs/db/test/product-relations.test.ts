import { contentRepository, createKnex, type ContentKey, type Knex, type ProductRef } from '@catalogue/db';
import { productRelationsRepository } from '../src/repositories/product-relations.repository';
import { makeEshop, testConfig } from '@catalogue/testing';

/** What a content write reads of a product: its content row, locked, and its relations (forProducts). */
async function withLockedContent(trx: Knex.Transaction, key: ContentKey, product: ProductRef) {
  const content = (
    await contentRepository.lockForEdit(trx, key.eshopId, key.entityType, [key.externalId])
  ).get(key.externalId);
  const relations = (await productRelationsRepository.forProducts(trx, key.eshopId, [product])).get(
    product.id,
  )!;
  return { content: content && { origin: content.origin, tree: content.tree }, relations };
}

describe('productRelationsRepository.forProducts with the content row locked (what a content write reads for a product)', () => {
  let db: Knex;
  beforeAll(() => {
    db = createKnex(testConfig().database);
  });
  afterAll(() => db.destroy());

  const key = (eshopId: number) => ({ eshopId, entityType: 'product' as const, externalId: 'P1' });

  /**
   * A product with a brand, variants and parameters: Size (values 42 and 43, inserted out of id
   * order) with 43 chosen, Colour (one value, linked as a parameter), Material (two values, linked
   * as a parameter, none chosen: not shown) and Fit (no values).
   */
  async function arrange(eshopId: number) {
    await db('brands').insert({ eshop_id: eshopId, external_id: 'B1', name: { default: 'Peak' } });
    const [size, colour, material, fit] = await db('parameters')
      .insert([
        { eshop_id: eshopId, external_id: 7, name: 'Size' },
        { eshop_id: eshopId, external_id: 3, name: 'Colour', name_translations: { cs: 'Barva' } },
        { eshop_id: eshopId, external_id: 5, name: 'Material' },
        { eshop_id: eshopId, external_id: 9, name: 'Fit' },
      ])
      .returning<{ id: number }[]>('id');
    const values = await db('parameter_values')
      .insert([
        { eshop_id: eshopId, parameter_id: size!.id, external_id: 2, value: '43' },
        { eshop_id: eshopId, parameter_id: size!.id, external_id: 1, value: '42' },
        { eshop_id: eshopId, parameter_id: colour!.id, external_id: 1, value: 'Red' },
        { eshop_id: eshopId, parameter_id: material!.id, external_id: 1, value: 'Wool' },
        { eshop_id: eshopId, parameter_id: material!.id, external_id: 2, value: 'Cotton' },
      ])
      .returning<{ id: number }[]>('id');
    const [product] = await db('products')
      .insert({ eshop_id: eshopId, external_id: 'P1', name: { default: 'Shoe' } })
      .returning<{ id: number }[]>('id');
    await db('product_variants').insert([
      { eshop_id: eshopId, product_id: product!.id, code: 'V-b', ean: null },
      { eshop_id: eshopId, product_id: product!.id, code: 'V-a', ean: '8590000000427' },
    ]);
    await productRelationsRepository.replaceLinks(
      db,
      eshopId,
      new Map([
        [
          product!.id,
          [
            { parameterId: colour!.id, valueId: null },
            { parameterId: material!.id, valueId: null },
            { parameterId: size!.id, valueId: values[0]!.id },
            { parameterId: fit!.id, valueId: null },
            { parameterId: colour!.id, valueId: null },
          ],
        ],
      ]),
    );
    return product!.id;
  }

  const OWN_PARAMETERS = [
    { id: 3, name: 'Colour', names: { cs: 'Barva' }, values: ['Red'] },
    { id: 7, name: 'Size', values: ['43'] },
  ];

  test('when a product links a brand, parameters and has variants, then all come in one read, each parameter once with only its own values', async () => {
    const shop = await makeEshop(db);
    const productId = await arrange(shop.eshop.id);

    const { content, relations } = await db.transaction((trx) =>
      withLockedContent(trx, key(shop.eshop.id), {
        id: productId,
        brandId: 'B1',
      }),
    );

    expect(content).toBeUndefined();
    expect(relations).toEqual({
      brand: { default: 'Peak' },
      parameters: OWN_PARAMETERS,
      variants: [
        { code: 'V-b', ean: null },
        { code: 'V-a', ean: '8590000000427' },
      ],
    });
  });

  test('when the product has no brand, parameters or variants, then empty relations', async () => {
    const shop = await makeEshop(db);
    const productId = await arrange(shop.eshop.id);
    await db('product_variants').where({ product_id: productId }).delete();

    const { relations } = await db.transaction((trx) =>
      withLockedContent(trx, key(shop.eshop.id), {
        id: productId,
        brandId: null,
      }),
    );
    await db('product_parameter_values').where({ product_id: productId }).delete();
    const read = await productRelationsRepository.forProducts(db, shop.eshop.id, [
      { id: productId, brandId: null },
    ]);
    expect(relations).toEqual({ brand: null, parameters: OWN_PARAMETERS, variants: [] });
    expect(read.get(productId)).toEqual({ brand: null, parameters: [], variants: [] });
  });

  test('when another eshop has the same brand and parameter ids, then only the product’s own eshop is read', async () => {
    const mine = await makeEshop(db);
    const theirs = await makeEshop(db);
    await arrange(theirs.eshop.id);
    const [product] = await db('products')
      .insert({ eshop_id: mine.eshop.id, external_id: 'P1', name: { default: 'Mine' } })
      .returning<{ id: number }[]>('id');

    const { relations } = await db.transaction((trx) =>
      withLockedContent(trx, key(mine.eshop.id), {
        id: product!.id,
        brandId: 'B1',
        parameterIds: [7, 3],
      }),
    );
    expect(relations).toEqual({ brand: null, parameters: [], variants: [] });
  });

  test('when the product has content, then its origin and tree come back and the row stays locked until the transaction ends', async () => {
    const shop = await makeEshop(db);
    const productId = await arrange(shop.eshop.id);
    await db('content').insert({
      eshop_id: shop.eshop.id,
      entity_type: 'product',
      external_id: 'P1',
      origin: 'editor',
      tree: JSON.stringify([{ id: 1 }]),
    });
    const product = { id: productId, brandId: null };

    await db.transaction(async (trx) => {
      const { content } = await withLockedContent(trx, key(shop.eshop.id), product);
      expect(content).toEqual({ origin: 'editor', tree: [{ id: 1 }] });
      // Another transaction cannot take the row while this one holds it.
      const other = await db.transaction(async (probe) => {
        await probe.raw('set local lock_timeout = 100');
        return probe('content')
          .where({ eshop_id: shop.eshop.id, external_id: 'P1' })
          .forUpdate()
          .first()
          .then(
            () => 'taken',
            (err: Error) => err.message,
          );
      });
      expect(other).toMatch(/lock timeout/);
    });
  });

  test('when a job reads several products, then each gets its own brand, parameters and variants, and shared ones are read once for all', async () => {
    const shop = await makeEshop(db);
    const first = await arrange(shop.eshop.id);
    const [second] = await db('products')
      .insert({ eshop_id: shop.eshop.id, external_id: 'P2', name: { default: 'Boot' } })
      .returning<{ id: number }[]>('id');
    await db('product_variants').insert({
      eshop_id: shop.eshop.id,
      product_id: second!.id,
      code: 'W',
      ean: null,
    });
    const other = await makeEshop(db);
    await arrange(other.eshop.id);

    const size = await db('parameters')
      .where({ eshop_id: shop.eshop.id, external_id: 7 })
      .first<{ id: number }>('id');
    const [fortyTwo, fortyThree] = await db('parameter_values')
      .where({ eshop_id: shop.eshop.id, parameter_id: size!.id })
      .orderBy('external_id')
      .select<{ id: number }[]>('id');
    await productRelationsRepository.replaceLinks(
      db,
      shop.eshop.id,
      new Map([
        [
          second!.id,
          [
            { parameterId: size!.id, valueId: fortyThree!.id },
            { parameterId: size!.id, valueId: fortyTwo!.id },
          ],
        ],
      ]),
    );

    const read = await productRelationsRepository.forProducts(db, shop.eshop.id, [
      { id: first, brandId: 'B1' },
      { id: second!.id, brandId: 'B9' },
    ]);

    expect(read.get(first)).toEqual({
      brand: { default: 'Peak' },
      parameters: OWN_PARAMETERS,
      variants: [
        { code: 'V-b', ean: null },
        { code: 'V-a', ean: '8590000000427' },
      ],
    });
    expect(read.get(second!.id)).toEqual({
      brand: null,
      parameters: [{ id: 7, name: 'Size', values: ['42', '43'] }],
      variants: [{ code: 'W', ean: null }],
    });
  });
});
