import { SEED_WIDGETS, type v3 } from '@catalogue/content';
import { editorService, EXPIRED, LICENCE_ERROR } from './editor-client';

describe('white-label-api: GET /widget', () => {
  const service = editorService();
  const db = () => service.deps.db;

  test('when the catalogue is read, then every seeded widget is listed with its category and fillable structure', async () => {
    const shop = await service.shop();
    const res = await shop.get('/widget');
    expect(res.status).toBe(200);
    expect(res.body.data.map((w: v3.WidgetView) => w.type).sort()).toEqual(
      SEED_WIDGETS.map((w) => w.type).sort(),
    );
    const section = await db()('widgets').where({ type: 'section' }).first();
    const category = await db()('widget_categories').where({ id: section!.category_id }).first();
    expect(res.body.data.find((w: v3.WidgetView) => w.type === 'section')).toEqual({
      id: section!.id,
      type: 'section',
      name: section!.name,
      description: section!.description,
      category_id: category!.id,
      category_key: category!.key,
      category_name: category!.name,
      fillable: true,
      reason: null,
      item_count: 0,
      field: [
        expect.objectContaining({ role: 'heading', format: 'text', max_length: 120 }),
        expect.objectContaining({ role: 'paragraph', format: 'html', max_length: 1000 }),
      ],
      item_field: [],
      image_slot: 0,
      icon_slot: 0,
      item_class: null,
    });
    expect(res.body.data.find((w: v3.WidgetView) => w.type === 'parameters')).toMatchObject({
      fillable: false,
      reason: 'filled_from_data',
      item_class: 'ccs-parameters__row',
    });
    // The element repeated per item or image: what the editor offers to duplicate or remove.
    const itemClasses = Object.fromEntries(res.body.data.map((w: v3.WidgetView) => [w.type, w.item_class]));
    expect(itemClasses).toMatchObject({
      benefit: 'ccs-benefit__item',
      faq: 'ccs-faq__item',
      comparison: 'ccs-comparison__row',
      gallery: 'ccs-gallery__item',
      cta: null,
    });
  });

  test("when category_id is given, then only that category's widgets are listed; an unknown one lists nothing", async () => {
    const shop = await service.shop();
    const media = await db()('widget_categories').where({ key: 'media' }).first('id');
    const res = await shop.get(`/widget?category_id=${media!.id}`);
    const expected = SEED_WIDGETS.filter((w) => w.category === 'media').map((w) => w.type);
    expect(expected.length).toBeGreaterThan(0);
    expect(res.body.data.map((w: v3.WidgetView) => w.type).sort()).toEqual([...expected].sort());
    expect(
      res.body.data.every((w: v3.WidgetView) => w.category_id === media!.id && w.category_key === 'media'),
    ).toBe(true);
    expect((await shop.get('/widget?category_id=999999')).body).toEqual({ data: [] });
  });

  test('when category_id is not a positive integer, then 422', async () => {
    const shop = await service.shop();
    const res = await shop.get('/widget?category_id=media');
    expect(res.status).toBe(422);
    expect(res.body.errors?.category_id).toEqual(['The category_id field must be an integer.']);
  });

  test('when the licence is not valid, then 403', async () => {
    const shop = await service.shop(EXPIRED);
    const res = await shop.get('/widget');
    expect(res.status).toBe(403);
    expect(res.body).toEqual(LICENCE_ERROR);
  });
});
