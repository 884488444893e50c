// What PostgreSQL itself refuses, whatever a service or a hand-written statement sends: a row of
// one eshop naming a row of another eshop (or a row of another table, as a category import once
// did with product_variants).
import {
  createKnex,
  creditsRepository,
  generationJobsRepository,
  wlEntitiesRepository,
  type Knex,
} from '@catalogue/db';
import { makeEshop, makeGenerationJob, testConfig } from '@catalogue/testing';

const FOREIGN_KEY_VIOLATION = '23503';
const CHECK_VIOLATION = '23514';

let db: Knex;
beforeAll(() => {
  db = createKnex(testConfig().database);
});
afterAll(() => db.destroy());

let counter = 0;
const nextId = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

async function product(eshopId: number): Promise<number> {
  const [row] = await db('products')
    .insert({ eshop_id: eshopId, external_id: nextId('P'), name: { default: 'Shoe' } })
    .returning<{ id: number }[]>('id');
  return row!.id;
}

async function customDesign(eshopId: number): Promise<number> {
  const [row] = await db('designs')
    .insert({ eshop_id: eshopId, name: 'Own', category: 'product', type: 'custom', hash: 'x'.repeat(64) })
    .returning<{ id: number }[]>('id');
  return row!.id;
}

const publicDesign = async (): Promise<number> =>
  (await db('designs').where({ key: 'product-classic' }).first<{ id: number }>('id')).id;

describe('product_variants', () => {
  test("when a variant names another eshop's product, then PostgreSQL refuses it", async () => {
    const a = await makeEshop(db);
    const b = await makeEshop(db);
    const productOfA = await product(a.eshop.id);

    const insert = db('product_variants').insert({ eshop_id: b.eshop.id, product_id: productOfA, code: 'X' });

    await expect(insert).rejects.toMatchObject({ code: FOREIGN_KEY_VIOLATION });
    expect(await db('product_variants').where({ product_id: productOfA })).toEqual([]);
  });

  test("when a variant names a category's id (the issue's category import), then PostgreSQL refuses it", async () => {
    const shop = await makeEshop(db);
    const ownProduct = await product(shop.eshop.id);
    const [category] = await db('categories')
      .insert({ eshop_id: shop.eshop.id, external_id: nextId('C'), name: { default: 'Shoes' } })
      .returning<{ id: number }[]>('id');
    // The category's id is some product's id of some eshop, just not a product of this one.
    expect(category!.id).not.toBe(ownProduct);

    const insert = db('product_variants').insert({
      eshop_id: shop.eshop.id,
      product_id: category!.id,
      code: 'X',
      ean: '1',
    });

    await expect(insert).rejects.toMatchObject({ code: FOREIGN_KEY_VIOLATION });
    expect(await db('product_variants').where({ eshop_id: shop.eshop.id })).toEqual([]);
  });

  test('when a variant names its own eshop’s product, then it is stored, and removed with the product', async () => {
    const shop = await makeEshop(db);
    const id = await product(shop.eshop.id);

    await db('product_variants').insert({ eshop_id: shop.eshop.id, product_id: id, code: 'V1' });
    expect(await db('product_variants').where({ product_id: id }).select('code')).toEqual([{ code: 'V1' }]);
    await db('products').where({ id }).delete();

    expect(await db('product_variants').where({ product_id: id })).toEqual([]);
  });
});

describe('parameter_values and listing_rows', () => {
  test("when a value names another eshop's parameter, then PostgreSQL refuses it", async () => {
    const a = await makeEshop(db);
    const b = await makeEshop(db);
    const [parameter] = await db('parameters')
      .insert({ eshop_id: a.eshop.id, external_id: 1, name: 'Size' })
      .returning<{ id: number }[]>('id');

    const insert = db('parameter_values').insert({
      eshop_id: b.eshop.id,
      parameter_id: parameter!.id,
      external_id: 1,
      value: '42',
    });

    await expect(insert).rejects.toMatchObject({ code: FOREIGN_KEY_VIOLATION });
  });

  test("when a listing row names another eshop's batch, then PostgreSQL refuses it", async () => {
    const a = await makeEshop(db);
    const b = await makeEshop(db);
    const [batch] = await db('listing_batches')
      .insert({ eshop_id: a.eshop.id, format: 'json', rows_total: 1 })
      .returning<{ id: number }[]>('id');

    const insert = db('listing_rows').insert({
      eshop_id: b.eshop.id,
      batch_id: batch!.id,
      external_id: 'R1',
    });

    await expect(insert).rejects.toMatchObject({ code: FOREIGN_KEY_VIOLATION });
  });
});

