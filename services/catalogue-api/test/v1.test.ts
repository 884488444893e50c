import type { CatalogueEntityType } from '@catalogue/config';
import { catalogueService, type Client } from './helpers';

/** v1: one-language imports of products and categories and their flat lists. */

type V1Type = 'product' | 'category';
const V1_PATH = { product: 'products', category: 'categories' } as const satisfies Record<V1Type, string>;
const TABLE: Record<CatalogueEntityType, string> = {
  product: 'products',
  category: 'categories',
  brand: 'brands',
  blog: 'blogs',
};
const V1_LANGUAGES = ['cs', 'de', 'default', 'en', 'sk'];
const INVALID = 'The given data was invalid.';

function idsOf(items: { id: string }[]): string[] {
  return items.map((i) => i.id);
}

describe('catalogue-api: v1 products and categories', () => {
  const svc = catalogueService();

  async function importV1(api: Client, type: V1Type, items: Record<string, unknown>[]) {
    const res = await api.post(`/api/v1/${V1_PATH[type]}/bulk-import`, items);
    expect(res.body).toMatchObject({ success: true, skipped: 0 });
    expect(res.status).toBe(200);
    return res;
  }

  async function publish(eshopId: number, type: V1Type, ids: string[], loaded = true) {
    await svc.setStatus(eshopId, type, ids, 'ready');
    await svc.deps
      .db(TABLE[type])
      .where({ eshop_id: eshopId })
      .whereIn('external_id', ids)
      .update({ is_loaded: loaded });
  }

  async function stored(eshopId: number, type: V1Type, externalId: string) {
    return svc.deps.db(TABLE[type]).where({ eshop_id: eshopId, external_id: externalId }).first();
  }

  describe('import', () => {
    test.each(['product', 'category'] as const)(
      'when a new %s is imported through v1, then its texts are stored as the default language',
      async (type) => {
        // Arrange
        const { eshop, api } = await svc.eshop();

        // Act
        const res = await api.post(`/api/v1/${V1_PATH[type]}/bulk-import`, [
          {
            id: 'X1',
            name: 'Chair',
            url: 'https://shop.test/chair',
            description: 'Long text',
            ...(type === 'product' && { short_description: 'A chair' }),
          },
        ]);

        // Assert
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ success: true, imported: 1, updated: 0, skipped: 0, errors: [] });
        const row = await stored(eshop.id, type, 'X1');
        expect(row).toMatchObject({
          name: { default: 'Chair' },
          url: { default: 'https://shop.test/chair' },
          description: { default: 'Long text' },
          status: 'generate',
          is_delete: false,
        });
        if (type === 'product') expect(row.short_description).toEqual({ default: 'A chair' });
      },
    );

    test.each(['product', 'category'] as const)(
      'when a %s imported through v2 with cs is updated through v1, then default is replaced and cs is kept',
      async (type) => {
        // Arrange
        const { eshop, api } = await svc.eshop({ languages: ['default', 'cs'] });
        const v2 = await api.post(`/api/v2/rest/${V1_PATH[type]}`, [
          {
            id: 'X1',
            name: { default: 'Old', cs: 'Starý' },
            url: { default: 'https://shop.test/old', cs: 'https://shop.test/stary' },
            ...(type === 'product' && { short_description: { default: 'Old short', cs: 'Krátký' } }),
          },
        ]);
        expect(v2.body).toMatchObject({ success: true, imported: 1 });

        // Act
        const res = await api.post(`/api/v1/${V1_PATH[type]}/bulk-import`, [
          {
            id: 'X1',
            name: 'New',
            url: 'https://shop.test/new',
            ...(type === 'product' && { short_description: 'New short' }),
          },
        ]);

        // Assert
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ success: true, imported: 0, updated: 1, skipped: 0, errors: [] });
        const row = await stored(eshop.id, type, 'X1');
        expect(row.name).toEqual({ default: 'New', cs: 'Starý' });
        expect(row.url).toEqual({ default: 'https://shop.test/new', cs: 'https://shop.test/stary' });
        if (type === 'product') expect(row.short_description).toEqual({ default: 'New short', cs: 'Krátký' });
        await publish(eshop.id, type, ['X1']);
        const listed = await api.get(`/api/v2/rest/${V1_PATH[type]}?lang=all`);
        expect(listed.body.data[0]?.name).toEqual({ default: 'New', cs: 'Starý' });
      },
    );

    test.each(['product', 'category'] as const)(
      'when a v1 %s has no name or an empty one, then it is skipped with "The name field is required."',
      async (type) => {
        // Arrange
        const { eshop, api } = await svc.eshop();

        // Act
        const res = await api.post(`/api/v1/${V1_PATH[type]}/bulk-import`, [
          { id: 'X1' },
          { id: 'X2', name: '' },
          { id: 'X3', name: 'Fine' },
        ]);

        // Assert
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          success: false,
          imported: 1,
          updated: 0,
          skipped: 2,
          errors: [
            { index: 0, id: 'X1', errors: ['The name field is required.'] },
            { index: 1, id: 'X2', errors: ['The name field is required.'] },
          ],
        });
        const ids = await svc.deps.db(TABLE[type]).where({ eshop_id: eshop.id }).pluck('external_id');
        expect(ids).toEqual(['X3']);
      },
    );
  });

  describe('list', () => {
    test('when products are listed, then each item is flat {id, name, short_description, url, content: {html, marketplace}} with exactly the v1 languages', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop({ languages: ['default', 'cs', 'en'] });
      const v2 = await api.post('/api/v2/rest/products', [
        {
          id: 'P1',
          name: { default: 'Chair', cs: 'Židle' },
          short_description: { default: 'A chair', cs: 'Židle krátce' },
          url: { default: 'https://shop.test/chair', cs: 'https://shop.test/zidle' },
          description: { default: 'Long' },
        },
      ]);
      expect(v2.body).toMatchObject({ success: true });
      await publish(eshop.id, 'product', ['P1']);
      await svc.deps.db('content').insert({
        eshop_id: eshop.id,
        entity_type: 'product',
        external_id: 'P1',
        html: JSON.stringify({ default: '<p>Chair</p>', cs: '<p>Židle</p>' }),
        marketplace: JSON.stringify({ default: '<p>Chair market</p>' }),
      });

      // Act
      const res = await api.get('/api/v1/products/list');

      // Assert
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['meta', 'products']);
      expect(res.body.products).toEqual([
        {
          id: 'P1',
          name: 'Chair',
          short_description: 'A chair',
          url: 'https://shop.test/chair',
          content: {
            html: { default: '<p>Chair</p>', cs: '<p>Židle</p>', en: '', de: '', sk: '' },
            marketplace: { default: '<p>Chair market</p>', cs: '', en: '', de: '', sk: '' },
          },
        },
      ]);
      expect(Object.keys(res.body.products[0]?.content.html ?? {}).sort()).toEqual(V1_LANGUAGES);
      expect(Object.keys(res.body.products[0]?.content.marketplace ?? {}).sort()).toEqual(V1_LANGUAGES);
    });

    test('when categories are listed, then they come under "categories" as {id, name, url, content} without short_description', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      await importV1(api, 'category', [{ id: 'C1', name: 'Chairs', url: 'https://shop.test/chairs' }]);
      await publish(eshop.id, 'category', ['C1']);

      // Act
      const res = await api.get('/api/v1/categories/list');

      // Assert
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['categories', 'meta']);
      expect(res.body.categories).toEqual([
        {
          id: 'C1',
          name: 'Chairs',
          url: 'https://shop.test/chairs',
          content: {
            html: { default: '', cs: '', en: '', de: '', sk: '' },
            marketplace: { default: '', cs: '', en: '', de: '', sk: '' },
          },
        },
      ]);
    });

    test('when a middle page is read, then meta has current_page, from, last_page, per_page, to and total as integers', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      await importV1(api, 'product', [
        { id: 'P1', name: 'One' },
        { id: 'P2', name: 'Two' },
        { id: 'P3', name: 'Three' },
      ]);
      await publish(eshop.id, 'product', ['P1', 'P2', 'P3']);

      // Act
      const first = await api.get('/api/v1/products/list?per_page=2&page=1');
      const second = await api.get('/api/v1/products/list?per_page=2&page=2');

      // Assert
      expect(first.status).toBe(200);
      expect(first.body.meta).toEqual({
        current_page: 1,
        from: 1,
        last_page: 2,
        per_page: 2,
        to: 2,
        total: 3,
      });
      expect(idsOf(first.body.products)).toEqual(['P1', 'P2']);
      expect(second.status).toBe(200);
      expect(second.body.meta).toEqual({
        current_page: 2,
        from: 3,
        last_page: 2,
        per_page: 2,
        to: 3,
        total: 3,
      });
      expect(idsOf(second.body.products)).toEqual(['P3']);
      for (const value of [...Object.values(first.body.meta), ...Object.values(second.body.meta)]) {
        expect(Number.isInteger(value)).toBe(true);
      }
    });

    test('when a page beyond the end is read, then from and to are 0 and last_page stays the real last page', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      await importV1(api, 'product', [
        { id: 'P1', name: 'One' },
        { id: 'P2', name: 'Two' },
        { id: 'P3', name: 'Three' },
      ]);
      await publish(eshop.id, 'product', ['P1', 'P2', 'P3']);

      // Act
      const res = await api.get('/api/v1/products/list?per_page=2&page=5');

      // Assert
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        products: [],
        meta: { current_page: 5, from: 0, last_page: 2, per_page: 2, to: 0, total: 3 },
      });
    });

    test('when the eshop has no listed categories, then meta has from 0, to 0 and last_page 1 with the default per_page', async () => {
      // Arrange
      const { api } = await svc.eshop();
      await importV1(api, 'category', [{ id: 'C1', name: 'Not ready yet' }]);

      // Act
      const res = await api.get('/api/v1/categories/list');

      // Assert
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        categories: [],
        meta: { current_page: 1, from: 0, last_page: 1, per_page: 100, to: 0, total: 0 },
      });
    });

    test.each([
      ['omitted', ['P1-loaded', 'P2-unloaded']],
      ['', ['P1-loaded', 'P2-unloaded']],
      ['true', ['P1-loaded']],
      ['1', ['P1-loaded']],
      ['false', ['P2-unloaded']],
      ['0', ['P2-unloaded']],
    ])('when is_edited is "%s", then the list is %j (empty = omitted)', async (isEdited, expected) => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      await importV1(api, 'product', [
        { id: 'P1-loaded', name: 'Loaded' },
        { id: 'P2-unloaded', name: 'Unloaded' },
      ]);
      await publish(eshop.id, 'product', ['P1-loaded']);
      await publish(eshop.id, 'product', ['P2-unloaded'], false);

      // Act
      const res = await (isEdited === 'omitted'
        ? api.get('/api/v1/products/list')
        : api.get(`/api/v1/products/list?is_edited=${isEdited}`));

      // Assert
      expect(res.status).toBe(200);
      expect(idsOf(res.body.products)).toEqual(expected);
      expect(res.body.meta.total).toBe(expected.length);
    });

    test.each(['product', 'category'] as const)(
      'when %s items are draft, review, generate, ready, hidden or deleted, then only ready not deleted ones are listed',
      async (type) => {
        // Arrange
        const { eshop, api } = await svc.eshop();
        const ids = ['A-draft', 'B-review', 'C-generate', 'D-ready', 'E-hidden', 'F-deleted'];
        await importV1(
          api,
          type,
          ids.map((id) => ({ id, name: id, ...(id === 'E-hidden' && { is_visible: false }) })),
        );
        await publish(eshop.id, type, ids);
        await svc.setStatus(eshop.id, type, ['A-draft'], 'draft');
        await svc.setStatus(eshop.id, type, ['B-review'], 'review');
        await svc.setStatus(eshop.id, type, ['C-generate'], 'generate');
        const deleted = await api.delete(`/api/v2/rest/${V1_PATH[type]}`, ['F-deleted']);
        expect(deleted.body).toMatchObject({ deleted: 1 });

        // Act
        const res = await api.get(`/api/v1/${V1_PATH[type]}/list`);

        // Assert
        expect(res.status).toBe(200);
        expect(idsOf('products' in res.body ? res.body.products : res.body.categories)).toEqual([
          'D-ready',
          'E-hidden',
        ]);
        expect(res.body.meta.total).toBe(2);
        const rows = await svc.deps
          .db(TABLE[type])
          .where({ eshop_id: eshop.id })
          .orderBy('id')
          .select('external_id', 'status', 'is_delete');
        expect(rows.map((r: { status: string }) => r.status)).toEqual([
          'draft',
          'review',
          'generate',
          'ready',
          'ready',
          'ready',
        ]);
        expect(rows.map((r: { is_delete: boolean }) => r.is_delete)).toEqual([
          false,
          false,
          false,
          false,
          false,
          true,
        ]);
      },
    );

    test('when last_update_time_from is given, then only items updated strictly after it are listed', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      await importV1(api, 'product', [
        { id: 'P1', name: 'Exact' },
        { id: 'P2', name: 'After' },
      ]);
      await publish(eshop.id, 'product', ['P1', 'P2']);
      await svc.deps
        .db('products')
        .where({ eshop_id: eshop.id, external_id: 'P1' })
        .update({ updated_at: '2026-06-01 08:00:00+00' });
      await svc.deps
        .db('products')
        .where({ eshop_id: eshop.id, external_id: 'P2' })
        .update({ updated_at: '2026-06-01 08:00:00.000001+00' });

      // Act
      const res = await api.get(
        `/api/v1/products/list?last_update_time_from=${encodeURIComponent('2026-06-01 08:00:00')}`,
      );

      // Assert
      expect(res.status).toBe(200);
      expect(idsOf(res.body.products)).toEqual(['P2']);
      expect(res.body.meta.total).toBe(1);
    });

    test.each([
      ['per_page', '101'],
      ['page', '0'],
      ['is_edited', 'maybe'],
      ['last_update_time_from', '2026-02-30 10:00:00'],
    ])('when the v1 list gets %s=%s, then 422 naming that parameter', async (name, value) => {
      // Arrange
      const { api } = await svc.eshop();

      // Act
      const res = await api.get(`/api/v1/products/list?${name}=${encodeURIComponent(value)}`);

      // Assert
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: INVALID,
        code: 'validation_failed',
        errors: { [name]: [expect.any(String)] },
      });
    });
  });
});
