// The keys of product_parameter_values: a product's link can name only a parameter of its own
// eshop and only a value of that parameter; and the migration that added them links the
// parameters existing products named (docs/decisions/0032-a-product-shows-only-its-own.md, "A product shows only its own parameter
// values").
import { createKnex, migrateLatest, migrateUpTo, type Knex } from '@catalogue/db';
import { freshSiblingDatabase, makeEshop, testConfig, type SiblingDatabase } from '@catalogue/testing';

async function parameterWithValue(db: Knex, eshopId: number, externalId: number) {
  const [parameter] = await db('parameters')
    .insert({ eshop_id: eshopId, external_id: externalId, name: `P${externalId}` })
    .returning<{ id: number }[]>('id');
  const [value] = await db('parameter_values')
    .insert({ eshop_id: eshopId, parameter_id: parameter!.id, external_id: 1, value: `v${externalId}` })
    .returning<{ id: number }[]>('id');
  return { parameter: parameter!.id, value: value!.id };
}

describe('product_parameter_values keys', () => {
  let db: Knex;
  beforeAll(() => {
    db = createKnex(testConfig().database);
  });
  afterAll(() => db.destroy());

  async function productOf(eshopId: number) {
    const [product] = await db('products')
      .insert({ eshop_id: eshopId, external_id: 'P1', name: { default: 'P' } })
      .returning<{ id: number }[]>('id');
    return product!.id;
  }

  const link = (eshopId: number, productId: number, parameterId: number, valueId: number | null) =>
    db('product_parameter_values').insert({
      eshop_id: eshopId,
      product_id: productId,
      position: 1,
      parameter_id: parameterId,
      value_id: valueId,
    });

  test("when a link names another eshop's parameter or value, then PostgreSQL refuses it", async () => {
    const mine = await makeEshop(db);
    const theirs = await makeEshop(db);
    const product = await productOf(mine.eshop.id);
    const own = await parameterWithValue(db, mine.eshop.id, 7);
    const foreign = await parameterWithValue(db, theirs.eshop.id, 7);

    await expect(link(mine.eshop.id, product, foreign.parameter, null)).rejects.toThrow(/foreign key/);
    await expect(link(mine.eshop.id, product, foreign.parameter, foreign.value)).rejects.toThrow(
      /foreign key/,
    );
    await expect(link(mine.eshop.id, product, own.parameter, foreign.value)).rejects.toThrow(/foreign key/);
    await expect(link(theirs.eshop.id, product, foreign.parameter, foreign.value)).rejects.toThrow(
      /foreign key/,
    );
    expect(
      await db('product_parameter_values').whereIn('eshop_id', [mine.eshop.id, theirs.eshop.id]),
    ).toEqual([]);
  });

  test('when a link names a value of another parameter of the eshop, then PostgreSQL refuses it', async () => {
    const shop = await makeEshop(db);
    const product = await productOf(shop.eshop.id);
    const size = await parameterWithValue(db, shop.eshop.id, 7);
    const colour = await parameterWithValue(db, shop.eshop.id, 8);

    await expect(link(shop.eshop.id, product, size.parameter, colour.value)).rejects.toThrow(/foreign key/);
    await link(shop.eshop.id, product, size.parameter, size.value);
    expect(await db('product_parameter_values').where({ eshop_id: shop.eshop.id }).pluck('value_id')).toEqual(
      [size.value],
    );
  });
});

describe('migration 20261126000100_product_parameter_values', () => {
  let sibling: SiblingDatabase;
  beforeAll(async () => {
    sibling = await freshSiblingDatabase('parameter_links');
  }, 60_000);
  afterAll(() => sibling?.drop());

  test('when products named parameters before, then each existing parameter they named is linked once, in their order', async () => {
    const db = sibling.db;
    await migrateUpTo(db, '20261125000700_event_retention');
    await db.raw(`insert into eshops (id, name) values (1, 'One'), (2, 'Two')`);
    for (const eshop of [1, 2]) {
      for (const id of [3, 7]) await parameterWithValue(db, eshop, id);
    }
    await db.raw(
      `insert into products (eshop_id, external_id, name, parameters_ids) values
       (1, 'P1', '{"default":"a"}', '[7, 99, 3, 7]'), (2, 'P1', '{"default":"b"}', '[3]'), (1, 'P2', '{"default":"c"}', '[]')`,
    );

    await migrateLatest(db);

    const { rows } = await db.raw<{ rows: unknown[] }>(
      `select l.eshop_id, p.external_id as product, l.position, par.external_id as parameter, l.value_id
       from product_parameter_values l
       join products p on p.eshop_id = l.eshop_id and p.id = l.product_id
       join parameters par on par.eshop_id = l.eshop_id and par.id = l.parameter_id
       order by l.eshop_id, p.external_id, l.position`,
    );
    expect(rows).toEqual([
      { eshop_id: 1, product: 'P1', position: 1, parameter: 7, value_id: null },
      { eshop_id: 1, product: 'P1', position: 2, parameter: 3, value_id: null },
      { eshop_id: 2, product: 'P1', position: 1, parameter: 3, value_id: null },
    ]);
  });
});
