import type { CatalogueEntityType } from '@catalogue/config';
import { catalogueService, type Client } from './helpers';

/** v2 list query parameters: is_edited, last_update_time_from, page and per_page; the list forms of include and lang. */

const PATH = {
  product: 'products',
  category: 'categories',
  brand: 'brands',
  blog: 'blogs',
} as const satisfies Record<CatalogueEntityType, string>;
const TABLE = PATH;
const TYPES: CatalogueEntityType[] = ['product', 'category', 'brand', 'blog'];
const INVALID = 'The given data was invalid.';

function item(type: CatalogueEntityType, id: string): Record<string, unknown> {
  return { id, name: { default: `${type} ${id}` } };
}

function idsOf(body: { data: { id: string }[] }): string[] {
  return body.data.map((i) => i.id);
}

describe('catalogue-api: v2 list query parameters', () => {
  const svc = catalogueService();

  async function importItems(api: Client, type: CatalogueEntityType, items: Record<string, unknown>[]) {
    const res = await api.post(`/api/v2/rest/${PATH[type]}`, items);
    expect(res.body).toMatchObject({ success: true, skipped: 0 });
    expect(res.status).toBe(200);
  }

  /** Ready, with is_loaded as given (the worker sets it true; the editor's flag). */
  async function publish(eshopId: number, type: CatalogueEntityType, ids: string[], loaded = true) {
    await svc.setStatus(eshopId, type, ids, 'ready');
    await svc.deps
      .db(TABLE[type])
      .where({ eshop_id: eshopId })
      .whereIn('external_id', ids)
      .update({ is_loaded: loaded });
  }

  /** An eshop with two ready products: A-loaded (is_loaded true) and B-unloaded (false). */
  async function loadedAndUnloaded(type: CatalogueEntityType = 'product') {
    const created = await svc.eshop();
    await importItems(created.api, type, [item(type, 'A-loaded'), item(type, 'B-unloaded')]);
    await publish(created.eshop.id, type, ['A-loaded']);
    await publish(created.eshop.id, type, ['B-unloaded'], false);
    return created;
  }

  describe('rule 7: is_edited', () => {
    test.each(TYPES)(
      'when %s items are listed without is_edited, then only items with is_loaded=true are listed',
      async (type) => {
        // Arrange
        const { eshop, api } = await loadedAndUnloaded(type);

        // Act
        const res = await api.get(`/api/v2/rest/${PATH[type]}`);

        // Assert
        expect(res.status).toBe(200);
        expect(idsOf(res.body)).toEqual(['A-loaded']);
        expect(res.body.meta.total).toBe(1);
        expect(res.body.data[0]?.is_loaded).toBe(true);
        const stored = await svc.deps
          .db(TABLE[type])
          .where({ eshop_id: eshop.id })
          .orderBy('id')
          .select('external_id', 'is_loaded');
        expect(stored).toEqual([
          { external_id: 'A-loaded', is_loaded: true },
          { external_id: 'B-unloaded', is_loaded: false },
        ]);
      },
    );

    test('when is_edited=false, then only the items with is_loaded=false are listed', async () => {
      // Arrange
      const { api } = await loadedAndUnloaded();

      // Act
      const res = await api.get('/api/v2/rest/products?is_edited=false');

      // Assert
      expect(res.status).toBe(200);
      expect(idsOf(res.body)).toEqual(['B-unloaded']);
      expect(res.body.meta.total).toBe(1);
      expect(res.body.data[0]?.is_loaded).toBe(false);
    });

    test.each([
      ['true', ['A-loaded']],
      ['1', ['A-loaded']],
      ['false', ['B-unloaded']],
      ['0', ['B-unloaded']],
    ])('when is_edited=%s, then the list is %j', async (value, expected) => {
      // Arrange
      const { api } = await loadedAndUnloaded();

      // Act
      const res = await api.get(`/api/v2/rest/products?is_edited=${value}`);

      // Assert
      expect(res.status).toBe(200);
      expect(idsOf(res.body)).toEqual(expected);
      expect(res.body.meta.total).toBe(expected.length);
    });

    test.each(['yes', 'maybe', '2', 'truee', '-1'])(
      'when is_edited=%s is not a boolean, then 422 with errors.is_edited',
      async (value) => {
        // Arrange
        const { api } = await loadedAndUnloaded();

        // Act
        const res = await api.get(`/api/v2/rest/products?is_edited=${value}`);

        // Assert
        expect(res.status).toBe(422);
        expect(res.body).toEqual({
          error: INVALID,
          code: 'validation_failed',
          errors: { is_edited: [expect.any(String)] },
        });
      },
    );
  });

  describe('rule 8: last_update_time_from', () => {
    test('when last_update_time_from is given, then only items updated strictly after that second are listed', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      const updated: Record<string, string> = {
        'A-before': '2026-03-01 09:59:59.999999+00',
        'B-exact': '2026-03-01 10:00:00.000000+00',
        'C-micro-after': '2026-03-01 10:00:00.000001+00',
        'D-next-day': '2026-03-02 00:00:00+00',
        'E-other-zone': '2026-03-01 11:00:00+01',
      };
      await importItems(
        api,
        'product',
        Object.keys(updated).map((id) => item('product', id)),
      );
      await publish(eshop.id, 'product', Object.keys(updated));
      for (const [id, at] of Object.entries(updated)) {
        await svc.deps
          .db('products')
          .where({ eshop_id: eshop.id, external_id: id })
          .update({ updated_at: at });
      }

      // Act
      const res = await api.get(
        `/api/v2/rest/products?last_update_time_from=${encodeURIComponent('2026-03-01 10:00:00')}`,
      );

      // Assert
      expect(res.status).toBe(200);
      expect(idsOf(res.body)).toEqual(['C-micro-after', 'D-next-day']);
      expect(res.body.meta.total).toBe(2);
      expect(res.body.data.map((i: { updated_at: string }) => i.updated_at)).toEqual([
        '2026-03-01T10:00:00.000001Z',
        '2026-03-02T00:00:00.000000Z',
      ]);
    });

    test.each([
      '2026-02-30 10:00:00',
      '2026-11-21T10:00:00',
      'yesterday',
      '2026-11-21',
      '2026-11-21 24:00:00',
      '2026-11-21 10:00:00Z',
    ])('when last_update_time_from=%s is not a Y-m-d H:i:s time, then 422', async (value) => {
      // Arrange
      const { api } = await loadedAndUnloaded();

      // Act
      const res = await api.get(`/api/v2/rest/products?last_update_time_from=${encodeURIComponent(value)}`);

      // Assert
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: INVALID,
        code: 'validation_failed',
        errors: {
          last_update_time_from: ['The last_update_time_from field must match the format Y-m-d H:i:s.'],
        },
      });
    });

    test('when is_edited= and last_update_time_from= are sent empty, then they are treated as omitted (like lang=)', async () => {
      // Arrange
      const { api } = await loadedAndUnloaded();

      // Act
      const empty = await api.get('/api/v2/rest/products?is_edited=&last_update_time_from=&lang=');
      const omitted = await api.get('/api/v2/rest/products');

      // Assert
      expect(empty.status).toBe(200);
      expect(idsOf(empty.body)).toEqual(['A-loaded']);
      expect(empty.body).toEqual(omitted.body);
    });
  });

  describe('rule 9: page and per_page', () => {
    test('when page and per_page are absent, then the defaults are page 1 and 100 per page', async () => {
      // Arrange
      const { api } = await loadedAndUnloaded();

      // Act
      const res = await api.get('/api/v2/rest/products');

      // Assert
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({ current_page: 1, per_page: 100, total: 1 });
    });

    test('when per_page=100, then it is accepted; when per_page=101, then 422 with errors.per_page', async () => {
      // Arrange
      const { api } = await loadedAndUnloaded();

      // Act
      const max = await api.get('/api/v2/rest/products?per_page=100');
      const over = await api.get('/api/v2/rest/products?per_page=101');

      // Assert
      expect(max.status).toBe(200);
      expect(max.body.meta).toEqual({ current_page: 1, per_page: 100, total: 1 });
      expect(over.status).toBe(422);
      expect(over.body).toEqual({
        error: INVALID,
        code: 'validation_failed',
        errors: { per_page: [expect.any(String)] },
      });
    });

    test.each([
      ['page', '0'],
      ['page', '-1'],
      ['page', 'abc'],
      ['page', '1.5'],
      ['per_page', '0'],
      ['per_page', '-5'],
      ['per_page', 'ten'],
      ['per_page', '2.5'],
    ])('when %s=%s, then 422 naming that parameter', async (name, value) => {
      // Arrange
      const { api } = await loadedAndUnloaded();

      // Act
      const res = await api.get(`/api/v2/rest/products?${name}=${value}`);

      // Assert
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: INVALID,
        code: 'validation_failed',
        errors: { [name]: [expect.any(String)] },
      });
    });

    test('when 25 ready items are read in pages of 10, then the pages concatenate to all of them in creation order', async () => {
      // Arrange: one import per item, with external ids that do not sort in creation order,
      // and an item that is not listed in between.
      const { eshop, api } = await svc.eshop();
      const created: string[] = [];
      for (let i = 0; i < 25; i += 1) {
        const id = `item-${(i * 7919) % 101}`;
        await importItems(api, 'product', [item('product', id)]);
        created.push(id);
        if (i === 12) await importItems(api, 'product', [item('product', 'not-ready')]);
      }
      await publish(eshop.id, 'product', created);

      // Act
      const pages = [];
      for (const page of [1, 2, 3])
        pages.push(await api.get(`/api/v2/rest/products?per_page=10&page=${page}`));

      // Assert
      for (const [index, res] of pages.entries()) {
        expect(res.status).toBe(200);
        expect(res.body.meta).toEqual({ current_page: index + 1, per_page: 10, total: 25 });
      }
      expect(pages.map((res) => res.body.data.length)).toEqual([10, 10, 5]);
      const listed = pages.flatMap((res) => idsOf(res.body));
      expect(listed).toEqual(created);
      expect(new Set(listed).size).toBe(25);
      const stored = await svc.deps
        .db('products')
        .where({ eshop_id: eshop.id, status: 'ready' })
        .orderBy('id')
        .pluck('external_id');
      expect(listed).toEqual(stored);
    });

    test('when a page beyond the end is asked, then data is [] and total is still the number of items', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      const ids = Array.from({ length: 25 }, (_, i) => `P${String(i).padStart(2, '0')}`);
      await importItems(
        api,
        'product',
        ids.map((id) => item('product', id)),
      );
      await publish(eshop.id, 'product', ids);

      // Act
      const res = await api.get('/api/v2/rest/products?per_page=10&page=4');

      // Assert
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: [], meta: { current_page: 4, per_page: 10, total: 25 } });
    });
  });

  describe('include and lang: comma-separated, repeated or mixed', () => {
    async function shop() {
      const created = await svc.eshop({ languages: ['default', 'cs', 'en'] });
      await importItems(created.api, 'product', [
        { id: 'P1', name: { default: 'Chair', cs: 'Židle', en: 'Chair' } },
      ]);
      await publish(created.eshop.id, 'product', ['P1']);
      return created;
    }

    test('when include and lang are repeated (as generated clients send arrays) or mixed with commas, then the answer is the comma-separated one', async () => {
      // Arrange
      const { api } = await shop();

      // Act
      const comma = await api.get('/api/v2/rest/products?include=marketplace,variant&lang=cs,default');
      const repeated = await api.get(
        '/api/v2/rest/products?include=marketplace&include=variant&lang=cs&lang=default',
      );
      const mixed = await api.get(
        '/api/v2/rest/products?include=marketplace&include=variant,marketplace&lang=cs,default&lang=',
      );

      // Assert
      expect(comma.status).toBe(200);
      expect(comma.body.data[0]?.content.marketplace).toEqual({ default: '', cs: '' });
      expect(comma.body.data[0]?.variant).toEqual([]);
      expect(comma.body.data[0]?.name).toEqual({ default: 'Chair', cs: 'Židle' });
      expect(repeated.status).toBe(200);
      expect(repeated.body).toEqual(comma.body);
      expect(mixed.status).toBe(200);
      expect(mixed.body).toEqual(comma.body);
    });

    test('when a repeated include or lang has an unknown value, then 422 names it as for the comma-separated form', async () => {
      // Arrange
      const { api } = await shop();

      // Act
      const include = await api.get('/api/v2/rest/products?include=marketplace&include=bogus');
      const lang = await api.get('/api/v2/rest/products?lang=cs&lang=xx,en');

      // Assert
      expect(include.status).toBe(422);
      expect(include.body).toEqual({
        error: INVALID,
        code: 'validation_failed',
        errors: { include: ['The selected include value bogus is invalid.'] },
      });
      expect(lang.status).toBe(422);
      expect(lang.body).toEqual({
        error: INVALID,
        code: 'validation_failed',
        errors: { lang: ['The selected lang value xx is invalid.'] },
      });
    });

    test('when the repeated values are longer than 200 characters in all, then 422 as for one long value', async () => {
      // Arrange
      const { api } = await shop();
      const many = Array.from({ length: 30 }, () => 'include=marketplace').join('&');

      // Act
      const res = await api.get(`/api/v2/rest/products?${many}`);

      // Assert
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: INVALID,
        code: 'validation_failed',
        errors: { include: ['The include field must not be greater than 200 characters.'] },
      });
    });
  });
});
