import type { ContentWidget } from '@catalogue/content';
import { eshopsRepository } from '@catalogue/db';
import type { Method } from '@catalogue/testing';
import { contentService, elementByClass, elementIds } from './content-helpers';
import { classicDesign } from './design-fixtures';

describe('white-label-api: content widgets (GET, POST add/reorder, DELETE, dom)', () => {
  const svc = contentService();

  test('when a registered entity has no content, then GET answers [] and the DOM is empty', async () => {
    const shop = await svc.shop();
    await shop.register('P-empty');
    const list = await shop.call('GET', '/content/P-empty/type/product');
    expect(list).toEqual({ status: 200, body: [] });
    const dom = await shop.call('POST', '/content/dom/P-empty/type/product');
    expect(dom).toEqual({
      status: 200,
      body: { data: { entity_id: 'P-empty', entity_type: 'product', html: '' } },
    });
  });

  test("when the DOM is asked in a language the texts lack, then it follows the eshop's fallback policy as the stored page does", async () => {
    for (const [contentFallback, marked] of [
      ['fallback', true],
      ['omit', false],
    ] as const) {
      const shop = await svc.shop({ languages: ['default', 'cs'] });
      await eshopsRepository.update(svc.deps.db, shop.id, { contentFallback, defaultLanguage: 'en' });
      await shop.register('P-dom');
      // Texts of the shop's own in default (an added catalogue widget's samples are never public).
      const d = await classicDesign(svc.deps.db);
      const filled = await shop.call('POST', '/entity/P-dom/type/product/design', {
        design_id: d.id,
        widget: [
          { design_widget_id: d.section, fields: { heading: 'Size guide', paragraph: '<p>Pick one.</p>' } },
        ],
      });
      expect(filled.status).toBe(200);

      const dom = await shop.call('POST', '/content/dom/P-dom/type/product?lang=cs');

      expect(dom.status).toBe(200);
      const stored = await shop.stored('P-dom');
      expect(dom.body.data.html).toBe(stored?.html.cs);
      if (marked) expect(dom.body.data.html).toContain('lang="en"');
      else expect(dom.body.data.html).toBe('');
    }
  });

  test('when the entity is not registered, then every content operation is 404 and nothing is stored', async () => {
    const shop = await svc.shop();
    const section = await svc.widgetOf('section');
    const calls: [Method, string, unknown?][] = [
      ['GET', '/content/P-none/type/product'],
      ['POST', '/content/P-none/type/product', { widget_id: section.id }],
      ['PUT', '/content/P-none/type/product', { '1': { children: [] } }],
      ['DELETE', '/content/P-none/type/product/widget/1'],
      ['POST', '/content/element-copy/P-none/type/product', { action: 'copy', index: 0, contentId: 1 }],
      ['POST', '/content/dom/P-none/type/product'],
    ];
    for (const [method, path, body] of calls) {
      const res = await shop.call(method, path, body);
      expect([method, path, res.status, res.body]).toEqual([
        method,
        path,
        404,
        { error: 'Entity product "P-none" is not registered', code: 'not_found' },
      ]);
    }
    expect(await shop.stored('P-none')).toBeUndefined();
  });

  test('when a catalogue widget is added without json, then it starts with its sample marked to fill, and no language of the lists shows it', async () => {
    const shop = await svc.shop({ languages: ['default', 'cs', 'en'] });
    await shop.register('P1');
    const section = await svc.widgetOf('section');
    const res = await shop.call('POST', '/content/P1/type/product', { widget_id: section.id, added: true });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    const widget = res.body[0]!;
    expect(widget).toMatchObject({ id: 1, key: 0, widget_id: section.id, is_original: true });
    expect(elementByClass(widget, 'ccs-section__heading')).toMatchObject({
      value: { default: 'Made for everyday use' },
      sample: ['value'],
    });
    // The editor's own answer shows the sample, so the person sees what to fill.
    expect(widget.html).toContain('Made for everyday use');
    expect(widget.html).toContain('data-widget-id="1"');

    const stored = await shop.stored('P1');
    expect(stored?.origin).toBe('editor');
    expect(stored?.tree).toEqual([{ ...widget, html: widget.html }]);
    // Nothing but sample: every language of every output is empty.
    expect(stored?.html).toEqual({ default: '', cs: '', en: '' });
    expect(stored?.marketplace).toEqual({ default: '', cs: '', en: '' });
    expect(stored?.nested).toEqual([]);
    const dom = await shop.call('POST', '/content/dom/P1/type/product');
    expect(dom.body.data.html).toBe('');
  });

  test('when widgets are added at positions, then they land there with fresh ids and keys follow the order', async () => {
    const shop = await svc.shop();
    await shop.register('P2');
    await shop.add('P2', 'section');
    await shop.add('P2', 'faq');
    const tree = await shop.add('P2', 'cta', { position: 1 });
    expect(tree.map((w) => [w.id, w.key])).toEqual([
      [1, 0],
      [3, 1],
      [2, 2],
    ]);
    const ids = elementIds(tree);
    expect(new Set(ids).size).toBe(ids.length);
    const front = await shop.add('P2', 'divider', { position: 0 });
    expect(front.map((w) => w.id)).toEqual([4, 1, 3, 2]);
    // Existing widgets keep their elements and ids untouched.
    expect(front.slice(1).map((w) => w.children)).toEqual(tree.map((w) => w.children));

    const before = await shop.stored('P2');
    const tooFar = await shop.call('POST', '/content/P2/type/product', { widget_id: 1, position: 5 });
    expect(tooFar).toEqual({
      status: 422,
      body: {
        error: 'The given data was invalid.',
        code: 'validation_failed',
        errors: { position: ['The position field must not be greater than 4 (the number of widgets).'] },
      },
    });
    expect(await shop.stored('P2')).toEqual(before);
  });

  test('when ord is a permutation of the widget ids, then the widgets are reordered everywhere; otherwise 422 and nothing changes', async () => {
    const shop = await svc.shop();
    await shop.register('P3');
    // Dividers: widgets the lists render as added (samples are never rendered for them).
    await shop.add('P3', 'divider');
    await shop.add('P3', 'divider');
    const tree = await shop.add('P3', 'divider');
    const res = await shop.call('POST', '/content/P3/type/product', { ord: [3, 1, 2], added: false });
    expect(res.status).toBe(200);
    expect(res.body.map((w) => [w.id, w.key])).toEqual([
      [3, 0],
      [1, 1],
      [2, 2],
    ]);
    const stored = await shop.stored('P3');
    expect((stored?.tree as ContentWidget[]).map((w) => w.id)).toEqual([3, 1, 2]);
    const html = stored?.html.default ?? '';
    expect(html.indexOf('data-widget-id="3"')).toBeLessThan(html.indexOf('data-widget-id="1"'));
    expect(res.body.find((w) => w.id === 1)?.children).toEqual(tree[0]!.children);

    for (const ord of [[3, 1], [3, 1, 2, 2], [3, 1, 9], []]) {
      const bad = await shop.call('POST', '/content/P3/type/product', { ord });
      expect(bad.status).toBe(422);
      expect(bad.body.errors?.ord).toEqual([
        'The ord field must list every content widget id of the entity exactly once (3, 1, 2).',
      ]);
    }
    expect(await shop.stored('P3')).toEqual(stored);
  });

  test('when the POST body mixes or misses add and reorder, or names an unknown widget, then 422 explains it and nothing is stored', async () => {
    const shop = await svc.shop();
    await shop.register('P4');
    const section = await svc.widgetOf('section');
    const cases: [unknown, Record<string, string[]>][] = [
      [{}, { widget_id: ['Send either widget_id (to add a widget) or ord (to reorder the widgets).'] }],
      [
        { widget_id: section.id, ord: [] },
        { widget_id: ['Send either widget_id (to add a widget) or ord (to reorder the widgets).'] },
      ],
      [
        { widget_id: section.id, added: false },
        { added: ['The added field must be true when widget_id is sent.'] },
      ],
      [{ ord: [], added: true }, { added: ['The added field must be false when ord is sent.'] }],
      [
        { ord: [], position: 1 },
        { ord: ['The position and json fields belong to adding a widget, not to ord.'] },
      ],
      [{ widget_id: 999_999 }, { widget_id: ['The selected widget_id is invalid.'] }],
      [
        { widget_id: 'x', position: -1 },
        {
          widget_id: ['The widget_id field must be an integer.'],
          position: ['The position field must be at least 0.'],
        },
      ],
      [{ widget_id: section.id, colour: 'red' }, { colour: ['The colour field is not allowed.'] }],
    ];
    for (const [body, errors] of cases) {
      const res = await shop.call('POST', '/content/P4/type/product', body);
      expect([body, res.status, res.body]).toEqual([
        body,
        422,
        { error: 'The given data was invalid.', code: 'validation_failed', errors },
      ]);
    }
    const malformed = await shop.call('POST', '/content/P4/type/product', '{"widget_id": ');
    expect(malformed.status).toBe(400);
    expect(await shop.stored('P4')).toBeUndefined();
  });

  test('when json elements are sent with an add, then they become the widget with fresh ids; a broken graph is 422', async () => {
    const shop = await svc.shop();
    await shop.register('P5');
    await shop.add('P5', 'section');
    const section = await svc.widgetOf('section');
    const json = [
      {
        id: 1,
        parent_id: 0,
        child_id: 0,
        class: 'ccs-widget ccs-widget--section',
        is_editable: false,
        tag: 'section',
        value: [],
        extension: [],
      },
      {
        id: 2,
        parent_id: 1,
        child_id: 0,
        class: 'ccs-section__heading',
        is_editable: true,
        tag: 'h2',
        value: { default: 'Own & heading', cs: 'Vlastní' },
        extension: [],
      },
      {
        id: 3,
        parent_id: 1,
        child_id: 1,
        class: 'ccs-section__text',
        is_editable: true,
        tag: 'div',
        value: { default: '<p>Body</p>' },
        extension: [],
      },
    ];
    const res = await shop.call('POST', '/content/P5/type/product?lang=cs', {
      widget_id: section.id,
      json,
      added: true,
    });
    expect(res.status).toBe(200);
    const added = res.body[1]!;
    expect(added).toMatchObject({ id: 2, key: 1, widget_id: section.id, is_original: false });
    const maxBefore = Math.max(...elementIds([res.body[0]]));
    expect(added.children.map((e) => [e.id, e.parent_id])).toEqual([
      [maxBefore + 1, 0],
      [maxBefore + 2, maxBefore + 1],
      [maxBefore + 3, maxBefore + 1],
    ]);
    expect(added.children[1]?.value).toEqual({ default: 'Own &amp; heading', cs: 'Vlastní' });
    expect(added.html).toContain('Vlastní');
    expect((await shop.stored('P5'))?.html.cs).toContain('Vlastní');

    const before = await shop.stored('P5');
    const broken = await shop.call('POST', '/content/P5/type/product', {
      widget_id: section.id,
      json: [
        { id: 1, parent_id: 7, tag: 'div' },
        { id: 2, parent_id: 2, tag: 'p' },
        { id: 2, tag: 'p' },
      ],
    });
    expect(broken.status).toBe(422);
    expect(broken.body.errors).toEqual({ 'json.2': ['The json.2 field has a duplicate value.'] });
    const cyclic = await shop.call('POST', '/content/P5/type/product', {
      widget_id: section.id,
      json: [
        { id: 1, parent_id: 7, tag: 'div' },
        { id: 2, parent_id: 2, tag: 'p' },
      ],
    });
    expect(cyclic.body.errors).toEqual({
      'json.0.parent_id': ['The json.0.parent_id must be 0 or the id of another element.'],
      'json.1.parent_id': ['The json.1.parent_id must not form a cycle.'],
    });
    expect(await shop.stored('P5')).toEqual(before);
  });

  test('when a content widget is deleted, then the rest answer with their ids; an unknown id is 404 and changes nothing', async () => {
    const shop = await svc.shop();
    await shop.register('P6');
    await shop.add('P6', 'section');
    const tree = await shop.add('P6', 'cta');
    const res = await shop.call('DELETE', '/content/P6/type/product/widget/1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ ...tree[1], key: 0 }]);
    const stored = await shop.stored('P6');
    expect((stored?.tree as ContentWidget[]).map((w) => w.id)).toEqual([2]);
    expect(stored?.html.default).not.toContain('data-widget-id="1"');

    const missing = await shop.call('DELETE', '/content/P6/type/product/widget/1');
    expect(missing).toEqual({
      status: 404,
      body: { error: 'Content widget 1 not found', code: 'not_found' },
    });
    expect(await shop.stored('P6')).toEqual(stored);
    const bad = await shop.call('DELETE', '/content/P6/type/product/widget/abc');
    expect(bad.status).toBe(422);

    const last = await shop.call('DELETE', '/content/P6/type/product/widget/2');
    expect(last).toEqual({ status: 200, body: [] });
    expect((await shop.stored('P6'))?.html.default).toBe('');
  });

  test('when lang is given, then widget html and the DOM are that language (falling back to default); an unknown lang is 422', async () => {
    const shop = await svc.shop({ languages: ['default', 'cs'] });
    await shop.register('P7');
    const widget = (await shop.add('P7', 'section'))[0]!;
    const heading = elementByClass(widget!, 'ccs-section__heading');
    await shop.call('PUT', '/content/P7/type/product', {
      '1': { children: [{ id: heading.id, value: { cs: 'Český nadpis' } }] },
    });
    const cs = await shop.call('GET', '/content/P7/type/product?lang=cs');
    expect(cs.body[0]?.html).toContain('Český nadpis');
    expect(cs.body[0]?.html).toContain('A short introduction');
    const def = await shop.call('GET', '/content/P7/type/product');
    expect(def.body[0]?.html).toContain('Made for everyday use');

    const dom = await shop.call('POST', '/content/dom/P7/type/product?lang=cs');
    const stored = await shop.stored('P7');
    expect(dom.body.data.html).toBe(stored?.html.cs);
    expect((await shop.call('POST', '/content/dom/P7/type/product')).body.data.html).toBe(
      stored?.html.default,
    );
    // A known language the eshop does not use still previews, with the default fallback.
    expect((await shop.call('GET', '/content/P7/type/product?lang=de')).body[0]?.html).toContain(
      'Made for everyday use',
    );

    const bad = await shop.call('GET', '/content/P7/type/product?lang=xx');
    expect(bad).toEqual({
      status: 422,
      body: {
        error: 'The given data was invalid.',
        code: 'validation_failed',
        errors: { lang: ['The selected lang is invalid.'] },
      },
    });
    const badType = await shop.call('GET', '/content/P7/type/brand');
    expect(badType.status).toBe(422);
  });
});
