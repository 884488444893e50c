import { contentRepository, type LangMap } from '@catalogue/db';
import { classicDesign, seededDesignId } from './design-fixtures';
import { editorService, type Shop } from './editor-client';

/** A fill is written in one language: the others keep their own texts, never another language's. */
describe('white-label-api: fill-design in one language (?lang=)', () => {
  const service = editorService();
  const db = () => service.deps.db;
  const classic = () => classicDesign(db());

  const stored = async (shop: Shop) =>
    (await contentRepository.find(db(), { eshopId: shop.id, entityType: 'product', externalId: 'P1' }))!;

  /** Every element value of the stored tree that has text, as language maps. */
  const values = async (shop: Shop): Promise<LangMap[]> =>
    ((await stored(shop)).tree as Array<{ children: Array<{ value: LangMap }> }>)
      .flatMap((w) => w.children.map((e) => e.value))
      .filter((v) => Object.values(v).some((t) => typeof t === 'string' && t.trim() !== ''));

  async function registered() {
    const shop = await service.shop({ languages: ['default', 'cs', 'en'] });
    expect(
      (await shop.post('/register-entity', { entity_id: 'P1', type: 'product', title: 'Shoe' })).status,
    ).toBe(201);
    return shop;
  }

  const fill = (shop: Shop, lang: string | null, body: unknown) =>
    lang === null
      ? shop.post('/entity/P1/type/product/design', body)
      : shop.post(`/entity/P1/type/product/design?lang=${lang}`, body);

  test('when the design is filled in en and then in cs, then en keeps its text and no Czech word reaches en or default', async () => {
    const shop = await registered();
    const d = await classic();
    const en = await fill(shop, 'en', {
      design_id: d.id,
      widget: [
        { design_widget_id: d.section, fields: { heading: 'Size guide', paragraph: '<p>Pick one.</p>' } },
      ],
    });
    expect(en.status).toBe(200);

    const cs = await fill(shop, 'cs', {
      design_id: d.id,
      widget: [
        {
          design_widget_id: d.section,
          fields: { heading: 'Průvodce velikostí', paragraph: '<p>Vyberte.</p>' },
        },
      ],
    });

    expect(cs.status).toBe(200);
    expect(await values(shop)).toEqual([
      { en: 'Size guide', cs: 'Průvodce velikostí' },
      { en: '<p>Pick one.</p>', cs: '<p>Vyberte.</p>' },
    ]);
    expect(cs.body.html.en).toContain('Size guide');
    expect(cs.body.html.en).toContain('Pick one.');
    expect(cs.body.html.cs).toContain('Průvodce velikostí');
    for (const lang of ['en', 'default']) expect(cs.body.html[lang]).not.toMatch(/Průvodce|Vyberte/);
    // Nothing was written in default: its page has no text (an untranslated state), not Czech.
    expect(cs.body.html.default).toBe('');
    const row = await stored(shop);
    expect(row.html).toEqual(cs.body.html);
    expect(row.languages_complete).toEqual(['cs', 'en']);
  });

  test('when a widget new to the content is filled in cs, then it has no en or default text and the en page shows no Czech', async () => {
    const shop = await registered();
    const d = await classic();
    // The English page as it was before: a heading written in default (the fill without lang).
    expect(
      (
        await fill(shop, null, {
          design_id: d.id,
          widget: [{ design_widget_id: d.section, fields: { heading: 'Size guide' } }],
        })
      ).status,
    ).toBe(200);

    const cs = await fill(shop, 'cs', {
      design_id: d.id,
      widget: [
        { design_widget_id: d.section, fields: { heading: 'Průvodce velikostí' } },
        { design_widget_id: d.benefit, items: [{ benefit_title: 'Lehká', benefit_text: 'Jen 200 g' }] },
      ],
    });

    expect(cs.status).toBe(200);
    expect(cs.body.widget_created).toBe(2);
    expect(await values(shop)).toEqual([
      { default: 'Size guide', cs: 'Průvodce velikostí' },
      { cs: 'Lehká' },
      { cs: 'Jen 200 g' },
    ]);
    expect(cs.body.html.en).toContain('Size guide');
    expect(cs.body.html.en).not.toMatch(/Průvodce|Lehká|200 g/);
    expect(cs.body.html.default).not.toMatch(/Průvodce|Lehká|200 g/);
    expect(cs.body.html.cs).toContain('Lehká');
    expect((await stored(shop)).languages_complete).toEqual(['cs']);
  });

  test('when a language map is sent with ?lang, then its languages are written as named and the others are kept', async () => {
    const shop = await registered();
    const d = await classic();
    await fill(shop, 'en', {
      design_id: d.id,
      widget: [{ design_widget_id: d.section, fields: { heading: 'Size guide' } }],
    });

    const res = await fill(shop, 'cs', {
      design_id: d.id,
      widget: [{ design_widget_id: d.section, fields: { heading: { default: 'Size', cs: 'Velikost' } } }],
    });

    expect(res.status).toBe(200);
    expect(await values(shop)).toEqual([{ en: 'Size guide', default: 'Size', cs: 'Velikost' }]);
  });

  test('when another design is filled in cs, then its widgets carry nothing of the old design in any language', async () => {
    const shop = await registered();
    const d = await classic();
    await fill(shop, 'en', {
      design_id: d.id,
      widget: [{ design_widget_id: d.section, fields: { heading: 'Size guide' } }],
    });
    const story = await seededDesignId(db(), 'product-story');
    const structure = (await shop.get(`/design/${story}/structure`)).body;
    const target = structure.widget.find((w) => w.fillable && w.field.some((f) => f.format === 'text'));
    if (!target?.fillable) throw new Error('the design has no fillable widget with a text field');
    const role = target.field.find((f) => f.format === 'text')?.role;
    if (!role) throw new Error('the widget has no text field');

    const res = await fill(shop, 'cs', {
      design_id: story,
      widget: [{ design_widget_id: target.design_widget_id, fields: { [role]: 'Příběh' } }],
    });

    expect(res.status).toBe(200);
    expect(await values(shop)).toEqual([{ cs: 'Příběh' }]);
    expect(res.body.html.en).not.toContain('Příběh');
  });

  test.each([
    ['de', 'an inactive language', /not an active language/],
    ['xx', 'an unknown language', /lang/],
  ])('when ?lang names %s (%s), then 422 and nothing is stored', async (lang, _what, message) => {
    const shop = await registered();
    const d = await classic();
    await fill(shop, 'en', {
      design_id: d.id,
      widget: [{ design_widget_id: d.section, fields: { heading: 'Size guide' } }],
    });
    const before = await stored(shop);

    const res = await fill(shop, lang, {
      design_id: d.id,
      widget: [{ design_widget_id: d.section, fields: { heading: 'Größe' } }],
    });

    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(JSON.stringify(res.body.errors?.lang)).toMatch(message);
    expect(await stored(shop)).toEqual(before);
  });
});