describe('designs: public ones are shared, custom ones belong to their eshop', () => {
  const job = (eshopId: number, designId: number, entityId: string) =>
    generationJobsRepository.create(db, eshopId, {
      entityType: 'product',
      entityId,
      designId,
      lang: 'default',
      context: {},
      estimatedCost: 0,
    });
  const register = (eshopId: number, entityId: string) =>
    wlEntitiesRepository.upsert(db, eshopId, { entityId, type: 'product', oldDescription: {}, title: {} });

  test('when a job uses a public design or its own custom design, then it is stored', async () => {
    const shop = await makeEshop(db);
    const own = await customDesign(shop.eshop.id);
    const [first, second] = [nextId('E'), nextId('E')];
    await register(shop.eshop.id, first);
    await register(shop.eshop.id, second);

    const withPublic = await job(shop.eshop.id, await publicDesign(), first);
    const withOwn = await job(shop.eshop.id, own, second);

    expect([withPublic.designId, withOwn.designId]).toEqual([await publicDesign(), own]);
  });

  test("when a job or an entity uses another eshop's custom design, then PostgreSQL refuses it", async () => {
    const a = await makeEshop(db);
    const b = await makeEshop(db);
    const designOfA = await customDesign(a.eshop.id);
    const entityId = nextId('E');
    const { entity } = await register(b.eshop.id, entityId);

    await expect(job(b.eshop.id, designOfA, entityId)).rejects.toMatchObject({ code: CHECK_VIOLATION });
    await expect(wlEntitiesRepository.setDesign(db, b.eshop.id, entity.id, designOfA)).rejects.toMatchObject({
      code: CHECK_VIOLATION,
    });
    // A statement that names the design but claims it is public is refused by the key instead.
    await expect(
      db('wl_entities').where({ id: entity.id }).update({ design_id: designOfA, design_owner: 0 }),
    ).rejects.toMatchObject({ code: FOREIGN_KEY_VIOLATION });
    await expect(
      db('wl_entities').where({ id: entity.id }).update({ design_id: designOfA, design_owner: null }),
    ).rejects.toMatchObject({ code: CHECK_VIOLATION });
    expect((await wlEntitiesRepository.find(db, b.eshop.id, 'product', entityId))?.designId).toBeNull();
    expect(await db('generation_jobs').where({ eshop_id: b.eshop.id })).toEqual([]);
  });

  test('when a custom design in use by an entity is removed, then the entity keeps no design', async () => {
    const shop = await makeEshop(db);
    const own = await customDesign(shop.eshop.id);
    const entityId = nextId('E');
    const { entity } = await register(shop.eshop.id, entityId);
    await wlEntitiesRepository.setDesign(db, shop.eshop.id, entity.id, own);

    await db('designs').where({ id: own }).delete();

    expect((await wlEntitiesRepository.find(db, shop.eshop.id, 'product', entityId))?.designId).toBeNull();
  });
});

describe('generation jobs and the credit ledger', () => {
  test('when a job names an entity its eshop has not registered, then PostgreSQL refuses it', async () => {
    const a = await makeEshop(db);
    const b = await makeEshop(db);
    const entityId = nextId('E');
    await wlEntitiesRepository.upsert(db, a.eshop.id, {
      entityId,
      type: 'product',
      oldDescription: {},
      title: {},
    });

    const create = generationJobsRepository.create(db, b.eshop.id, {
      entityType: 'product',
      entityId,
      designId: await publicDesign(),
      lang: 'default',
      context: {},
      estimatedCost: 0,
    });

    await expect(create).rejects.toMatchObject({ code: FOREIGN_KEY_VIOLATION });
  });

  test("when a reservation names another eshop's job, then nothing is reserved", async () => {
    const a = await makeEshop(db, { credits: 50 });
    const b = await makeEshop(db, { credits: 50 });
    const jobOfA = await makeGenerationJob(db, a.eshop.id);

    const reserve = db.transaction((trx) => creditsRepository.reserve(trx, b.eshop.id, jobOfA, 10));

    await expect(reserve).rejects.toMatchObject({ code: FOREIGN_KEY_VIOLATION });
    expect(await creditsRepository.getAccount(db, b.eshop.id)).toMatchObject({ balance: 50, reserved: 0 });
    expect(await db('credit_ledger').where({ job_id: jobOfA })).toEqual([]);
  });

  test('when a ledger row names an eshop without a credit account, then PostgreSQL refuses it', async () => {
    const [eshop] = await db('eshops').insert({ name: 'no account' }).returning<{ id: number }[]>('id');

    const insert = db('credit_ledger').insert({ eshop_id: eshop!.id, kind: 'adjustment', amount: 5 });

    await expect(insert).rejects.toMatchObject({ code: FOREIGN_KEY_VIOLATION });
  });

  test('when an eshop with jobs, ledger rows, variants and listings is deleted, then all its rows go with it', async () => {
    const shop = await makeEshop(db, { credits: 50 });
    const id = shop.eshop.id;
    const jobId = await makeGenerationJob(db, id);
    await db.transaction((trx) => creditsRepository.reserve(trx, id, jobId, 10));
    // Its own custom design, used by an entity and a job, goes in the same statement.
    const own = await customDesign(id);
    const { entity } = await wlEntitiesRepository.upsert(db, id, {
      entityId: nextId('E'),
      type: 'product',
      oldDescription: {},
      title: {},
    });
    await wlEntitiesRepository.setDesign(db, id, entity.id, own);
    await generationJobsRepository.create(db, id, {
      entityType: 'product',
      entityId: entity.entityId,
      designId: own,
      lang: 'default',
      context: {},
      estimatedCost: 0,
    });
    await db('product_variants').insert({ eshop_id: id, product_id: await product(id), code: 'V' });
    await db('listing_batches').insert({ eshop_id: id, format: 'json', rows_total: 0 });

    await db('eshops').where({ id }).delete();

    for (const table of [
      'generation_jobs',
      'credit_ledger',
      'credit_accounts',
      'product_variants',
      'wl_entities',
    ]) {
      expect(await db(table).where({ eshop_id: id })).toEqual([]);
    }
  });
});
