import { PATH, TABLE, TYPES, INVALID, item, idsOf, v2ListService } from './v2-list-fixtures';

/** v2 list items: which items are listed, their shape, languages, includes and timestamps. */
describe('catalogue-api: v2 lists: shape, listed items and languages (rules 1–3)', () => {
  const { svc, importItems, publish, storeContent } = v2ListService();

  describe('rule 1: response shape', () => {
    test.each(TYPES)(
      'when an eshop lists its %s, then the body is {data, meta: {current_page, per_page, total}} with only its own items',
      async (type) => {
        // Arrange
        const mine = await svc.eshop();
        const other = await svc.eshop();
        await importItems(mine.api, type, [item(type, 'A'), item(type, 'B')]);
        await importItems(other.api, type, [item(type, 'A'), item(type, 'X')]);
        await publish(mine.eshop.id, type, ['A', 'B']);
        await publish(other.eshop.id, type, ['A', 'X']);

        // Act
        const res = await mine.api.get(`/api/v2/rest/${PATH[type]}`);

        // Assert
        expect(res.status).toBe(200);
        expect(Object.keys(res.body).sort()).toEqual(['data', 'meta']);
        expect(res.body.meta).toEqual({ current_page: 1, per_page: 100, total: 2 });
        expect(idsOf(res.body)).toEqual(['A', 'B']);
        const guids = await svc.deps
          .db(TABLE[type])
          .where({ eshop_id: mine.eshop.id })
          .orderBy('id')
          .pluck('guid');
        expect(res.body.data.map((i: { guid: string }) => i.guid)).toEqual(guids);
      },
    );
  });

  describe('rule 2: only ready, not deleted items (visible and hidden)', () => {
    test.each(['product', 'category', 'blog'] as const)(
      'when %s items are draft, review, generate, ready, hidden or deleted, then only the ready not deleted ones are listed',
      async (type) => {
        // Arrange
        const { eshop, api } = await svc.eshop();
        await importItems(api, type, [
          item(type, 'A-draft'),
          item(type, 'B-review'),
          item(type, 'C-generate'),
          item(type, 'D-ready'),
          item(type, 'E-hidden', { is_visible: false }),
          item(type, 'F-deleted'),
        ]);
        await publish(eshop.id, type, [
          'A-draft',
          'B-review',
          'C-generate',
          'D-ready',
          'E-hidden',
          'F-deleted',
        ]);
        await svc.setStatus(eshop.id, type, ['A-draft'], 'draft');
        await svc.setStatus(eshop.id, type, ['B-review'], 'review');
        await svc.setStatus(eshop.id, type, ['C-generate'], 'generate');
        const deleted = await api.delete(`/api/v2/rest/${PATH[type]}`, ['F-deleted']);
        expect(deleted.body).toMatchObject({ deleted: 1 });

        // Act
        const res = await api.get(`/api/v2/rest/${PATH[type]}`);

        // Assert
        expect(res.status).toBe(200);
        expect(idsOf(res.body)).toEqual(['D-ready', 'E-hidden']);
        expect(res.body.meta.total).toBe(2);
        expect(res.body.data.map((i: { is_visible: boolean }) => i.is_visible)).toEqual([true, false]);
        const stored = await svc.deps
          .db(TABLE[type])
          .where({ eshop_id: eshop.id })
          .orderBy('id')
          .select('external_id', 'status', 'is_delete', 'is_visible');
        expect(stored).toEqual([
          { external_id: 'A-draft', status: 'draft', is_delete: false, is_visible: true },
          { external_id: 'B-review', status: 'review', is_delete: false, is_visible: true },
          { external_id: 'C-generate', status: 'generate', is_delete: false, is_visible: true },
          { external_id: 'D-ready', status: 'ready', is_delete: false, is_visible: true },
          { external_id: 'E-hidden', status: 'ready', is_delete: false, is_visible: false },
          { external_id: 'F-deleted', status: 'ready', is_delete: true, is_visible: true },
        ]);
      },
    );
  });

  describe('rule 3: only active languages', () => {
    async function productInLanguages(languages: ('default' | 'cs' | 'sk' | 'en' | 'de')[]) {
      const created = await svc.eshop({ languages });
      await importItems(created.api, 'product', [
        {
          id: 'P1',
          name: { default: 'Chair', cs: 'Židle', de: 'Stuhl' },
          url: {
            default: 'https://shop.test/chair',
            cs: 'https://shop.test/zidle',
            de: 'https://shop.test/stuhl',
          },
        },
      ]);
      await publish(created.eshop.id, 'product', ['P1']);
      await storeContent(created.eshop.id, 'product', 'P1', {
        html: { default: '<p>Chair</p>', cs: '<p>Židle</p>', de: '<p>Stuhl</p>' },
      });
      return created;
    }

    test('when lang=all is asked on an eshop with default and cs, then only default and cs appear', async () => {
      // Arrange
      const { api } = await productInLanguages(['default', 'cs']);

      // Act
      const res = await api.get('/api/v2/rest/products?lang=all');

      // Assert
      expect(res.status).toBe(200);
      const product = res.body.data[0]!;
      expect(product.name).toEqual({ default: 'Chair', cs: 'Židle' });
      expect(product.url).toEqual({ default: 'https://shop.test/chair', cs: 'https://shop.test/zidle' });
      expect(product.content.html).toEqual({ default: '<p>Chair</p>', cs: '<p>Židle</p>' });
    });

    test('when lang=de is asked on an eshop without de, then no de keys appear at all', async () => {
      // Arrange
      const { eshop, api } = await productInLanguages(['default', 'cs']);

      // Act
      const res = await api.get('/api/v2/rest/products?lang=de');

      // Assert
      expect(res.status).toBe(200);
      const product = res.body.data[0]!;
      expect(product.name).toEqual({});
      expect(product.url).toEqual({});
      expect(product.content).toEqual({ html: {} });
      expect(JSON.stringify(res.body)).not.toContain('"de"');
      const stored = await svc.deps.db('products').where({ eshop_id: eshop.id, external_id: 'P1' }).first();
      expect(stored!.name).toEqual({ default: 'Chair', cs: 'Židle', de: 'Stuhl' });
    });

    test('when lang is absent, then only the default language is returned', async () => {
      // Arrange
      const { api } = await productInLanguages(['default', 'cs', 'de']);

      // Act
      const res = await api.get('/api/v2/rest/products');

      // Assert
      expect(res.status).toBe(200);
      const product = res.body.data[0]!;
      expect(product.name).toEqual({ default: 'Chair' });
      expect(product.url).toEqual({ default: 'https://shop.test/chair' });
      expect(product.content.html).toEqual({ default: '<p>Chair</p>' });
    });

    test('when lang=cs,default is asked, then both languages are returned', async () => {
      // Arrange
      const { api } = await productInLanguages(['default', 'cs', 'de']);

      // Act
      const res = await api.get('/api/v2/rest/products?lang=cs,default');

      // Assert
      expect(res.status).toBe(200);
      const product = res.body.data[0]!;
      expect(product.name).toEqual({ default: 'Chair', cs: 'Židle' });
      expect(product.content.html).toEqual({ default: '<p>Chair</p>', cs: '<p>Židle</p>' });
    });

    test.each(['xx', 'cs,fr', 'ALL', 'uk'])(
      'when lang=%s names an unknown language, then 422 with errors.lang',
      async (lang) => {
        // Arrange
        const { api } = await productInLanguages(['default', 'cs']);

        // Act
        const res = await api.get(`/api/v2/rest/products?lang=${encodeURIComponent(lang)}`);

        // Assert
        expect(res.status).toBe(422);
        expect(res.body).toEqual({
          error: INVALID,
          code: 'validation_failed',
          errors: { lang: expect.any(Array) },
        });
        expect(res.body.errors?.lang?.length).toBeGreaterThan(0);
        for (const message of res.body.errors?.lang ?? []) expect(typeof message).toBe('string');
      },
    );

    test('when a language has no value, then it is left out of the language maps but content.html has it as an empty string', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop({ languages: ['default', 'cs', 'en'] });
      await importItems(api, 'product', [
        {
          id: 'P1',
          name: { default: 'Chair', cs: 'Židle' },
          short_description: { default: 'Short' },
          description: { cs: 'Popis' },
          url: { default: 'https://shop.test/chair' },
        },
      ]);
      await publish(eshop.id, 'product', ['P1']);
      await storeContent(eshop.id, 'product', 'P1', { html: { default: '<p>Chair</p>' } });

      // Act
      const res = await api.get('/api/v2/rest/products?lang=all');

      // Assert
      expect(res.status).toBe(200);
      const product = res.body.data[0]!;
      expect(product.name).toEqual({ default: 'Chair', cs: 'Židle' });
      expect(product.short_description).toEqual({ default: 'Short' });
      expect(product.description).toEqual({ cs: 'Popis' });
      expect(product.url).toEqual({ default: 'https://shop.test/chair' });
      expect(product.seo_title).toEqual({});
      expect(product.seo_description).toEqual({});
      expect(product.content).toEqual({ html: { default: '<p>Chair</p>', cs: '', en: '' } });
    });

    test('when an item has no content row yet, then content.html has every requested language as an empty string', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop({ languages: ['default', 'cs', 'en'] });
      await importItems(api, 'category', [item('category', 'C1')]);
      await publish(eshop.id, 'category', ['C1']);

      // Act
      const res = await api.get('/api/v2/rest/categories?lang=default,en');

      // Assert
      expect(res.status).toBe(200);
      expect(res.body.data[0]?.content).toEqual({ html: { default: '', en: '' } });
    });
  });
});
