import type { EntityType } from '@catalogue/db';
import { catalogueService, type Client } from './helpers';

/** v2 list items: which items are listed, their shape, languages, includes and timestamps. */

const PATH: Record<EntityType, string> = {
  product: 'products',
  category: 'categories',
  brand: 'brands',
  blog: 'blogs',
};
const TABLE = PATH;
const TYPES: EntityType[] = ['product', 'category', 'brand', 'blog'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const INVALID = 'The given data was invalid.';

const COMMON_KEYS = [
  'id',
  'guid',
  'is_visible',
  'is_loaded',
  'name',
  'description',
  'url',
  'seo_title',
  'seo_description',
  'content',
  'created_at',
  'updated_at',
];
const ITEM_KEYS: Record<EntityType, string[]> = {
  product: [...COMMON_KEYS, 'short_description', 'image_preview'].sort(),
  category: [...COMMON_KEYS].sort(),
  brand: [...COMMON_KEYS, 'image_preview'].sort(),
  blog: [...COMMON_KEYS, 'category'].sort(),
};
const ALL_INCLUDES = ['nested', 'marketplace', 'site_link', 'rich_snippet', 'variant'];
const INCLUDES: Record<EntityType, string[]> = {
  product: ['nested', 'marketplace', 'site_link', 'rich_snippet', 'variant'],
  category: ['nested', 'marketplace', 'rich_snippet'],
  brand: ['nested', 'marketplace', 'site_link', 'rich_snippet'],
  blog: ['nested', 'marketplace', 'site_link', 'rich_snippet'],
};

interface StoredContent {
  html?: Record<string, string>;
  marketplace?: Record<string, string>;
  nested?: unknown[];
  site_link?: { html: Record<string, string>; list: Record<string, { heading: string; slug: string }[]> };
  rich_snippet?: { html: Record<string, string>; json: Record<string, unknown> };
}

const NESTED = [[{ id: 1, class: 'cc-text', tag: 'p', children: [] }]];
const SITE_LINK = {
  html: { default: '<nav><a href="/shoes">Shoes</a></nav>', cs: '<nav><a href="/boty">Boty</a></nav>' },
  list: { default: [{ heading: 'Shoes', slug: 'shoes' }], cs: [{ heading: 'Boty', slug: 'boty' }] },
};
const RICH_SNIPPET = {
  html: {
    default: '<script type="application/ld+json">{"@type":"Product","name":"Chair"}</script>',
    cs: '<script type="application/ld+json">{"@type":"Product","name":"Židle"}</script>',
  },
  json: { default: { '@type': 'Product', name: 'Chair' }, cs: { '@type': 'Product', name: 'Židle' } },
};

/** A minimal valid v2 write item of a type. */
function item(type: EntityType, id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, name: { default: `${type} ${id}` }, ...extra };
}

function idsOf(body: { data: { id: string }[] }): string[] {
  return body.data.map((i) => i.id);
}

