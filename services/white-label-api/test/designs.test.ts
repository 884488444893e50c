import { SEED_DESIGNS, type v3 } from '@catalogue/content';
import { insertDesign, seededDesignId } from './design-fixtures';
import { editorService, EXPIRED, LICENCE_ERROR } from './editor-client';

describe('white-label-api: designs (list, preview, structure)', () => {
  const service = editorService();
  const db = () => service.deps.db;

  describe('GET /design', () => {
    test("when the eshop has custom designs, then it sees visible public designs and its own, never hidden or other eshops' ones", async () => {
      const shop = await service.shop();
      const other = await service.shop();
      const own = await insertDesign(db(), {
        eshopId: shop.id,
        category: 'product',
        position: 1,
        widgets: [{ widget: 'section' }, { widget: 'divider' }],
      });
      const theirs = await insertDesign(db(), { eshopId: other.id, category: 'product' });
      const hidden = await insertDesign(db(), { eshopId: null, category: 'product', isVisible: false });
      try {
        const res = await shop.get('/design');
        expect(res.status).toBe(200);
        const ids = res.body.data.map((d: v3.DesignView) => d.id);
        expect(ids).toContain(own);
        expect(ids).not.toContain(theirs);
        expect(ids).not.toContain(hidden);
        const publicKeys = await db()('designs').where({ type: 'public', is_visible: true }).pluck('id');
        expect(ids.filter((id: number) => id !== own).sort()).toEqual([...publicKeys].sort());
        const positions = res.body.data.map((d: v3.DesignView) => d.position);
        expect(positions).toEqual([...positions].sort((a: number, b: number) => a - b));
        expect(res.body.data.find((d: v3.DesignView) => d.id === own)).toMatchObject({
          type: 'custom',
          widgets_count: 2,
          preview_url: expect.stringMatching(
            new RegExp(`^${service.url}/design-preview/v1/${own}/[0-9a-f]{64}\\.html$`),
          ),
        });
      } finally {
        await db()('designs').whereIn('id', [own, theirs, hidden]).delete();
      }
    });

    test('when a seeded design is listed, then it carries the spec fields, its widget count and its structure hash', async () => {
      const shop = await service.shop();
      const res = await shop.get('/design?type=product');
      const classic = res.body.data.find((d: v3.DesignView) => d.name === 'Classic product');
      const stored = await db()('designs').where({ key: 'product-classic' }).first();
      expect(classic).toEqual({
        id: stored!.id,
        name: 'Classic product',
        name_translation: { default: 'Classic product', en: 'Classic product', cs: 'Klasický produkt' },
        info: null,
        image_preview: `${service.url}/design-preview/v1/${stored!.id}/${stored!.hash}.svg`,
        category: 'product',
        type: 'public',
        position: stored!.position,
        hash: stored!.hash,
        widgets_count: SEED_DESIGNS.find((d) => d.key === 'product-classic')!.widgets.length,
        preview_url: `${service.url}/design-preview/v1/${stored!.id}/${stored!.hash}.html`,
      });
    });

    test("when many lists run at once, then the public designs are read at most once for all of them, and the eshop's own designs on every list, so a new one shows at once", async () => {
      const shop = await service.shop();
      expect((await shop.get('/design')).status).toBe(200);
      const own = await insertDesign(db(), { eshopId: shop.id, category: 'product', position: 2 });
      const reads = { public: 0, custom: 0 };
      const count = (query: { sql: string }) => {
        if (!query.sql.includes('from "designs" as "d"')) return;
        if (query.sql.includes('"d"."eshop_id" = ')) reads.custom += 1;
        else reads.public += 1;
      };
      db().on('query', count);
      try {
        const lists = await Promise.all(Array.from({ length: 20 }, () => shop.get('/design')));
        expect(lists.map((res) => res.status)).toEqual(Array(20).fill(200));
        for (const res of lists) expect(res.body.data.map((d: v3.DesignView) => d.id)).toContain(own);
        expect(reads.public).toBeLessThanOrEqual(1);
        expect(reads.custom).toBe(20);
      } finally {
        db().off('query', count);
        await db()('designs').where({ id: own }).delete();
      }
    });

    test('when type is given, then only designs of that entity type are listed; an unknown type is 422', async () => {
      const shop = await service.shop();
      const blogs = await shop.get('/design?type=blog');
      expect(blogs.body.data.length).toBe(SEED_DESIGNS.filter((d) => d.category === 'blog').length);
      expect(blogs.body.data.every((d: v3.DesignView) => d.category === 'blog')).toBe(true);
      const bad = await shop.get('/design?type=brand');
      expect(bad.status).toBe(422);
      expect(bad.body.errors?.type).toEqual(['The selected type is invalid.']);
    });
  });

  describe('GET /design/{design_id}/preview', () => {
    test('when the design is accessible, then its stored preview html is answered', async () => {
      const shop = await service.shop();
      const id = await seededDesignId(db(), 'product-story');
      const res = await shop.get(`/design/${id}/preview`);
      expect(res.status).toBe(200);
      const stored = await db()('designs').where({ id }).first('preview_html');
      expect(res.body).toEqual({ data: { id, html: stored!.preview_html } });
      expect(res.body.data.html).toContain('ccs-widget--testimonial');
    });
  });

  describe('GET /design/{design_id}/structure', () => {
    test('when a seeded design is read, then every widget is listed in order with fillable and non-fillable entries', async () => {
      const shop = await service.shop();
      const id = await seededDesignId(db(), 'product-classic');
      const widgetIds = await db()('design_widgets').where({ design_id: id }).orderBy('position').pluck('id');
      const res = await shop.get(`/design/${id}/structure`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ design_id: id, design_name: 'Classic product', category: 'product' });
      expect(res.body.widget.map((w: { design_widget_id: number }) => w.design_widget_id)).toEqual(widgetIds);
      expect(res.body.widget.map((w: { position: number }) => w.position)).toEqual([1, 2, 3, 4, 5]);
      expect(res.body.widget[0]).toMatchObject({
        type: 'section',
        fillable: true,
        item_count: 0,
        field: [
          { role: 'heading', format: 'text', max_length: 120, hint: expect.any(String) },
          { role: 'paragraph', format: 'html', max_length: 1000, hint: expect.any(String) },
        ],
        image_slot: 0,
        icon_slot: 0,
      });
      expect(res.body.widget[2]).toMatchObject({
        type: 'benefit',
        fillable: true,
        item_count: 3,
        icon_slot: 3,
      });
      expect(res.body.widget[3]).toEqual({
        design_widget_id: widgetIds[3],
        position: 4,
        type: 'parameters',
        widget_name: expect.any(String),
        fillable: false,
        reason: 'filled_from_data',
      });
      expect(res.body.widget[4]).toMatchObject({ type: 'gallery', image_slot: 4 });
    });

    test('when a custom design overrides counts and lengths, then the structure shows them and keeps positions around an unfillable widget', async () => {
      const shop = await service.shop();
      const id = await insertDesign(db(), {
        eshopId: shop.id,
        category: 'page',
        widgets: [{ widget: 'divider' }, { widget: 'faq', item_count: 2, max_length: { answer: 50 } }],
      });
      const res = await shop.get(`/design/${id}/structure`);
      expect(res.body.widget.map((w) => [w.position, w.fillable])).toEqual([
        [1, false],
        [2, true],
      ]);
      const [plain, list] = res.body.widget;
      expect(plain?.fillable === false && plain.reason).toBe('no_content_field');
      if (!list?.fillable) throw new Error('the second widget is not fillable');
      expect(list.item_count).toBe(2);
      expect(list.item_field).toContainEqual(expect.objectContaining({ role: 'answer', max_length: 50 }));
    });
  });

  describe('inaccessible designs', () => {
    test("when the design is another eshop's custom one, hidden, or unknown, then preview and structure answer 404", async () => {
      const shop = await service.shop();
      const other = await service.shop();
      const theirs = await insertDesign(db(), { eshopId: other.id, category: 'product' });
      const hidden = await insertDesign(db(), { eshopId: null, category: 'product', isVisible: false });
      try {
        for (const id of [theirs, hidden, 2_000_000_000]) {
          for (const part of ['preview', 'structure']) {
            const res = await shop.get(`/design/${id}/${part}`);
            expect(res.status).toBe(404);
            expect(res.body).toEqual({ error: 'Design not found', code: 'not_found' });
          }
        }
        expect((await other.get(`/design/${theirs}/structure`)).status).toBe(200);
      } finally {
        await db()('designs').whereIn('id', [theirs, hidden]).delete();
      }
    });

    test('when the design id is not a positive integer, then 422', async () => {
      const shop = await service.shop();
      const res = await shop.get('/design/abc/structure');
      expect(res.status).toBe(422);
      expect(res.body.errors?.design_id).toEqual(['The design_id field must be an integer.']);
    });
  });

  test('when the licence is not valid, then every design operation answers 403', async () => {
    const shop = await service.shop(EXPIRED);
    const id = await seededDesignId(db(), 'product-classic');
    for (const path of ['/design', `/design/${id}/preview`, `/design/${id}/structure`]) {
      const res = await shop.get(path);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(LICENCE_ERROR);
    }
  });
});
