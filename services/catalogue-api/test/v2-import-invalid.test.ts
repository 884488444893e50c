import { v2ImportService } from './v2-import-fixtures';

describe('catalogue-api: POST /api/v2/rest/{products,categories,brands,blogs} (v2 import): invalid items, product references and concurrency', () => {
  const { svc, renderJobs, rows, product } = v2ImportService();

  describe('invalid items', () => {
    test('when some items are invalid, then 200 with success false, the valid ones written and each invalid one reported', async () => {
      const shop = await svc.eshop();
      const name = { default: 'x' };

      const res = await shop.api.post('/api/v2/rest/products', [
        product('P-ok'),
        { id: 'P2', name, description: { cs: 'popis' } },
        { id: 'P3' },
        { id: 4, name },
        { id: 'P5', name: { default: 'x', xx: 'y' } },
        { id: 'P6', name: { default: 'a'.repeat(256) } },
        { id: 'P7', name, images: ['not a url'] },
        { id: 'P8', name, is_visible: 'true' },
        { id: 'P9', name, parameters_ids: ['1'] },
        { id: 'P10', name, brand_id: 'NOPE' },
        null,
      ]);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: false,
        imported: 1,
        updated: 0,
        skipped: 10,
        errors: [
          { index: 1, id: 'P2', errors: ['The name.cs field is required when using language cs.'] },
          { index: 2, id: 'P3', errors: ['The name field is required.'] },
          { index: 3, id: null, errors: ['The id field must be a string.'] },
          { index: 4, id: 'P5', errors: ['The name.xx field is not a supported language.'] },
          {
            index: 5,
            id: 'P6',
            errors: ['The name.default field must not be greater than 255 characters.'],
          },
          { index: 6, id: 'P7', errors: ['The images.0 field must be a valid URL.'] },
          { index: 7, id: 'P8', errors: ['The is_visible field must be true or false.'] },
          { index: 8, id: 'P9', errors: ['The parameters_ids.0 field must be an integer.'] },
          { index: 9, id: 'P10', errors: ['The selected brand_id is invalid.'] },
          { index: 10, id: null, errors: ['The item must be an object.'] },
        ],
      });
      expect((await rows('products', shop.eshop.id)).map((r) => r.external_id)).toEqual(['P-ok']);
      expect(await renderJobs(shop.eshop.id)).toEqual([
        { eshop_id: shop.eshop.id, entity_type: 'product', external_id: 'P-ok' },
      ]);
    });

    test('when an item has several problems, then every problem is reported at once', async () => {
      const shop = await svc.eshop();

      const res = await shop.api.post('/api/v2/rest/categories', [
        { id: 'C1', name: { default: '' }, is_visible: 1, images: ['ftp://x.test/a.png'] },
      ]);

      expect(res.status).toBe(200);
      expect(res.body.skipped).toBe(1);
      expect(res.body.errors).toEqual([
        {
          index: 0,
          id: 'C1',
          errors: expect.arrayContaining([
            'The is_visible field must be true or false.',
            'The images.0 field must be a valid URL.',
          ]),
        },
      ]);
      expect(res.body.errors[0]?.errors).toHaveLength(3);
      expect(await rows('categories', shop.eshop.id)).toEqual([]);
    });

    test('when a used language has an empty name and the item has other problems, then all of them are reported at once in the specification form', async () => {
      const shop = await svc.eshop();

      const res = await shop.api.post('/api/v2/rest/products', [
        { id: 'P1', name: { default: 'Chair', cs: '' } },
        {
          id: 'P2',
          name: { default: 'Chair' },
          description: { de: 'Stuhl' },
          is_visible: 'yes',
          images: ['x'],
        },
        { id: 'P3', name: { default: '' } },
        { id: 'P4', name: { default: 'Chair', sk: 5 } },
      ]);

      expect(res.status).toBe(200);
      expect(res.body.errors).toEqual([
        { index: 0, id: 'P1', errors: ['The name.cs field is required when using language cs.'] },
        {
          index: 1,
          id: 'P2',
          errors: [
            'The is_visible field must be true or false.',
            'The images.0 field must be a valid URL.',
            'The name.de field is required when using language de.',
          ],
        },
        { index: 2, id: 'P3', errors: ['The name.default field is required when using language default.'] },
        { index: 3, id: 'P4', errors: ['The name.sk field must be a string.'] },
      ]);
      expect(await rows('products', shop.eshop.id)).toEqual([]);
    });

    test('when strings are sent for integers or booleans, then they are not converted', async () => {
      const shop = await svc.eshop();
      await shop.api.post('/api/v2/rest/parameters', [{ id: 1, name: 'Colour' }]);

      const res = await shop.api.post('/api/v2/rest/products', [
        product('P1', { parameters_ids: ['1'] }),
        product('P2', { is_visible: 'false' }),
        product('P3', { is_visible: 0 }),
      ]);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: false,
        imported: 0,
        updated: 0,
        skipped: 3,
        errors: [
          { index: 0, id: 'P1', errors: ['The parameters_ids.0 field must be an integer.'] },
          { index: 1, id: 'P2', errors: ['The is_visible field must be true or false.'] },
          { index: 2, id: 'P3', errors: ['The is_visible field must be true or false.'] },
        ],
      });
      expect(await rows('products', shop.eshop.id)).toEqual([]);
    });

    test('when the same id appears twice, then the first occurrence is written and the later one is reported as a duplicate', async () => {
      const shop = await svc.eshop();

      const res = await shop.api.post('/api/v2/rest/brands', [
        { id: 'B1', name: { default: 'First' } },
        { id: 'B2', name: { default: 'Other' } },
        { id: 'B1', name: { default: 'Second' } },
      ]);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: false,
        imported: 2,
        updated: 0,
        skipped: 1,
        errors: [{ index: 2, id: 'B1', errors: ['The id field has a duplicate value.'] }],
      });
      expect(await rows('brands', shop.eshop.id)).toEqual([
        expect.objectContaining({ external_id: 'B1', name: { default: 'First' } }),
        expect.objectContaining({ external_id: 'B2', name: { default: 'Other' } }),
      ]);
    });

    test('when the first occurrence of an id is invalid, then the first valid occurrence is written', async () => {
      const shop = await svc.eshop();

      const res = await shop.api.post('/api/v2/rest/brands', [
        { id: 'B1' },
        { id: 'B1', name: { default: 'Valid' } },
        { id: 'B1', name: { default: 'Later' } },
      ]);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: false,
        imported: 1,
        updated: 0,
        skipped: 2,
        errors: [
          { index: 0, id: 'B1', errors: ['The name field is required.'] },
          { index: 2, id: 'B1', errors: ['The id field has a duplicate value.'] },
        ],
      });
      expect(await rows('brands', shop.eshop.id)).toEqual([
        expect.objectContaining({ external_id: 'B1', name: { default: 'Valid' } }),
      ]);
    });

    test('when the first occurrence of a product id has an unknown reference, then the first valid occurrence is written', async () => {
      const shop = await svc.eshop();

      const res = await shop.api.post('/api/v2/rest/products', [
        product('P1', { brand_id: 'NOPE' }),
        product('P1', { name: { default: 'Valid' } }),
      ]);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: false,
        imported: 1,
        updated: 0,
        skipped: 1,
        errors: [{ index: 0, id: 'P1', errors: ['The selected brand_id is invalid.'] }],
      });
      expect(await rows('products', shop.eshop.id)).toEqual([
        expect.objectContaining({ external_id: 'P1', name: { default: 'Valid' } }),
      ]);
    });
  });

  describe('references of products', () => {
    test('when a product refers to a brand, categories or parameters the eshop does not have, then it is skipped naming each one', async () => {
      const shop = await svc.eshop();
      await shop.api.post('/api/v2/rest/categories', [{ id: 'C1', name: { default: 'Chairs' } }]);
      await shop.api.post('/api/v2/rest/parameters', [{ id: 7, name: 'Colour' }]);

      const res = await shop.api.post('/api/v2/rest/products', [
        product('P1', { brand_id: 'NOPE', categories_ids: ['C1', 'C-NOPE'], parameters_ids: [7, 999] }),
        product('P2', { categories_ids: ['C1'], parameters_ids: [7] }),
      ]);

      expect(res.status).toBe(200);
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
              'The selected brand_id is invalid.',
              'The selected categories_ids.1 is invalid.',
              'The selected parameters_ids.1 is invalid.',
            ],
          },
        ],
      });
      expect(await rows('products', shop.eshop.id)).toEqual([
        expect.objectContaining({ external_id: 'P2', categories_ids: ['C1'], parameters_ids: [7] }),
      ]);
    });

    test('when a product refers to soft-deleted references, then it is accepted', async () => {
      const shop = await svc.eshop();
      await shop.api.post('/api/v2/rest/brands', [{ id: 'B1', name: { default: 'Gone' } }]);
      await shop.api.post('/api/v2/rest/categories', [{ id: 'C1', name: { default: 'Gone too' } }]);
      await shop.api.delete('/api/v2/rest/brands', ['B1']);
      await shop.api.delete('/api/v2/rest/categories', ['C1']);

      const res = await shop.api.post('/api/v2/rest/products', [
        product('P1', { brand_id: 'B1', categories_ids: ['C1'] }),
      ]);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, imported: 1, updated: 0, skipped: 0, errors: [] });
      expect(await rows('products', shop.eshop.id)).toEqual([
        expect.objectContaining({ external_id: 'P1', brand_id: 'B1', categories_ids: ['C1'] }),
      ]);
    });

    test('when brand_id is sent as null, then the stored brand is cleared', async () => {
      const shop = await svc.eshop();
      await shop.api.post('/api/v2/rest/brands', [{ id: 'B1', name: { default: 'Brand' } }]);
      await shop.api.post('/api/v2/rest/products', [product('P1', { brand_id: 'B1' })]);

      const res = await shop.api.post('/api/v2/rest/products', [product('P1', { brand_id: null })]);

      expect(res.status).toBe(200);
      expect(res.body.updated).toBe(1);
      expect(await rows('products', shop.eshop.id)).toEqual([expect.objectContaining({ brand_id: null })]);
    });
  });

  describe('concurrency', () => {
    test('when several requests import the same items at once in different orders, then all succeed and each item is stored once', async () => {
      const shop = await svc.eshop();
      await shop.api.post(
        '/api/v2/rest/products',
        Array.from({ length: 50 }, (_, i) => product(`P${i}`)),
      );
      const items = Array.from({ length: 100 }, (_, i) =>
        product(`P${i}`, { description: { default: 'v2' } }),
      );

      const responses = await Promise.all(
        [items, [...items].reverse(), items, [...items].reverse()].map((body) =>
          shop.api.post('/api/v2/rest/products', body),
        ),
      );

      expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      for (const res of responses) expect(res.body).toMatchObject({ success: true, skipped: 0 });
      const stored = await rows('products', shop.eshop.id);
      expect(stored).toHaveLength(100);
      expect(stored.every((r) => r.description.default === 'v2')).toBe(true);
    });
  });
});
