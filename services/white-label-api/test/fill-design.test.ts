import { contentRepository, wlEntitiesRepository } from '@catalogue/db';
import { classicDesign, insertDesign, seededDesignId } from './design-fixtures';
import { editorService, EXPIRED, LICENCE_ERROR, type Shop } from './editor-client';

describe('white-label-api: POST /entity/{entity_id}/type/{entity_type}/design (fill-design)', () => {
  const service = editorService();
  const db = () => service.deps.db;

  const classic = () => classicDesign(db());

  const content = (shop: Shop, entityId: string, type: 'product' | 'page' = 'product') =>
    contentRepository.find(db(), { eshopId: shop.id, entityType: type, externalId: entityId });

  async function registered(fixture = {}, entityId = 'P1') {
    const shop = await service.shop(fixture);
    const res = await shop.post('/register-entity', {
      entity_id: entityId,
      type: 'product',
      title: 'Trail shoe',
    });
    expect(res.status).toBe(201);
    return shop;
  }

  test('when texts, items and icons are sent, then only those widgets are rendered in every eshop language and stored as editor content', async () => {
    const shop = await registered({ languages: ['default', 'cs', 'uk'] });
    const d = await classic();
    const res = await shop.post('/entity/P1/type/product/design', {
      design_id: d.id,
      widget: [
        {
          design_widget_id: d.benefit,
          items: [{ benefit_title: 'Fast', benefit_text: 'Very fast' }],
          icon: ['https://cdn.test/i.png'],
        },
        {
          design_widget_id: d.section,
          fields: { heading: { default: 'Hello', cs: 'Ahoj' }, paragraph: '<p>Soft <em>sole</em></p>' },
        },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.widget_created).toBe(2);
    expect(Object.keys(res.body.html)).toEqual(['default', 'cs', 'uk']);
    expect(res.body.html.default).toContain('Hello');
    expect(res.body.html.cs).toContain('Ahoj');
    // uk has no text of its own and falls back to default.
    expect(res.body.html.uk).toContain('Hello');
    expect(res.body.html.default).toContain('<em>sole</em>');
    expect(res.body.html.default).toContain('https://cdn.test/i.png');
    // Design order, whatever the request order; widgets not sent are not rendered.
    expect(res.body.html.default.indexOf('ccs-widget--section')).toBeLessThan(
      res.body.html.default.indexOf('ccs-widget--benefit'),
    );
    expect(res.body.html.default).not.toMatch(/ccs-widget--(image_text|gallery|parameters)/);

    const stored = await content(shop, 'P1');
    expect(stored?.origin).toBe('editor');
    expect(stored?.tree).toHaveLength(2);
    expect(stored?.html).toEqual(res.body.html);
    expect(Object.keys(stored!.marketplace).sort()).toEqual(['cs', 'default', 'uk']);
    expect((await wlEntitiesRepository.find(db(), shop.id, 'product', 'P1'))?.designId).toBe(d.id);
    const entities = await shop.get('/entity');
    expect(entities.body.data[0]?.design_id).toBe(d.id);
    expect((await shop.get('/entity/P1/type/product/html')).body).toEqual({ html: res.body.html });
  });

  test('when a page (no catalogue item) is filled from the structure it read, then its content is stored and rendered', async () => {
    const shop = await service.shop();
    await shop.post('/register-entity', { entity_id: 'about', type: 'page', title: 'About us' });
    const design = (await shop.get('/design?type=page')).body.data[0]!;
    const structure = (await shop.get(`/design/${design.id}/structure`)).body;
    const target = structure.widget.find((w) => w.fillable && w.field.some((f) => f.format === 'text'));
    if (!target?.fillable) throw new Error('the design has no fillable widget with a text field');
    const role = target.field.find((f) => f.format === 'text')?.role;
    if (!role) throw new Error('the widget has no text field');
    const res = await shop.post('/entity/about/type/page/design', {
      design_id: design.id,
      widget: [{ design_widget_id: target.design_widget_id, fields: { [role]: 'We make shoes' } }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      html: {
        default: expect.stringContaining('We make shoes'),
        cs: expect.any(String),
        en: expect.any(String),
      },
      widget_created: 1,
    });
    const stored = await content(shop, 'about', 'page');
    expect(stored?.html).toEqual(res.body.html);
    expect((await wlEntitiesRepository.find(db(), shop.id, 'page', 'about'))?.designId).toBe(design.id);
  });

  test('when a design is filled a second time, then the whole content is replaced', async () => {
    const shop = await registered();
    const d = await classic();
    await shop.post('/entity/P1/type/product/design', {
      design_id: d.id,
      widget: [{ design_widget_id: d.section, fields: { heading: 'First fill' } }],
    });
    const second = await shop.post('/entity/P1/type/product/design', {
      design_id: d.id,
      widget: [
        {
          design_widget_id: d.imageText,
          fields: { heading: 'Second fill' },
          image: ['https://cdn.test/a.jpg'],
        },
      ],
    });
    expect(second.status).toBe(200);
    expect(second.body.widget_created).toBe(1);
    expect(second.body.html.default).toContain('Second fill');
    expect(second.body.html.default).not.toContain('First fill');
    const stored = await content(shop, 'P1');
    expect(stored?.tree).toHaveLength(1);
    expect(JSON.stringify(stored?.tree)).not.toContain('First fill');
  });

  test('when the fill breaks the structure, then 422 names every field and the stored content and design are unchanged', async () => {
    const shop = await registered();
    const d = await classic();
    const first = await shop.post('/entity/P1/type/product/design', {
      design_id: d.id,
      widget: [{ design_widget_id: d.section, fields: { heading: 'Kept' } }],
    });
    const before = await content(shop, 'P1');
    const story = await seededDesignId(db(), 'product-story');
    const res = await shop.post('/entity/P1/type/product/design', {
      design_id: d.id,
      widget: [
        {
          design_widget_id: d.section,
          fields: { heading: 'x'.repeat(121), paragraph: { cs: 'y'.repeat(1001) } },
        },
        {
          design_widget_id: d.benefit,
          items: [1, 2, 3, 4].map((n) => ({ benefit_title: `B${n}` })),
          icon: [
            'https://a.test/1.png',
            'https://a.test/2.png',
            'https://a.test/3.png',
            'https://a.test/4.png',
          ],
        },
        { design_widget_id: d.imageText, image: ['https://a.test/1.jpg', 'https://a.test/2.jpg'] },
        { design_widget_id: d.parameters, fields: {} },
        {
          design_widget_id: (await db()('design_widgets').where({ design_id: story }).first('id'))!.id,
          fields: { heading: 'x' },
        },
        { design_widget_id: d.gallery, image: ['javascript:alert(1)'] },
      ],
    });
    expect(first.status).toBe(200);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      'widget.0.fields.heading': [
        'The widget.0.fields.heading field must not be greater than 120 characters.',
      ],
      'widget.0.fields.paragraph.cs': [
        'The widget.0.fields.paragraph.cs field must not be greater than 1000 characters.',
      ],
      'widget.1.items': ['The widget.1.items field must not have more than 3 items.'],
      'widget.1.icon': ['The widget.1.icon field must not have more than 3 items.'],
      'widget.2.image': ['The widget.2.image field must not have more than 1 items.'],
      'widget.3.design_widget_id': [
        'The widget.3.design_widget_id field refers to a widget that cannot be filled (filled_from_data).',
      ],
      'widget.4.design_widget_id': ['The selected widget.4.design_widget_id is invalid.'],
      'widget.5.image.0': ['The widget.5.image.0 field must be a valid URL.'],
    });
    expect(await content(shop, 'P1')).toEqual(before);
    expect((await wlEntitiesRepository.find(db(), shop.id, 'product', 'P1'))?.designId).toBe(d.id);
  });

  test("when the design is another eshop's custom one, unknown, or of another entity type, then 422 on design_id and nothing is stored", async () => {
    const shop = await registered();
    // The default design registration gave it: a refused fill leaves it.
    const given = (await wlEntitiesRepository.find(db(), shop.id, 'product', 'P1'))?.designId;
    const other = await service.shop();
    const theirs = await insertDesign(db(), { eshopId: other.id, category: 'product' });
    const blog = await seededDesignId(db(), 'blog-article');
    const widgetOf = async (designId: number) =>
      (await db()('design_widgets').where({ design_id: designId }).first('id'))!.id as number;
    const cases: Array<[number, string]> = [
      [theirs, 'The selected design_id is invalid.'],
      [2_000_000_000, 'The selected design_id is invalid.'],
      [blog, 'The selected design_id is a blog design, not a product design.'],
    ];
    for (const [designId, message] of cases) {
      const widget = designId === 2_000_000_000 ? 1 : await widgetOf(designId);
      const res = await shop.post('/entity/P1/type/product/design', {
        design_id: designId,
        widget: [{ design_widget_id: widget, fields: { heading: 'x' } }],
      });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ design_id: [message] });
    }
    expect(await content(shop, 'P1')).toBeUndefined();
    expect(given).toEqual(expect.any(Number));
    expect((await wlEntitiesRepository.find(db(), shop.id, 'product', 'P1'))?.designId).toBe(given);
  });

  test("when the entity is not registered, or only another eshop registered it, then 404 and that eshop's content is untouched", async () => {
    const owner = await registered();
    const d = await classic();
    await owner.post('/entity/P1/type/product/design', {
      design_id: d.id,
      widget: [{ design_widget_id: d.section, fields: { heading: 'Owner' } }],
    });
    const before = await content(owner, 'P1');
    const intruder = await service.shop();
    const body = {
      design_id: d.id,
      widget: [{ design_widget_id: d.section, fields: { heading: 'Intruder' } }],
    };
    const res = await intruder.post('/entity/P1/type/product/design', body);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Entity product "P1" is not registered', code: 'not_found' });
    expect(await content(owner, 'P1')).toEqual(before);
    expect(await content(intruder, 'P1')).toBeUndefined();
  });

  test.each([
    [{ widget: [{ design_widget_id: 1 }] }, 'design_id', 'The design_id field is required.'],
    [{ design_id: 1, widget: [] }, 'widget', 'The widget field must have at least 1 items.'],
    [{ design_id: 1 }, 'widget', 'The widget field is required.'],
    [{ design_id: '1x', widget: [{}] }, 'design_id', 'The design_id field must be an integer.'],
    // As strict about JSON types as generate: a numeric string is not an integer.
    [
      { design_id: '1', widget: [{ design_widget_id: 1 }] },
      'design_id',
      'The design_id field must be an integer.',
    ],
    [
      { design_id: true, widget: [{ design_widget_id: 1 }] },
      'design_id',
      'The design_id field must be an integer.',
    ],
  ])('when the body is %j, then 422 names %s', async (body, field, message) => {
    const shop = await registered();
    const res = await shop.post('/entity/P1/type/product/design', body);
    expect(res.status).toBe(422);
    expect(res.body.errors?.[field]).toEqual([message]);
    expect(await content(shop, 'P1')).toBeUndefined();
  });

  test('when a text holds a NUL character, then 422 and nothing is stored', async () => {
    const shop = await registered();
    const d = await classic();
    const res = await shop.post('/entity/P1/type/product/design', {
      design_id: d.id,
      widget: [{ design_widget_id: d.section, fields: { paragraph: { cs: 'a\u0000b' } } }],
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors ?? {})).toEqual(['widget.0.fields.paragraph.cs']);
    expect(await content(shop, 'P1')).toBeUndefined();
  });

  test('when html texts carry scripts, handlers and javascript: links, then no stored tree or output contains them', async () => {
    const shop = await registered({
      languages: ['default', 'cs'],
      enableSiteLink: true,
      enableRichSnippet: true,
    });
    const d = await classic();
    const payload =
      '<p onmouseover="alert(1)">Hi<script>alert(1)</script><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">x</a><iframe src="https://evil.test"></iframe><svg onload="alert(4)"></svg></p>';
    const res = await shop.post('/entity/P1/type/product/design', {
      design_id: d.id,
      widget: [
        {
          design_widget_id: d.section,
          fields: { heading: 'Safe', paragraph: { default: payload, cs: payload } },
        },
      ],
    });
    expect(res.status).toBe(200);
    const stored = await content(shop, 'P1');
    for (const output of [JSON.stringify(res.body), JSON.stringify(stored)]) {
      expect(output).not.toMatch(/alert|onmouseover|onerror|javascript:|<iframe|<svg|onload/i);
      // The only script is the rich snippet's JSON-LD, which holds data, not the payload.
      expect(output.match(/<script/g)?.length ?? 0).toBe(
        output.match(/<script type=\\"application\/ld\+json\\">/g)?.length ?? 0,
      );
    }
    expect(res.body.html.cs).toContain('Hi');
  });

  test('when the licence is not valid, then fill-design answers 403 and stores nothing', async () => {
    const shop = await service.shop(EXPIRED);
    await wlEntitiesRepository.upsert(db(), shop.id, {
      entityId: 'P1',
      type: 'product',
      title: {},
      oldDescription: {},
    });
    const d = await classic();
    const res = await shop.post('/entity/P1/type/product/design', {
      design_id: d.id,
      widget: [{ design_widget_id: d.section, fields: { heading: 'x' } }],
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(LICENCE_ERROR);
    expect(await content(shop, 'P1')).toBeUndefined();
  });

  test('when a fill is retried with the same Idempotency-Key, then the first answer is replayed and the content is not written again', async () => {
    const shop = await registered();
    const d = await classic();
    const body = {
      design_id: d.id,
      widget: [{ design_widget_id: d.section, fields: { heading: 'Hello', paragraph: '<p>Once</p>' } }],
    };
    const headers = { 'Idempotency-Key': `fill-${process.pid}-${Date.now()}` };

    const first = await shop.post('/entity/P1/type/product/design', body, { headers });
    const storedFirst = await content(shop, 'P1');
    const retry = await shop.post('/entity/P1/type/product/design', body, { headers });

    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await content(shop, 'P1')).toEqual(storedFirst);
  });
});
