import {
  PATH,
  TYPES,
  UUID,
  ISO_MICROS,
  INVALID,
  ITEM_KEYS,
  ALL_INCLUDES,
  INCLUDES,
  NESTED,
  SITE_LINK,
  RICH_SNIPPET,
  item,
  idsOf,
  v2ListService,
} from './v2-list-fixtures';

/** v2 list items: which items are listed, their shape, languages, includes and timestamps. */
describe('catalogue-api: v2 lists: includes, settings and per-entity fields (rules 4–6)', () => {
  const { svc, importItems, publish, storeContent } = v2ListService();

  describe('rule 4: without include only content.html', () => {
    test('when no include is asked, then content has only html and no include keys appear', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop({
        languages: ['default', 'cs'],
        enableSiteLink: true,
        enableRichSnippet: true,
      });
      await importItems(api, 'product', [
        item('product', 'P1', { variant: [{ code: 'P1-V1', ean: '8590000000001' }] }),
      ]);
      await publish(eshop.id, 'product', ['P1']);
      await storeContent(eshop.id, 'product', 'P1', {
        html: { default: '<p>P1</p>' },
        marketplace: { default: '<p>market</p>' },
        nested: NESTED,
        site_link: SITE_LINK,
        rich_snippet: RICH_SNIPPET,
      });

      // Act
      const res = await api.get('/api/v2/rest/products');

      // Assert
      expect(res.status).toBe(200);
      const product = res.body.data[0]!;
      expect(product.content).toEqual({ html: { default: '<p>P1</p>' } });
      expect(Object.keys(product).sort()).toEqual(ITEM_KEYS.product);
      for (const key of ['marketplace', 'nested', 'site_link', 'rich_snippet', 'variant']) {
        expect(product).not.toHaveProperty(key);
        expect(product.content).not.toHaveProperty(key);
      }
    });
    test.each([
      ['stored pieces', true],
      ['columns', false],
    ])(
      'when a rendered item knows its complete languages and is read without include (from %s), then content is exactly {html}; include=languages_complete adds them',
      async (_from, pieces) => {
        // Arrange
        const { eshop, api } = await svc.eshop({ languages: ['default', 'cs'] });
        await importItems(api, 'product', [item('product', 'P1')]);
        await publish(eshop.id, 'product', ['P1']);
        await storeContent(eshop.id, 'product', 'P1', {
          html: { default: '<p>Chair</p>', cs: '<p>Židle</p>' },
          languages_complete: ['default', 'cs'],
        });
        if (!pieces) {
          await svc.deps.db('content').where({ eshop_id: eshop.id }).update({ list_json: null });
          await svc.deps.db('products').where({ eshop_id: eshop.id }).update({ list_json: null });
        }

        // Act
        const plain = await api.get('/api/v2/rest/products?lang=all');
        const asked = await api.get('/api/v2/rest/products?lang=all&include=languages_complete');

        // Assert
        expect(plain.status).toBe(200);
        expect(plain.body.data[0]?.content).toStrictEqual({
          html: { default: '<p>Chair</p>', cs: '<p>Židle</p>' },
        });
        expect(asked.status).toBe(200);
        expect(asked.body.data[0]?.content).toStrictEqual({
          html: { default: '<p>Chair</p>', cs: '<p>Židle</p>' },
          languages_complete: ['default', 'cs'],
        });
      },
    );

    test('when a product, a category and another eshop use the same external id, then each item shows only its own content', async () => {
      // Arrange
      const mine = await svc.eshop();
      const other = await svc.eshop();
      await importItems(mine.api, 'product', [item('product', 'X1')]);
      await importItems(mine.api, 'category', [item('category', 'X1')]);
      await importItems(other.api, 'product', [item('product', 'X1')]);
      await publish(mine.eshop.id, 'product', ['X1']);
      await publish(mine.eshop.id, 'category', ['X1']);
      await publish(other.eshop.id, 'product', ['X1']);
      await storeContent(mine.eshop.id, 'category', 'X1', { html: { default: '<p>category</p>' } });
      await storeContent(other.eshop.id, 'product', 'X1', { html: { default: '<p>other eshop</p>' } });

      // Act
      const products = await mine.api.get('/api/v2/rest/products');
      const categories = await mine.api.get('/api/v2/rest/categories');

      // Assert
      expect(products.status).toBe(200);
      expect(products.body.data).toHaveLength(1);
      expect(products.body.data[0]?.content).toEqual({ html: { default: '' } });
      expect(categories.body.data).toHaveLength(1);
      expect(categories.body.data[0]?.content).toEqual({ html: { default: '<p>category</p>' } });
    });
  });

  describe('rule 5: site_link and rich_snippet need the eshop settings', () => {
    test.each([
      ['site_link', 'enable_site_link'],
      ['rich_snippet', 'enable_rich_snippet'],
    ])(
      'when include=%s is asked and the eshop setting is off, then 422 and errors.include names %s',
      async (include, setting) => {
        // Arrange
        const { eshop, api } = await svc.eshop({ enableSiteLink: false, enableRichSnippet: false });
        await importItems(api, 'product', [item('product', 'P1')]);
        await publish(eshop.id, 'product', ['P1']);

        // Act
        const res = await api.get(`/api/v2/rest/products?include=${include}`);

        // Assert
        expect(res.status).toBe(422);
        expect(res.body).toEqual({
          error: INVALID,
          code: 'validation_failed',
          errors: { include: [expect.stringContaining(setting)] },
        });
      },
    );

    test('when the settings are on, then site_link, rich_snippet, marketplace and nested come from the stored content', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop({
        languages: ['default', 'cs'],
        enableSiteLink: true,
        enableRichSnippet: true,
      });
      await importItems(api, 'product', [item('product', 'P1')]);
      await publish(eshop.id, 'product', ['P1']);
      await storeContent(eshop.id, 'product', 'P1', {
        html: { default: '<p>Chair</p>', cs: '<p>Židle</p>' },
        marketplace: { default: '<p>Chair market</p>', cs: '<p>Židle trh</p>' },
        nested: NESTED,
        site_link: SITE_LINK,
        rich_snippet: RICH_SNIPPET,
        languages_complete: ['default'],
      });

      // Act
      const all = await api.get(
        '/api/v2/rest/products?lang=all&include=site_link,rich_snippet,marketplace,nested,languages_complete',
      );
      const czech = await api.get(
        '/api/v2/rest/products?lang=cs&include=site_link,rich_snippet,marketplace,languages_complete',
      );

      // Assert
      expect(all.status).toBe(200);
      const product = all.body.data[0]!;
      expect(product.content).toEqual({
        html: { default: '<p>Chair</p>', cs: '<p>Židle</p>' },
        marketplace: { default: '<p>Chair market</p>', cs: '<p>Židle trh</p>' },
        nested: NESTED,
        languages_complete: ['default'],
      });
      expect(product.site_link).toEqual(SITE_LINK);
      expect(product.rich_snippet).toEqual(RICH_SNIPPET);
      expect(czech.status).toBe(200);
      const cs = czech.body.data[0]!;
      // The stored list filtered to the languages asked for: cs is not complete.
      expect(cs.content).toEqual({
        html: { cs: '<p>Židle</p>' },
        marketplace: { cs: '<p>Židle trh</p>' },
        languages_complete: [],
      });
      expect(cs.site_link).toEqual({ html: { cs: SITE_LINK.html.cs }, list: { cs: SITE_LINK.list.cs } });
      expect(cs.rich_snippet).toEqual({
        html: { cs: RICH_SNIPPET.html.cs },
        json: { cs: RICH_SNIPPET.json.cs },
      });
    });
  });

  describe('rule 6: brands, per-entity fields and includes', () => {
    test('when brands have any status, then every brand not deleted is listed and its id is the external id', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      await importItems(api, 'brand', [
        item('brand', 'acme'),
        item('brand', 'bolt'),
        item('brand', 'core'),
        item('brand', 'dash'),
        item('brand', 'gone'),
      ]);
      await svc.deps.db('brands').where({ eshop_id: eshop.id }).update({ is_loaded: true });
      await svc.setStatus(eshop.id, 'brand', ['bolt'], 'draft');
      await svc.setStatus(eshop.id, 'brand', ['core'], 'review');
      await svc.setStatus(eshop.id, 'brand', ['dash'], 'ready');
      const deleted = await api.delete('/api/v2/rest/brands', ['gone']);
      expect(deleted.body).toMatchObject({ deleted: 1 });

      // Act
      const res = await api.get('/api/v2/rest/brands');

      // Assert
      expect(res.status).toBe(200);
      expect(idsOf(res.body)).toEqual(['acme', 'bolt', 'core', 'dash']);
      expect(res.body.meta.total).toBe(4);
      const stored = await svc.deps
        .db('brands')
        .where({ eshop_id: eshop.id })
        .orderBy('id')
        .select('external_id', 'status', 'is_delete');
      expect(stored).toEqual([
        { external_id: 'acme', status: 'generate', is_delete: false },
        { external_id: 'bolt', status: 'draft', is_delete: false },
        { external_id: 'core', status: 'review', is_delete: false },
        { external_id: 'dash', status: 'ready', is_delete: false },
        { external_id: 'gone', status: 'generate', is_delete: true },
      ]);
    });

    test('when a product is listed, then it has image_preview (its first image) and short_description', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop({ languages: ['default', 'cs'] });
      await importItems(api, 'product', [
        {
          id: 'P1',
          is_visible: true,
          images: ['https://cdn.shop.test/p1-front.jpg', 'https://cdn.shop.test/p1-back.jpg'],
          name: { default: 'Chair', cs: 'Židle' },
          short_description: { default: 'A chair', cs: 'Židle krátce' },
          description: { default: 'Long text' },
          url: { default: 'https://shop.test/chair' },
          seo_title: { default: 'Chair | Shop' },
          seo_description: { default: 'Buy a chair' },
        },
      ]);
      await publish(eshop.id, 'product', ['P1']);
      const stored = await svc.deps.db('products').where({ eshop_id: eshop.id, external_id: 'P1' }).first();

      // Act
      const res = await api.get('/api/v2/rest/products?lang=all');

      // Assert
      expect(res.status).toBe(200);
      const product = res.body.data[0]!;
      expect(Object.keys(product).sort()).toEqual(ITEM_KEYS.product);
      expect(product).toEqual({
        id: 'P1',
        guid: stored!.guid,
        is_visible: true,
        is_loaded: true,
        name: { default: 'Chair', cs: 'Židle' },
        short_description: { default: 'A chair', cs: 'Židle krátce' },
        description: { default: 'Long text' },
        url: { default: 'https://shop.test/chair' },
        seo_title: { default: 'Chair | Shop' },
        seo_description: { default: 'Buy a chair' },
        image_preview: 'https://cdn.shop.test/p1-front.jpg',
        content: { html: { default: '', cs: '' } },
        created_at: expect.stringMatching(ISO_MICROS),
        updated_at: expect.stringMatching(ISO_MICROS),
      });
      expect(product.guid).toMatch(UUID);
    });

    test('when a brand is listed, then it has image_preview and its external id as id', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      await importItems(api, 'brand', [
        item('brand', 'acme', { image_preview: 'https://cdn.shop.test/acme.png' }),
      ]);
      await publish(eshop.id, 'brand', ['acme']);
      const stored = await svc.deps.db('brands').where({ eshop_id: eshop.id, external_id: 'acme' }).first();

      // Act
      const res = await api.get('/api/v2/rest/brands');

      // Assert
      expect(res.status).toBe(200);
      const brand = res.body.data[0]!;
      expect(Object.keys(brand).sort()).toEqual(ITEM_KEYS.brand);
      expect(brand).toMatchObject({
        id: 'acme',
        guid: stored!.guid,
        image_preview: 'https://cdn.shop.test/acme.png',
        name: { default: 'brand acme' },
      });
      expect(brand.id).not.toBe(String(stored!.id));
    });

    test('when a blog is listed, then it has its category', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      await importItems(api, 'blog', [item('blog', 'post-1', { category: 'News' })]);
      await publish(eshop.id, 'blog', ['post-1']);

      // Act
      const res = await api.get('/api/v2/rest/blogs');

      // Assert
      expect(res.status).toBe(200);
      const blog = res.body.data[0]!;
      expect(Object.keys(blog).sort()).toEqual(ITEM_KEYS.blog);
      expect(blog).toMatchObject({ id: 'post-1', category: 'News', name: { default: 'blog post-1' } });
    });

    test('when a product, brand or blog has no image or category, then image_preview and category are "" (typed string, never null)', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      await importItems(api, 'product', [item('product', 'P1')]);
      await importItems(api, 'brand', [
        item('brand', 'B1'),
        item('brand', 'B2', { image_preview: 'https://cdn.shop.test/b2.png' }),
      ]);
      await importItems(api, 'brand', [item('brand', 'B2', { image_preview: null })]);
      await importItems(api, 'blog', [item('blog', 'L1'), item('blog', 'L2', { category: null })]);
      await publish(eshop.id, 'product', ['P1']);
      await publish(eshop.id, 'brand', ['B1', 'B2']);
      await publish(eshop.id, 'blog', ['L1', 'L2']);

      // Act
      const products = await api.get('/api/v2/rest/products');
      const brands = await api.get('/api/v2/rest/brands');
      const blogs = await api.get('/api/v2/rest/blogs');

      // Assert
      expect(products.body.data.map((p: { image_preview: unknown }) => p.image_preview)).toEqual(['']);
      expect(brands.body.data.map((b: { image_preview: unknown }) => b.image_preview)).toEqual(['', '']);
      expect(blogs.body.data.map((b: { category: unknown }) => b.category)).toEqual(['', '']);
    });

    test('when a category is listed, then it has only the common fields', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      await importItems(api, 'category', [
        item('category', 'C1', { images: ['https://cdn.shop.test/c1.jpg'] }),
      ]);
      await publish(eshop.id, 'category', ['C1']);

      // Act
      const res = await api.get('/api/v2/rest/categories');

      // Assert
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.data[0] ?? {}).sort()).toEqual(ITEM_KEYS.category);
    });

    test('when include=site_link is asked for categories (setting on), then 422 with errors.include', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop({ enableSiteLink: true, enableRichSnippet: true });
      await importItems(api, 'category', [item('category', 'C1')]);
      await publish(eshop.id, 'category', ['C1']);

      // Act
      const res = await api.get('/api/v2/rest/categories?include=site_link');

      // Assert
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: INVALID,
        code: 'validation_failed',
        errors: { include: [expect.stringContaining('site_link')] },
      });
    });

    const matrix = TYPES.flatMap((type) =>
      ALL_INCLUDES.map((include) => [type, include, INCLUDES[type].includes(include)] as const),
    );
    test.each(matrix)(
      'when %s are listed with include=%s (settings on), then it is accepted only if the entity supports it (%s)',
      async (type, include, supported) => {
        // Arrange
        const { eshop, api } = await svc.eshop({ enableSiteLink: true, enableRichSnippet: true });
        await importItems(api, type, [item(type, 'X1')]);
        await publish(eshop.id, type, ['X1']);

        // Act
        const res = await api.get(`/api/v2/rest/${PATH[type]}?include=${include}`);

        // Assert
        if (supported) {
          expect(res.status).toBe(200);
          const listed = res.body.data[0]!;
          if (include === 'nested' || include === 'marketplace' || include === 'languages_complete')
            expect(listed.content).toHaveProperty(include);
          else expect(listed).toHaveProperty(include);
        } else {
          expect(res.status).toBe(422);
          expect(res.body).toEqual({
            error: INVALID,
            code: 'validation_failed',
            errors: { include: [expect.stringContaining(include)] },
          });
        }
      },
    );

    test('when an unknown include is asked, then 422 with errors.include naming it', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop({ enableSiteLink: true, enableRichSnippet: true });
      await importItems(api, 'product', [item('product', 'P1')]);
      await publish(eshop.id, 'product', ['P1']);

      // Act
      const res = await api.get('/api/v2/rest/products?include=marketplace,reviews');

      // Assert
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: INVALID,
        code: 'validation_failed',
        errors: { include: [expect.stringContaining('reviews')] },
      });
    });
  });
});
