import { client } from './helpers';
import { v2ImportService } from './v2-import-fixtures';

describe('catalogue-api: POST /api/v2/rest/{products,categories,brands,blogs} (v2 import): request-level answers and creating', () => {
  const { svc, renderJobs, rows, product } = v2ImportService();

  describe('request-level answers', () => {
    test('when no token is sent, then 401 with the specification body and nothing is stored', async () => {
      const shop = await svc.eshop();

      const res = await fetch(`${svc.url}/api/v2/rest/products`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify([product('P1')]),
      });

      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: 'Authorization token required', code: 'token_missing' });
      expect(await rows('products', shop.eshop.id)).toEqual([]);
    });

    test('when the token is wrong, then 401 with the specification body and nothing is stored', async () => {
      const shop = await svc.eshop();

      const res = await client(svc.url, `${shop.apiToken}x`).post('/api/v2/rest/products', [product('P1')]);

      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Authorization token required', code: 'token_invalid' });
      expect(await rows('products', shop.eshop.id)).toEqual([]);
    });

    test('when the body is malformed JSON, then 400 with an error', async () => {
      const shop = await svc.eshop();

      const res = await shop.api.post('/api/v2/rest/products', '[{"id": "P1", "name": ');

      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: expect.any(String), code: 'malformed_json' });
      expect(await rows('products', shop.eshop.id)).toEqual([]);
    });

    test('when the body is an object instead of an array, then 422 naming the body', async () => {
      const shop = await svc.eshop();

      const res = await shop.api.post('/api/v2/rest/products', product('P1'));

      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: 'The given data was invalid.',
        code: 'validation_failed',
        errors: { body: [expect.any(String)] },
      });
      expect(await rows('products', shop.eshop.id)).toEqual([]);
    });

    test('when 101 items are sent, then 422 with the bulk error and nothing is written', async () => {
      const shop = await svc.eshop();
      const items = Array.from({ length: 101 }, (_, i) => product(`P${i}`));

      const res = await shop.api.post('/api/v2/rest/products', items);

      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        success: false,
        errors: { bulk: ['Maximum 100 items allowed for bulk import'] },
        code: 'bulk_limit_exceeded',
      });
      expect(await rows('products', shop.eshop.id)).toEqual([]);
      expect(await renderJobs(shop.eshop.id)).toEqual([]);
    });

    test('when exactly 100 items are sent, then all of them are imported', async () => {
      const shop = await svc.eshop();
      const items = Array.from({ length: 100 }, (_, i) => product(`P${i}`));

      const res = await shop.api.post('/api/v2/rest/products', items);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, imported: 100, updated: 0, skipped: 0, errors: [] });
      expect(await rows('products', shop.eshop.id)).toHaveLength(100);
      expect(await renderJobs(shop.eshop.id)).toHaveLength(100);
    });
  });

  describe('creating', () => {
    test('when a new product with every field is imported, then it is stored in generate and a render job is queued', async () => {
      const shop = await svc.eshop();
      await shop.api.post('/api/v2/rest/brands', [{ id: 'B1', name: { default: 'Brand' } }]);
      await shop.api.post('/api/v2/rest/categories', [{ id: 'C1', name: { default: 'Category' } }]);
      await shop.api.post('/api/v2/rest/parameters', [{ id: 7, name: 'Colour', values: [] }]);
      const jobsBefore = await renderJobs(shop.eshop.id);

      const res = await shop.api.post('/api/v2/rest/products', [
        {
          id: 'P1',
          is_visible: false,
          images: ['https://cdn.shop.test/p1.jpg', 'https://cdn.shop.test/p1b.jpg'],
          categories_ids: ['C1'],
          brand_id: 'B1',
          parameters_ids: [7],
          name: { default: 'Chair', cs: 'Židle' },
          url: { default: 'https://shop.test/chair', cs: 'https://shop.test/cs/zidle' },
          short_description: { default: 'A chair' },
          description: { default: '<p>A fine chair</p>' },
          seo_title: { default: 'Chair | Shop' },
          seo_description: { default: 'Buy a chair' },
          variant: [
            { code: 'CH-RED', ean: '8590000000011' },
            { code: 'CH-BLUE', ean: null },
          ],
        },
      ]);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, imported: 1, updated: 0, skipped: 0, errors: [] });
      const [row] = await rows('products', shop.eshop.id);
      expect(row).toMatchObject({
        external_id: 'P1',
        status: 'generate',
        is_visible: false,
        is_delete: false,
        is_loaded: false,
        images: ['https://cdn.shop.test/p1.jpg', 'https://cdn.shop.test/p1b.jpg'],
        categories_ids: ['C1'],
        brand_id: 'B1',
        parameters_ids: [7],
        name: { default: 'Chair', cs: 'Židle' },
        url: { default: 'https://shop.test/chair', cs: 'https://shop.test/cs/zidle' },
        short_description: { default: 'A chair' },
        description: { default: '<p>A fine chair</p>' },
        seo_title: { default: 'Chair | Shop' },
        seo_description: { default: 'Buy a chair' },
      });
      expect(row.guid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      const variants = await svc.deps
        .db('product_variants')
        .select('code', 'ean')
        .where({ product_id: row.id })
        .orderBy('id');
      expect(variants).toEqual([
        { code: 'CH-RED', ean: '8590000000011' },
        { code: 'CH-BLUE', ean: null },
      ]);
      const newJobs = (await renderJobs(shop.eshop.id)).filter((j) => j.entity_type === 'product');
      expect(jobsBefore.filter((j) => j.entity_type === 'product')).toEqual([]);
      expect(newJobs).toEqual([{ eshop_id: shop.eshop.id, entity_type: 'product', external_id: 'P1' }]);
    });

    test.each([
      {
        path: 'categories',
        table: 'categories',
        type: 'category',
        item: {
          id: 'C1',
          is_visible: false,
          images: ['https://cdn.shop.test/c1.jpg'],
          name: { default: 'Chairs', cs: 'Židle' },
          url: { default: 'https://shop.test/chairs' },
          description: { default: 'All chairs' },
          seo_title: { default: 'Chairs' },
          seo_description: { default: 'Chairs to sit on' },
        },
        stored: { images: ['https://cdn.shop.test/c1.jpg'] },
      },
      {
        path: 'brands',
        table: 'brands',
        type: 'brand',
        item: {
          id: 'B1',
          is_visible: false,
          image_preview: 'https://cdn.shop.test/b1.png',
          name: { default: 'Acme', cs: 'Acme CZ' },
          url: { default: 'https://shop.test/acme' },
          description: { default: 'The brand' },
          seo_title: { default: 'Acme' },
          seo_description: { default: 'Acme things' },
        },
        stored: { image_preview: 'https://cdn.shop.test/b1.png' },
      },
      {
        path: 'blogs',
        table: 'blogs',
        type: 'blog',
        item: {
          id: 'BL1',
          is_visible: false,
          category: 'News',
          images: ['https://cdn.shop.test/bl1.jpg'],
          name: { default: 'Hello', cs: 'Ahoj' },
          url: { default: 'https://shop.test/blog/hello' },
          description: { default: 'First post' },
          seo_title: { default: 'Hello' },
          seo_description: { default: 'Our first post' },
        },
        stored: { category: 'News', images: ['https://cdn.shop.test/bl1.jpg'] },
      },
    ])(
      'when a new $type with every field is imported, then it is stored in generate and a render job is queued',
      async ({ path, table, type, item, stored }) => {
        const shop = await svc.eshop();

        const res = await shop.api.post(`/api/v2/rest/${path}`, [item]);

        expect(res.status).toBe(200);
        expect(res.body).toEqual({ success: true, imported: 1, updated: 0, skipped: 0, errors: [] });
        const {
          id,
          is_visible: _visible,
          images: _images,
          category: _category,
          ...maps
        } = item as Record<string, unknown>;
        expect(await rows(table, shop.eshop.id)).toEqual([
          expect.objectContaining({
            external_id: id,
            status: 'generate',
            is_visible: false,
            is_delete: false,
            ...maps,
            ...stored,
          }),
        ]);
        expect(await renderJobs(shop.eshop.id)).toEqual([
          { eshop_id: shop.eshop.id, entity_type: type, external_id: id },
        ]);
      },
    );

    test('when is_visible is not sent for a new item, then the item is stored visible', async () => {
      const shop = await svc.eshop();

      await shop.api.post('/api/v2/rest/products', [product('P1')]);

      expect(await rows('products', shop.eshop.id)).toEqual([
        expect.objectContaining({ external_id: 'P1', is_visible: true }),
      ]);
    });

    test('when unknown top-level fields are sent, then they are ignored and the item is imported', async () => {
      const shop = await svc.eshop();

      const res = await shop.api.post('/api/v2/rest/products', [
        product('P1', { stock: 5, warehouse: { code: 'W1' }, tags: ['a'] }),
      ]);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, imported: 1, updated: 0, skipped: 0, errors: [] });
      const [row] = await rows('products', shop.eshop.id);
      expect(row).toMatchObject({ external_id: 'P1', name: { default: 'Product P1' } });
      expect(row).not.toHaveProperty('stock');
    });
  });
});
