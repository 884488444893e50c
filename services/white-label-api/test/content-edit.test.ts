import type { ContentWidget } from '@catalogue/content';
import { contentService, elementByClass, elementIds } from './content-helpers';

describe('white-label-api: PUT content and element-copy', () => {
  const svc = contentService();

  /** An eshop with product `id` holding a section (widget 1) and an faq (widget 2). */
  async function arrange(id: string, languages: ('default' | 'cs' | 'en')[] = ['default', 'cs', 'en']) {
    const shop = await svc.shop({ languages });
    await shop.register(id);
    await shop.add(id, 'section');
    const tree = await shop.add(id, 'faq');
    return { shop, section: tree[0]!, faq: tree[1]! };
  }

  /** Writes the FAQ's questions (`Question 1`…): samples are never rendered for the lists. */
  async function writeQuestions(
    shop: Awaited<ReturnType<typeof arrange>>['shop'],
    id: string,
    faq: ContentWidget,
  ): Promise<ContentWidget> {
    const questions = faq.children.filter((e) => e.class === 'ccs-faq__question');
    const res = await shop.call('PUT', `/content/${id}/type/product`, {
      [faq.id]: {
        children: questions.map((q, i) => ({ id: q.id, value: { default: `Question ${i + 1}` } })),
      },
    });
    expect(res.status).toBe(200);
    return res.body[1] as ContentWidget;
  }

  test('when values are sent per language, then those languages change, others stay, and every output is re-rendered', async () => {
    const { shop, section } = await arrange('E1');
    const heading = elementByClass(section, 'ccs-section__heading');
    const text = elementByClass(section, 'ccs-section__text');
    const res = await shop.call('PUT', '/content/E1/type/product?lang=cs', {
      '1': {
        children: [
          { id: heading.id, value: { cs: 'Bota & ponožka', en: 'Shoe' } },
          { ...text, value: { default: '<p>New <strong>body</strong></p>' } },
        ],
      },
    });
    expect(res.status).toBe(200);
    const edited = res.body[0]!;
    expect(edited.is_original).toBe(false);
    expect(elementByClass(edited, 'ccs-section__heading').value).toEqual({
      default: 'Made for everyday use',
      cs: 'Bota &amp; ponožka',
      en: 'Shoe',
    });
    expect(elementByClass(edited, 'ccs-section__text').value).toEqual({
      default: '<p>New <strong>body</strong></p>',
    });
    expect(edited.html).toContain('Bota &amp; ponožka');
    expect(res.body[1]?.is_original).toBe(true);

    // Answered in cs: the untouched widget's default texts are marked as another language's.
    expect(res.body[1]?.html).toContain('lang="und"');

    const stored = await shop.stored('E1');
    // Each widget's own html is in the language it was last rendered in; the values are the same.
    // (Answered in cs, the heading written in cs is the owner's there: not a sample in cs.)
    expect(elementByClass(edited, 'ccs-section__heading').sample).toBeUndefined();
    const inDefault = (await shop.call('GET', '/content/E1/type/product?lang=default')).body;
    expect(stored?.tree).toEqual(inDefault.map((w) => ({ ...w, html: expect.any(String) })));
    expect(elementByClass((stored?.tree as ContentWidget[])[0], 'ccs-section__heading').sample).toEqual([
      'value',
    ]);
    expect(stored?.html.cs).toContain('Bota &amp; ponožka');
    expect(stored?.html.en).toContain('>Shoe</h2>');
    // The heading's `default` is still the catalogue's sample: the lists never show it.
    expect(stored?.html.default).not.toContain('Made for everyday use');
    expect(stored?.html.default).toContain('<p>New <strong>body</strong></p>');
    expect(stored?.marketplace.cs).toContain('<h2>Bota &amp; ponožka</h2>');
    // The untouched FAQ is nothing but samples: left out of the lists' structure too.
    expect(stored?.nested).toHaveLength(1);
  });

  test('when a value holds text PostgreSQL cannot store (NUL, lone surrogate), then 422 naming it and nothing changes', async () => {
    const { shop } = await arrange('E0');
    const before = await shop.stored('E0');

    const res = await shop.call('PUT', '/content/E0/type/product', {
      '1': { children: [{ id: 2, value: { default: 'a\u0000b', cs: '\ud800' } }] },
    });

    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors ?? {}).sort()).toEqual([
      '1.children.0.value.cs',
      '1.children.0.value.default',
    ]);
    expect(await shop.stored('E0')).toEqual(before);
  });

  test('when a value read from GET is sent back unchanged, then nothing is escaped twice and the widget stays original', async () => {
    const { shop } = await arrange('E2');
    await shop.call('PUT', '/content/E2/type/product', {
      '1': { children: [{ id: 2, value: { default: 'Tom & Jerry' } }] },
    });
    const read = await shop.call('GET', '/content/E2/type/product');
    const again = await shop.call('PUT', '/content/E2/type/product', {
      '1': { children: read.body[0]?.children },
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(read.body);
    expect(elementByClass(again.body[0], 'ccs-section__heading').value.default).toBe('Tom &amp; Jerry');
  });

  test('when an empty string is sent for a language, then that language is removed and falls back to default', async () => {
    const { shop } = await arrange('E3');
    await shop.call('PUT', '/content/E3/type/product', {
      '1': { children: [{ id: 2, value: { cs: 'Nadpis' } }] },
    });
    const res = await shop.call('PUT', '/content/E3/type/product', {
      '1': { children: [{ id: 2, value: { cs: '' } }] },
    });
    expect(elementByClass(res.body[0], 'ccs-section__heading').value).toEqual({
      default: 'Made for everyday use',
    });
    // That `default` is the catalogue's sample: the lists fall back to nothing.
    expect((await shop.stored('E3'))?.html.cs).not.toContain('Made for everyday use');
    await shop.call('PUT', '/content/E3/type/product', {
      '1': { children: [{ id: 2, value: { default: 'Own heading' } }] },
    });
    expect((await shop.stored('E3'))?.html.cs).toContain('Own heading');
  });

  test('when attributes are sent, then safe URLs and plain texts are stored; unsafe ones are 422 and nothing changes', async () => {
    const shop = await svc.shop();
    await shop.register('E4');
    const [widget] = await shop.add('E4', 'image_text');
    const image = widget!.children.find((e) => e.tag === 'img')!;
    const ok = await shop.call('PUT', '/content/E4/type/product', {
      '1': {
        children: [
          {
            id: image.id,
            extension: { src: 'https://cdn.shop.test/a.jpg', alt: { default: 'Shoe', cs: 'Bota' } },
          },
        ],
      },
    });
    expect(ok.status).toBe(200);
    expect(ok.body[0]?.children.find((e) => e.id === image.id)?.extension).toEqual({
      src: 'https://cdn.shop.test/a.jpg',
      alt: { default: 'Shoe', cs: 'Bota' },
    });
    expect((await shop.stored('E4'))?.html.cs).toContain('src="https://cdn.shop.test/a.jpg" alt="Bota"');

    const before = await shop.stored('E4');
    const bad = await shop.call('PUT', '/content/E4/type/product', {
      '1': { children: [{ id: image.id, extension: { src: 'javascript:alert(1)', alt: '<b>x</b>' } }] },
    });
    expect(bad).toEqual({
      status: 422,
      body: {
        error: 'The given data was invalid.',
        code: 'validation_failed',
        errors: {
          '1.children.0.extension.src': ['The 1.children.0.extension.src field must be a valid URL.'],
          '1.children.0.extension.alt': ['The 1.children.0.extension.alt field must not contain HTML.'],
        },
      },
    });
    expect(await shop.stored('E4')).toEqual(before);
  });

  test('when PUT names unknown widgets or elements, changes a non-editable element or is malformed, then 422 and nothing changes', async () => {
    const { shop, section } = await arrange('E5');
    const before = await shop.stored('E5');
    const wrapper = section.children.find((e) => e.parent_id === 0)!;
    const cases: [unknown, Record<string, string[]>][] = [
      [{ '9': { children: [] } }, { '9': ['The content widget 9 does not exist.'] }],
      [
        { '1': { children: [{ id: 999, value: { default: 'x' } }] } },
        { '1.children.0.id': ['The selected 1.children.0.id is invalid.'] },
      ],
      [
        { '1': { children: [{ id: wrapper.id, value: { default: 'x' } }] } },
        { '1.children.0.id': [`The element ${wrapper.id} is not editable.`] },
      ],
      [{}, { body: ['The body field must not be empty.'] }],
      [{ abc: { children: [] } }, { abc: ['The abc field is not allowed.'] }],
      [{ '1': {} }, { '1.children': ['The 1.children field is required.'] }],
      [
        { '1': { children: [{ id: 2, value: { xx: 'y' } }] } },
        { '1.children.0.value.xx': ['The 1.children.0.value.xx field is not allowed.'] },
      ],
    ];
    for (const [body, errors] of cases) {
      const res = await shop.call('PUT', '/content/E5/type/product', body);
      expect([body, res.status, res.body]).toEqual([
        body,
        422,
        { error: 'The given data was invalid.', code: 'validation_failed', errors },
      ]);
    }
    // One bad widget among good ones: the good change is not written either.
    const mixed = await shop.call('PUT', '/content/E5/type/product', {
      '1': { children: [{ id: 2, value: { default: 'Changed' } }] },
      '9': { children: [] },
    });
    expect(mixed.status).toBe(422);
    expect(await shop.stored('E5')).toEqual(before);
  });

  test('when a favourite-shaped element list is added as json, then its per-language attributes become the element attributes', async () => {
    const shop = await svc.shop({ languages: ['default', 'cs'] });
    await shop.register('E8');
    const imageText = await svc.widgetOf('image_text');
    const res = await shop.call('POST', '/content/E8/type/product', {
      widget_id: imageText.id,
      json: [
        {
          id: 1,
          parent_id: 0,
          tag: 'figure',
          class: 'ccs-image-text__media',
          is_editable: false,
          value: [],
          extension: [],
        },
        {
          id: 2,
          parent_id: 1,
          tag: 'img',
          class: 'ccs-image-text__image',
          value: [],
          extension: { default: { src: 'https://cdn.shop.test/f.jpg', alt: 'Shoe' }, cs: { alt: 'Bota' } },
        },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body[0]?.children[1]?.extension).toEqual({
      src: 'https://cdn.shop.test/f.jpg',
      alt: { default: 'Shoe', cs: 'Bota' },
    });
    expect((await shop.stored('E8'))?.html.cs).toContain('src="https://cdn.shop.test/f.jpg" alt="Bota"');
    const bad = await shop.call('POST', '/content/E8/type/product', {
      widget_id: imageText.id,
      json: [{ id: 1, tag: 'img', extension: { cs: { src: 'javascript:alert(1)' } } }],
    });
    expect(bad.body.errors).toEqual({
      'json.0.extension.src': ['The json.0.extension.src field must be a valid URL.'],
    });
  });

  test('when an element is copied, then the duplicate (with descendants and fresh ids) follows it and renders', async () => {
    const arranged = await arrange('E6');
    const { shop } = arranged;
    const faq = await writeQuestions(shop, 'E6', arranged.faq);
    const list = elementByClass(faq, 'ccs-faq__list');
    const items = faq.children.filter((e) => e.parent_id === list.id);
    expect(items).toHaveLength(5);
    const res = await shop.call('POST', '/content/element-copy/E6/type/product', {
      action: 'copy',
      index: 0,
      contentId: 2,
      parent: String(list.id),
    });
    expect(res.status).toBe(200);
    const copied = res.body[1]!;
    const after = copied.children
      .filter((e) => e.parent_id === list.id)
      .sort((a, b) => a.child_id - b.child_id);
    expect(after).toHaveLength(6);
    expect(after[0]?.id).toBe(items[0]!.id);
    const copy = after[1]!;
    expect(copy.id).toBeGreaterThan(Math.max(...elementIds([res.body[0], faq])));
    const copyKids = copied.children.filter((e) => e.parent_id === copy.id);
    expect(copyKids.map((e) => e.value)).toEqual(
      faq.children.filter((e) => e.parent_id === items[0]!.id).map((e) => e.value),
    );
    const ids = elementIds(res.body);
    expect(new Set(ids).size).toBe(ids.length);
    expect(copied.is_original).toBe(false);
    const html = (await shop.stored('E6'))?.html.default ?? '';
    expect(html.split('Question 1').length - 1).toBe(2);
  });

  test('when an element is removed, then it goes with its descendants; bad references are 422 and change nothing', async () => {
    const arranged = await arrange('E7');
    const { shop } = arranged;
    const faq = await writeQuestions(shop, 'E7', arranged.faq);
    const list = elementByClass(faq, 'ccs-faq__list');
    const res = await shop.call('POST', '/content/element-copy/E7/type/product', {
      action: 'remove',
      index: 1,
      contentId: 2,
      parent: list.id,
    });
    expect(res.status).toBe(200);
    const html = (await shop.stored('E7'))?.html.default ?? '';
    expect(html).not.toContain('Question 2');
    expect(html).toContain('Question 1');
    expect(res.body[1]?.children).toHaveLength(faq.children.length - 3);

    const before = await shop.stored('E7');
    const cases: [unknown, string][] = [
      [{ action: 'copy', index: 0, contentId: 9, parent: '0' }, 'contentId'],
      [{ action: 'copy', index: 0, contentId: 2, parent: '99999' }, 'parent'],
      [{ action: 'copy', index: 4, contentId: 2, parent: String(list.id) }, 'index'],
      [{ action: 'remove', index: 0, contentId: 2 }, 'index'],
      [{ action: 'move', index: 0, contentId: 2 }, 'action'],
      [{ action: 'copy', index: -1, contentId: 2, parent: 'top' }, 'index'],
    ];
    for (const [body, field] of cases) {
      const bad = await shop.call('POST', '/content/element-copy/E7/type/product', body);
      expect([body, bad.status]).toEqual([body, 422]);
      expect(Object.keys(bad.body.errors ?? {})).toContain(field);
    }
    expect(await shop.stored('E7')).toEqual(before);
  });
});