describe('catalogue-api: v2 lists (items, languages, includes)', () => {
  const svc = catalogueService();

  async function importItems(api: Client, type: EntityType, items: Record<string, unknown>[]) {
    const res = await api.post(`/api/v2/rest/${PATH[type]}`, items);
    expect(res.body).toMatchObject({ success: true, skipped: 0 });
    expect(res.status).toBe(200);
  }

  /** What the generation worker does for an item: status ready (via staff's CLI path) and loaded. */
  async function publish(eshopId: number, type: EntityType, ids: string[]) {
    await svc.setStatus(eshopId, type, ids, 'ready');
    await svc.deps
      .db(TABLE[type])
      .where({ eshop_id: eshopId })
      .whereIn('external_id', ids)
      .update({ is_loaded: true });
  }

  async function storeContent(eshopId: number, type: EntityType, externalId: string, c: StoredContent) {
    await svc.deps.db('content').insert({
      eshop_id: eshopId,
      entity_type: type,
      external_id: externalId,
      html: JSON.stringify(c.html ?? {}),
      marketplace: JSON.stringify(c.marketplace ?? {}),
      nested: JSON.stringify(c.nested ?? []),
      site_link: JSON.stringify(c.site_link ?? { html: {}, list: {} }),
      rich_snippet: JSON.stringify(c.rich_snippet ?? { html: {}, json: {} }),
    });
  }

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
      const [product] = res.body.data;
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
      const [product] = res.body.data;
      expect(product.name).toEqual({});
      expect(product.url).toEqual({});
      expect(product.content).toEqual({ html: {} });
      expect(JSON.stringify(res.body)).not.toContain('"de"');
      const stored = await svc.deps.db('products').where({ eshop_id: eshop.id, external_id: 'P1' }).first();
      expect(stored.name).toEqual({ default: 'Chair', cs: 'Židle', de: 'Stuhl' });
    });

    test('when lang is absent, then only the default language is returned', async () => {
      // Arrange
      const { api } = await productInLanguages(['default', 'cs', 'de']);

      // Act
      const res = await api.get('/api/v2/rest/products');

      // Assert
      expect(res.status).toBe(200);
      const [product] = res.body.data;
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
      const [product] = res.body.data;
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
        expect(res.body.errors.lang.length).toBeGreaterThan(0);
        for (const message of res.body.errors.lang) expect(typeof message).toBe('string');
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
      const [product] = res.body.data;
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
      expect(res.body.data[0].content).toEqual({ html: { default: '', en: '' } });
    });
  });

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
      const [product] = res.body.data;
      expect(product.content).toEqual({ html: { default: '<p>P1</p>' } });
      expect(Object.keys(product).sort()).toEqual(ITEM_KEYS.product);
      for (const key of ['marketplace', 'nested', 'site_link', 'rich_snippet', 'variant']) {
        expect(product).not.toHaveProperty(key);
        expect(product.content).not.toHaveProperty(key);
      }
    });
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
      expect(products.body.data[0].content).toEqual({ html: { default: '' } });
      expect(categories.body.data).toHaveLength(1);
      expect(categories.body.data[0].content).toEqual({ html: { default: '<p>category</p>' } });
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
      });

      // Act
      const all = await api.get(
        '/api/v2/rest/products?lang=all&include=site_link,rich_snippet,marketplace,nested',
      );
      const czech = await api.get('/api/v2/rest/products?lang=cs&include=site_link,rich_snippet,marketplace');

      // Assert
      expect(all.status).toBe(200);
      const [product] = all.body.data;
      expect(product.content).toEqual({
        html: { default: '<p>Chair</p>', cs: '<p>Židle</p>' },
        marketplace: { default: '<p>Chair market</p>', cs: '<p>Židle trh</p>' },
        nested: NESTED,
      });
      expect(product.site_link).toEqual(SITE_LINK);
      expect(product.rich_snippet).toEqual(RICH_SNIPPET);
      expect(czech.status).toBe(200);
      const [cs] = czech.body.data;
      expect(cs.content).toEqual({ html: { cs: '<p>Židle</p>' }, marketplace: { cs: '<p>Židle trh</p>' } });
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
      const [product] = res.body.data;
      expect(Object.keys(product).sort()).toEqual(ITEM_KEYS.product);
      expect(product).toEqual({
        id: 'P1',
        guid: stored.guid,
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
      const [brand] = res.body.data;
      expect(Object.keys(brand).sort()).toEqual(ITEM_KEYS.brand);
      expect(brand).toMatchObject({
        id: 'acme',
        guid: stored.guid,
        image_preview: 'https://cdn.shop.test/acme.png',
        name: { default: 'brand acme' },
      });
      expect(brand.id).not.toBe(String(stored.id));
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
      const [blog] = res.body.data;
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
      expect(Object.keys(res.body.data[0]).sort()).toEqual(ITEM_KEYS.category);
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
          const [listed] = res.body.data;
          if (include === 'nested' || include === 'marketplace')
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

  describe('rule 10: timestamps', () => {
    test('when items are listed, then created_at and updated_at are UTC with microseconds and Z and equal the stored values', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      await importItems(api, 'product', [item('product', 'P1'), item('product', 'P2')]);
      await publish(eshop.id, 'product', ['P1', 'P2']);
      await svc.deps
        .db('products')
        .where({ eshop_id: eshop.id, external_id: 'P1' })
        .update({ created_at: '2026-05-04 03:02:01.000123+00', updated_at: '2026-05-04 12:00:00.5+02' });

      // Act
      const res = await api.get('/api/v2/rest/products');

      // Assert
      expect(res.status).toBe(200);
      const stored = await svc.deps
        .db('products')
        .where({ eshop_id: eshop.id })
        .orderBy('id')
        .select(
          'external_id',
          svc.deps.db.raw(
            `to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at`,
          ),
          svc.deps.db.raw(
            `to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as updated_at`,
          ),
        );
      expect(
        res.body.data.map((i: { id: string; created_at: string; updated_at: string }) => ({
          external_id: i.id,
          created_at: i.created_at,
          updated_at: i.updated_at,
        })),
      ).toEqual(stored);
      for (const listed of res.body.data) {
        expect(listed.created_at).toMatch(ISO_MICROS);
        expect(listed.updated_at).toMatch(ISO_MICROS);
      }
      expect(res.body.data[0].created_at).toBe('2026-05-04T03:02:01.000123Z');
      expect(res.body.data[0].updated_at).toBe('2026-05-04T10:00:00.500000Z');
    });
  });

  describe('rule 11: variants', () => {
    test('when include=variant is asked, then variants come in internal-id order and a product without variants has []', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      await importItems(api, 'product', [
        item('product', 'P1', {
          variant: [{ code: 'P1-XL', ean: '8590000000003' }, { code: 'P1-S', ean: null }, { code: 'P1-M' }],
        }),
        item('product', 'P2'),
      ]);
      await publish(eshop.id, 'product', ['P1', 'P2']);

      // Act
      const res = await api.get('/api/v2/rest/products?include=variant');

      // Assert
      expect(res.status).toBe(200);
      const [p1, p2] = res.body.data;
      expect(p1.variant).toEqual([
        { code: 'P1-XL', ean: '8590000000003' },
        { code: 'P1-S', ean: null },
        { code: 'P1-M', ean: null },
      ]);
      expect(p2.variant).toEqual([]);
      const stored = await svc.deps
        .db('product_variants as v')
        .join('products as p', 'p.id', 'v.product_id')
        .where({ 'p.eshop_id': eshop.id, 'p.external_id': 'P1' })
        .orderBy('v.id')
        .select('v.code', 'v.ean');
      expect(p1.variant).toEqual(stored);
    });

    test('when a product is re-imported with its variants in another order, then the list follows the new internal ids', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      await importItems(api, 'product', [
        item('product', 'P1', { variant: [{ code: 'A' }, { code: 'B' }, { code: 'C' }] }),
      ]);
      await importItems(api, 'product', [
        item('product', 'P1', { variant: [{ code: 'C' }, { code: 'A', ean: '4006381333931' }] }),
      ]);
      await publish(eshop.id, 'product', ['P1']);

      // Act
      const res = await api.get('/api/v2/rest/products?include=variant');

      // Assert
      expect(res.status).toBe(200);
      expect(res.body.data[0].variant).toEqual([
        { code: 'C', ean: null },
        { code: 'A', ean: '4006381333931' },
      ]);
      const stored = await svc.deps
        .db('product_variants')
        .where({ eshop_id: eshop.id })
        .orderBy('id')
        .select('code', 'ean');
      expect(stored).toEqual(res.body.data[0].variant);
    });
  });

  describe('rule 12: soft deletion', () => {
    test.each(TYPES)('when a listed %s is soft-deleted, then it disappears from the list', async (type) => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      await importItems(api, type, [item(type, 'A-keep'), item(type, 'B-drop')]);
      await publish(eshop.id, type, ['A-keep', 'B-drop']);
      const before = await api.get(`/api/v2/rest/${PATH[type]}`);
      expect(idsOf(before.body)).toEqual(['A-keep', 'B-drop']);

      // Act
      const deleted = await api.delete(`/api/v2/rest/${PATH[type]}`, ['B-drop']);
      const res = await api.get(`/api/v2/rest/${PATH[type]}`);

      // Assert
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ success: true, deleted: 1, skipped: 0, errors: [] });
      expect(res.status).toBe(200);
      expect(idsOf(res.body)).toEqual(['A-keep']);
      expect(res.body.meta.total).toBe(1);
      const stored = await svc.deps
        .db(TABLE[type])
        .where({ eshop_id: eshop.id })
        .orderBy('id')
        .select('external_id', 'is_delete');
      expect(stored).toEqual([
        { external_id: 'A-keep', is_delete: false },
        { external_id: 'B-drop', is_delete: true },
      ]);
    });
  });
});
