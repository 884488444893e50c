import { generationMaterial, materialOf, productRef } from '@catalogue/content-store';
import {
  catalogueRepository,
  createKnex,
  parametersRepository,
  productRelationsRepository,
  type Knex,
  type ProductRelations,
} from '@catalogue/db';
import { makeEshop, testConfig } from '@catalogue/testing';

describe('generationMaterial: what generation may use of a catalogue item', () => {
  let db: Knex;
  beforeAll(() => {
    db = createKnex(testConfig().database);
  });
  afterAll(() => db.destroy());
  afterEach(() => jest.restoreAllMocks());

  async function product(eshopId: number, id: string, fields: Record<string, unknown>) {
    await db.transaction(async (trx) => {
      await parametersRepository.upsert(
        trx,
        eshopId,
        [{ externalId: 7, name: 'Colour' }],
        [
          { parameterExternalId: 7, externalId: 1, value: 'Red' },
          { parameterExternalId: 7, externalId: 2, value: 'Blue' },
        ],
      );
      await catalogueRepository.upsert(trx, 'category', eshopId, [
        { externalId: 'C1', isVisible: true, status: 'ready', fields: { name: { cs: 'Boty', en: 'Shoes' } } },
      ]);
      await catalogueRepository.upsert(trx, 'product', eshopId, [
        {
          externalId: id,
          isVisible: true,
          status: 'ready',
          fields: { parameters_ids: [7], categories_ids: ['C1', 'C-unknown'], ...fields },
        },
      ]);
    });
  }

  test("when a product's relations are read, then its parameter lines are built from forProducts' answer and nothing else", async () => {
    const { eshop } = await makeEshop(db);
    await product(eshop.id, 'P1', { name: { cs: 'Bota' }, images: ['https://cdn.test/p1.jpg'] });
    // The product's own values are forProducts' to decide: whatever it answers is what generation gets.
    const own: ProductRelations = {
      brand: null,
      parameters: [{ id: 7, name: 'Colour', values: ['Red'] }],
      variants: [],
    };
    const spy = jest
      .spyOn(productRelationsRepository, 'forProducts')
      .mockImplementation((_db, _eshopId, refs) => Promise.resolve(new Map(refs.map((r) => [r.id, own]))));

    const material = await generationMaterial(db, eshop.id, 'product', 'P1');

    expect(spy).toHaveBeenCalledTimes(1);
    const item = await catalogueRepository.findEntity(db, 'product', eshop.id, 'P1');
    expect(spy.mock.calls[0]![2]).toEqual([productRef(item!)]);
    expect(material.in('cs')).toEqual({
      name: 'Bota',
      parameter: 'Colour: Red',
      categories: ['Boty'],
    });
    expect(material.images).toEqual(['https://cdn.test/p1.jpg']);
  });

  test('when a language has no text of its own, then nothing of another language stands in for it', async () => {
    const { eshop } = await makeEshop(db);
    await product(eshop.id, 'P2', {
      name: { en: 'Shoe' },
      description: { en: '<p>Grips.</p>' },
      url: { en: 'https://shop.test/en/shoe' },
    });

    const material = await generationMaterial(db, eshop.id, 'product', 'P2');

    expect(material.in('cs')).toEqual({
      // Parameters are data with one name for every language; categories are named per language.
      parameter: expect.stringMatching(/^Colour: /),
      categories: ['Boty'],
    });
    expect(material.in('en')).toMatchObject({
      name: 'Shoe',
      description: '<p>Grips.</p>',
      url: 'https://shop.test/en/shoe',
    });
  });

  test("when the id is another eshop's item, a page, or deleted, then there is no material", async () => {
    const { eshop } = await makeEshop(db);
    const other = await makeEshop(db);
    await product(eshop.id, 'P3', { name: { cs: 'Bota' } });

    expect((await generationMaterial(db, other.eshop.id, 'product', 'P3')).found).toBe(false);
    expect((await generationMaterial(db, eshop.id, 'page', 'P3')).found).toBe(false);
    await db('products').where({ eshop_id: eshop.id, external_id: 'P3' }).update({ is_delete: true });
    expect((await generationMaterial(db, eshop.id, 'product', 'P3')).in('cs')).toEqual({});
  });

  test('when a parameter has per-language names, then the language is used, else the default name', () => {
    const material = materialOf(
      {
        compose: {
          type: 'product',
          name: { cs: 'Bota' },
          parameters: [
            { name: { default: 'Colour', cs: 'Barva' }, value: ['Red'] },
            { name: { default: 'Drop' }, value: ['6 mm'] },
            { name: 'Empty', value: [] },
          ],
        },
        snippet: { type: 'product', name: { cs: 'Bota' } },
      },
      {},
    );
    expect(material.in('cs').parameter).toBe('Barva: Red\nDrop: 6 mm');
  });
});
