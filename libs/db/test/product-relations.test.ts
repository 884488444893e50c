import { createKnex, type Knex } from '@catalogue/db';
import { productRelationsRepository } from '../src/repositories/product-relations.repository';
import { makeEshop, testConfig } from '@catalogue/testing';

describe('productRelationsRepository.of (what the render worker reads for a product)', () => {
  let db: Knex;
  beforeAll(() => {
    db = createKnex(testConfig().database);
  });
  afterAll(() => db.destroy());

  /** A product with a brand, parameters (values inserted out of id order) and variants. */
  async function arrange(eshopId: number) {
    await db('brands').insert({ eshop_id: eshopId, external_id: 'B1', name: { default: 'Peak' } });
    const [size] = await db('parameters')
      .insert([
        { eshop_id: eshopId, external_id: 7, name: 'Size' },
        { eshop_id: eshopId, external_id: 3, name: 'Colour' },
      ])
      .returning<{ id: number }[]>('id');
    await db('parameter_values').insert([
      { eshop_id: eshopId, parameter_id: size!.id, external_id: 2, value: '43' },
      { eshop_id: eshopId, parameter_id: size!.id, external_id: 1, value: '42' },
    ]);
    const [product] = await db('products')
      .insert({ eshop_id: eshopId, external_id: 'P1', name: { default: 'Shoe' } })
      .returning<{ id: number }[]>('id');
    await db('product_variants').insert([
      { eshop_id: eshopId, product_id: product!.id, code: 'V-b', ean: null },
      { eshop_id: eshopId, product_id: product!.id, code: 'V-a', ean: '8590000000427' },
    ]);
    return product!.id;
  }

  test('when a product names a brand, parameters and has variants, then all come in one read, in the product’s order', async () => {
    const shop = await makeEshop(db);
    const productId = await arrange(shop.eshop.id);

    const relations = await productRelationsRepository.of(db, shop.eshop.id, {
      id: productId,
      brandId: 'B1',
      // Listed order, an unknown id (dropped) and a repeated one (kept, as the product lists it).
      parameterIds: [3, 99, 7, 3],
    });

    expect(relations).toEqual({
      brand: { default: 'Peak' },
      parameters: [
        { id: 3, name: 'Colour', values: [] },
        { id: 7, name: 'Size', values: ['42', '43'] },
        { id: 3, name: 'Colour', values: [] },
      ],
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

    expect(
      await productRelationsRepository.of(db, shop.eshop.id, {
        id: productId,
        brandId: null,
        parameterIds: [],
      }),
    ).toEqual({ brand: null, parameters: [], variants: [] });
  });

  test('when another eshop has the same brand and parameter ids, then only the product’s own eshop is read', async () => {
    const mine = await makeEshop(db);
    const theirs = await makeEshop(db);
    await arrange(theirs.eshop.id);
    const [product] = await db('products')
      .insert({ eshop_id: mine.eshop.id, external_id: 'P1', name: { default: 'Mine' } })
      .returning<{ id: number }[]>('id');

    expect(
      await productRelationsRepository.of(db, mine.eshop.id, {
        id: product!.id,
        brandId: 'B1',
        parameterIds: [7, 3],
      }),
    ).toEqual({ brand: null, parameters: [], variants: [] });
  });
});
