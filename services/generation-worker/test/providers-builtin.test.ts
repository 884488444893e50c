import fc from 'fast-check';
import { htmlToText, SEED_DESIGNS, type DesignStructure, type FillWidgetInput } from '@catalogue/content';
import {
  createBuiltinProvider,
  createProvider,
  fitToStructure,
  type GenerationContext,
} from '../src/providers';
import { isBenefitStatement } from '../src/providers/benefits';
import { parameterPairs } from '../src/providers/builtin';
import { design, STRUCTURES, STORY, fills, CONTEXT, options, request } from './providers-fixtures';

/** Every sentence of a text appears in the context: the builtin provider invents nothing. */
function contextBlob(context: GenerationContext): string {
  const parts = [context.name, context.short_description, context.old_description, context.parameter];
  const texts = [...parts, ...context.research.map((page) => page.text)].map((part) =>
    htmlToText((part ?? '').replace(/\n/g, ' <br> ')),
  );
  // Links (a call to action's, a video's) come from the item's page or the descriptions' markup.
  return [...texts, context.url ?? '', ...parts.map((part) => part ?? '')].join(' \u0000 ');
}
function textsOf(widgets: FillWidgetInput[]): string[] {
  const out: string[] = [];
  for (const widget of widgets) {
    for (const text of Object.values(widget.fields ?? {})) out.push(String(text));
    for (const item of widget.items ?? [])
      for (const [role, text] of Object.entries(item)) if (role !== 'benefit_text') out.push(String(text));
  }
  return out;
}
/** A benefit states a fact of the context: it holds the value of its parameter (its title). */
function expectBenefitsStateFacts(widgets: FillWidgetInput[], context: GenerationContext): void {
  const facts = new Map(parameterPairs(context.parameter).map((pair) => [pair.title, pair.text]));
  for (const item of widgets.flatMap((w) => w.items ?? []).filter((i) => 'benefit_text' in i)) {
    const value = facts.get(String(item.benefit_title));
    expect(value).toBeDefined();
    expect(String(item.benefit_text)).toContain(value);
    expect(String(item.benefit_text)).toMatch(/\.$/);
  }
}
function expectNothingInvented(widgets: FillWidgetInput[], context: GenerationContext): void {
  expectBenefitsStateFacts(widgets, context);
  const blob = contextBlob(context);
  for (const text of textsOf(widgets)) {
    const blocks = text.includes('<') ? text.split(/<\/?p>/).map(htmlToText) : [text];
    for (const block of blocks.filter((b) => b !== '')) {
      for (const sentence of block.split(/(?<=[.!?])\s+/)) expect(blob).toContain(sentence);
    }
  }
}

describe('builtin provider', () => {
  const builtin = createBuiltinProvider();

  it('is the provider createProvider builds by default configuration', () => {
    expect(createProvider({ provider: 'builtin' }).name).toBe('builtin');
    expect(createProvider({ provider: 'openai', openai: options() }).name).toBe('openai');
    expect(() => createProvider({ provider: 'openai' })).toThrow('needs its options');
  });

  it('is deterministic and offline', async () => {
    const spy = jest.spyOn(globalThis, 'fetch');
    try {
      const a = await builtin.generate(request());
      const b = await builtin.generate(request());
      expect(JSON.stringify(a)).toBe(JSON.stringify(b));
      expect(a.usage).toBeNull();
      expect(a.model).toBeNull();
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it.each(STRUCTURES.map((s) => [s.design_name, s] as const))(
    'fills %s within its limits and from the context only',
    async (_name, structure) => {
      for (const context of [
        CONTEXT,
        { ...CONTEXT, paragraph_length: 40 },
        { ...CONTEXT, old_description: `<p>${'Velmi dlouhá věta bez konce '.repeat(100)}</p>` },
        { lang: 'en', languages: ['en'], name: 'Only a name', research: [] },
      ]) {
        const result = await builtin.generate(request(structure, context));
        const filled = fills(structure, result.widgets);
        if (!filled.ok) throw new Error(JSON.stringify(filled.errors));
        expectNothingInvented(result.widgets, context);
      }
      const empty = await builtin.generate(
        request(structure, { lang: 'cs', languages: ['cs'], research: [] }),
      );
      expect(empty.widgets).toEqual([]);
    },
  );

  it('fits every seeded design whatever the context holds (property)', async () => {
    const piece = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom(
        '<p>',
        '</p>',
        '<li>',
        '<b>x</b>',
        '&amp;',
        '<script>x</script>',
        '. ',
        '? ',
        '\n',
        ': ',
      ),
      fc.constantFrom('Material: leather\n', 'Why is it good? ', 'Because it is. ', 'slovo '.repeat(80)),
    );
    const text = fc.array(piece, { maxLength: 10 }).map((parts) => parts.join(''));
    const context = fc.record({
      lang: fc.constant('cs'),
      languages: fc.constant<string[]>(['cs']),
      name: fc.option(text, { nil: undefined }),
      short_description: fc.option(text, { nil: undefined }),
      old_description: fc.option(text, { nil: undefined }),
      parameter: fc.option(text, { nil: undefined }),
      paragraph_length: fc.option(fc.integer({ min: -5, max: 500 }), { nil: undefined }),
      research: fc.array(fc.record({ url: fc.constant('https://r.example/'), text }), { maxLength: 2 }),
      images: fc.option(
        fc.array(fc.oneof(fc.constantFrom('https://cdn.example/i.jpg', 'javascript:x', ''), fc.webUrl())),
        { nil: undefined },
      ),
      url: fc.option(fc.oneof(fc.webUrl(), fc.constantFrom('javascript:alert(1)', ' ', 'no url')), {
        nil: undefined,
      }),
    });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...STRUCTURES), context, async (structure, ctx) => {
        const { widgets } = await builtin.generate(request(structure, ctx));
        if (widgets.length === 0) return;
        const filled = fills(structure, widgets);
        if (!filled.ok) throw new Error(JSON.stringify({ errors: filled.errors, widgets }));
      }),
      { numRuns: 200 },
    );
  });

  it('writes name, description sentences, benefit sentences of the parameters and research questions', async () => {
    const structure = STRUCTURES[SEED_DESIGNS.indexOf(design('category-intro'))] as DesignStructure;
    const { widgets } = await builtin.generate(request(structure));
    expect(widgets).toEqual([
      {
        design_widget_id: 51,
        fields: {
          heading: 'Kožená peněženka Tom & Jerry',
          paragraph:
            '<p>Praktická peněženka z pravé kůže. Vejde se do každé kapsy!</p>' +
            // The source's bullet list stays a list, not a paragraph per item.
            '<p>Má 8 slotů na karty a kapsu na mince. Vyrobeno v Česku.</p><ul><li>Ruční šití</li><li>Dárková krabička</li></ul>',
        },
      },
      {
        design_widget_id: 52,
        items: [
          // One sentence stating each fact (the plural name takes a plural verb).
          { benefit_title: 'Materiál', benefit_text: 'Materiál je kůže.' },
          { benefit_title: 'Barva', benefit_text: 'Barva je hnědá.' },
          { benefit_title: 'Rozměry', benefit_text: 'Rozměry jsou 10 x 12 cm.' },
        ],
      },
      {
        design_widget_id: 53,
        items: [
          { question: 'Jak peněženku čistit?', answer: '<p>Vlhkým hadříkem. Nepoužívejte rozpouštědla.</p>' },
          { question: 'Má peněženka záruku?', answer: '<p>Ano, dva roky.</p>' },
        ],
      },
    ]);
  });

  it('names the research page each FAQ item comes from, and no page for texts of the descriptions', async () => {
    const structure = STRUCTURES[SEED_DESIGNS.indexOf(design('category-intro'))] as DesignStructure;
    expect((await builtin.generate(request(structure))).sources).toEqual([
      { url: 'https://maker.example/faq', design_widget_id: 53 },
    ]);
    expect((await builtin.generate(request(structure, { ...CONTEXT, research: [] }))).sources).toEqual([]);
  });

  it('leaves the questions out without research and widgets it has no text for', async () => {
    const { widgets } = await builtin.generate(request(STORY, { ...CONTEXT, research: [] }));
    // section only: no image, testimonial, questions or call to action can be written honestly.
    expect(widgets.map((w) => w.design_widget_id)).toEqual([11]);
  });

  it('fills images, questions of the description, a call to action and a video from the data, and says why it left the rest out', async () => {
    const context: GenerationContext = {
      ...CONTEXT,
      short_description: 'Praktická peněženka z pravé kůže. Jak dlouho vydrží? Při běžném nošení roky.',
      research: [],
      images: ['https://cdn.example/a.jpg', 'https://cdn.example/b.jpg', 'https://cdn.example/a.jpg'],
      url: 'https://shop.example/penezenka',
    };

    const story = await builtin.generate(request(STORY, context));

    const byId = new Map(story.widgets.map((w) => [w.design_widget_id, w]));
    expect(byId.get(12)?.image).toEqual(['https://cdn.example/a.jpg']);
    expect(byId.get(14)?.items).toEqual([
      { question: 'Jak dlouho vydrží?', answer: '<p>Při běžném nošení roky.</p>' },
    ]);
    // The question and its answer are the FAQ's, not repeated in the paragraphs.
    expect(String(byId.get(11)?.fields?.paragraph)).not.toContain('Jak dlouho');
    expect(byId.get(15)?.fields).toEqual({
      text: 'Praktická peněženka z pravé kůže.',
      button_label: 'Kožená peněženka Tom & Jerry',
      button_href: 'https://shop.example/penezenka',
    });
    expect(story.skipped).toEqual([{ design_widget_id: 13, type: 'testimonial', reason: 'no_quotes' }]);
    expect(fills(STORY, story.widgets).ok).toBe(true);
    expectNothingInvented(story.widgets, context);

    const technical = STRUCTURES[SEED_DESIGNS.indexOf(design('product-technical'))] as DesignStructure;
    const video = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';
    const tech = await builtin.generate(
      request(technical, {
        ...context,
        old_description: `<p>Podívejte se: <a href="${video}">video</a>.</p>`,
      }),
    );
    expect(tech.widgets.find((w) => w.fields?.video_url)?.fields).toEqual({ video_url: video });
    expect(tech.skipped?.map((s) => [s.type, s.reason])).toEqual([['comparison', 'no_two_options']]);

    const classic = STRUCTURES[SEED_DESIGNS.indexOf(design('product-classic'))] as DesignStructure;
    const gallery = await builtin.generate(request(classic, context));
    // The image and text took a.jpg; the gallery shows b.jpg, then a.jpg again: every image
    // widget shows the item's images.
    expect(gallery.widgets.map((w) => w.image ?? [])).toContainEqual([
      'https://cdn.example/b.jpg',
      'https://cdn.example/a.jpg',
    ]);
  });

  it("leaves a call to action out without the item's page, and a gallery without images", async () => {
    const classic = STRUCTURES[SEED_DESIGNS.indexOf(design('product-classic'))] as DesignStructure;
    const { skipped } = await builtin.generate(request(STORY, { ...CONTEXT, research: [] }));
    // The section took every sentence: nothing is left for the image and text.
    expect(skipped?.map((s) => s.reason)).toEqual(['no_text', 'no_quotes', 'no_questions', 'no_url']);
    const none = await builtin.generate(request(classic, { ...CONTEXT, research: [] }));
    expect(none.skipped?.map((s) => [s.type, s.reason])).toEqual([
      ['image_text', 'no_text'],
      ['gallery', 'no_images'],
    ]);
  });

  it('respects paragraph_length and continues the text in the next widget', async () => {
    const article = STRUCTURES[SEED_DESIGNS.indexOf(design('blog-article'))] as DesignStructure;
    const { widgets } = await builtin.generate(request(article, { ...CONTEXT, paragraph_length: 60 }));
    const paragraphs = widgets.map((w) => htmlToText(String(w.fields?.paragraph ?? '')));
    expect(paragraphs).toEqual([
      'Praktická peněženka z pravé kůže. Vejde se do každé kapsy!',
      'Má 8 slotů na karty a kapsu na mince. Vyrobeno v Česku.',
      'Ruční šití Dárková krabička',
    ]);
    for (const p of paragraphs) expect(p.length).toBeLessThanOrEqual(60);
  });

  it('cuts a sentence longer than the field at a word boundary', async () => {
    const long = 'Slovo '.repeat(100).trim() + '.';
    const { widgets } = await builtin.generate(
      request(STORY, {
        lang: 'cs',
        languages: ['cs'],
        short_description: long,
        paragraph_length: 33,
        research: [],
      }),
    );
    expect(widgets[0]?.fields?.paragraph).toBe('<p>Slovo Slovo Slovo Slovo Slovo</p>');
  });
});

describe('fitToStructure', () => {
  const compact = STRUCTURES[SEED_DESIGNS.indexOf(design('product-compact'))] as DesignStructure; // 41 section(400), 42 benefit(3, text 150), 43 parameters

  it('keeps fillable widgets and known roles only, the first entry per widget, in design order', () => {
    const fitted = fitToStructure(compact, [
      { design_widget_id: 42, items: [{ benefit_title: 'A', benefit_text: 'B', extra: 'x' }] },
      { design_widget_id: 41, fields: { heading: 'H', colour: 'red' } },
      { design_widget_id: 41, fields: { heading: 'second' } },
      { design_widget_id: 43, items: [{ name: 'n', value: 'v' }] },
      { design_widget_id: '41', fields: { heading: 'string id' } },
      { design_widget_id: 77, fields: { heading: 'unknown' } },
      null,
      'text',
    ]);
    expect(fitted).toEqual([
      { design_widget_id: 41, fields: { heading: 'H' } },
      { design_widget_id: 42, items: [{ benefit_title: 'A', benefit_text: 'B' }] },
    ]);
  });

  it('cuts texts on a word boundary and html to plain paragraphs', () => {
    const fitted = fitToStructure(compact, [
      {
        design_widget_id: 41,
        fields: {
          heading: `<b>Bold</b> ${'heading '.repeat(30)}`,
          paragraph: `<h2>Title</h2><p>${'word '.repeat(200)}</p><script>alert(1)</script>`,
        },
      },
    ]);
    const fields = fitted[0]?.fields ?? {};
    expect(String(fields.heading)).toMatch(/^Bold heading( heading)*$/);
    expect(String(fields.heading).length).toBeLessThanOrEqual(120);
    expect(String(fields.paragraph)).toMatch(/^<p>Title<\/p><p>word( word)*<\/p>$/);
    expect(htmlToText(String(fields.paragraph)).length).toBeLessThanOrEqual(400);
    expect(fills(compact, fitted).ok).toBe(true);
  });

  it('keeps at most item_count items and drops empty ones, images and icons within their slots', () => {
    const imageText = STRUCTURES[0] as DesignStructure; // product-classic: 12 image_text, 13 benefit, 15 gallery(4)
    const fitted = fitToStructure(imageText, [
      {
        design_widget_id: 12,
        fields: { paragraph: '   ' },
        image: ['https://img.example/1.jpg', 'https://img.example/2.jpg'],
      },
      {
        design_widget_id: 13,
        items: [
          { benefit_title: '' },
          { benefit_title: 'A' },
          { benefit_text: 'B' },
          { benefit_title: 'C' },
          { benefit_title: 'D' },
        ],
        icon: ['https://img.example/i.svg', 'javascript:alert(1)', 'https://img.example/j.svg'],
      },
      { design_widget_id: 15, image: ['ftp://x/y.png', 'https://img.example/a.png'] },
      { design_widget_id: 11, fields: { heading: '<script>x</script>' } },
    ]);
    expect(fitted).toEqual([
      { design_widget_id: 12, image: ['https://img.example/1.jpg'] },
      {
        design_widget_id: 13,
        items: [{ benefit_title: 'A' }, { benefit_text: 'B' }, { benefit_title: 'C' }],
        icon: ['https://img.example/i.svg', 'https://img.example/j.svg'],
      },
      { design_widget_id: 15, image: ['https://img.example/a.png'] },
    ]);
    expect(fills(imageText, fitted).ok).toBe(true);
  });

  it('always produces a valid fill request (property)', () => {
    const nasty = fc
      .array(
        fc.oneof(
          fc.string({ maxLength: 40 }),
          fc.string({ unit: 'binary', maxLength: 20 }),
          fc.constantFrom(
            '<p>',
            '</p>',
            '<b>',
            '<script>alert(1)</script>',
            '&lt;b',
            '&amp;',
            '<',
            ' ',
            '\n',
            'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
            'https://example.com/x',
            'javascript:alert(1)',
            'slovo '.repeat(60),
          ),
        ),
        { maxLength: 12 },
      )
      .map((parts) => parts.join(''));
    const roles = fc.constantFrom(
      'heading',
      'paragraph',
      'question',
      'answer',
      'benefit_title',
      'benefit_text',
      'quote',
      'author',
      'text',
      'button_label',
      'button_href',
      'video_url',
      'label',
      'label_a',
      'value_a',
      'bogus',
    );
    const text = fc.oneof(
      nasty,
      fc.dictionary(fc.constantFrom('default', 'cs', 'xx'), nasty, { maxKeys: 3 }),
      fc.integer(),
    );
    const texts = fc.dictionary(roles, text, { maxKeys: 6 });
    const urls = fc.array(fc.oneof(fc.constant('https://img.example/a.png'), nasty), { maxLength: 8 });
    fc.assert(
      fc.property(
        fc.constantFrom(...STRUCTURES),
        fc.array(fc.integer({ min: 0, max: 110 }), { maxLength: 8 }),
        fc.array(
          fc.record(
            { fields: texts, items: fc.array(texts, { maxLength: 8 }), image: urls, icon: urls },
            { requiredKeys: [] },
          ),
          { minLength: 8, maxLength: 8 },
        ),
        (structure, ids, bodies) => {
          const widgets = ids.map((id, i) => ({ design_widget_id: id, ...bodies[i] }));
          const fitted = fitToStructure(structure, widgets);
          if (fitted.length === 0) return;
          const filled = fills(structure, fitted);
          if (!filled.ok) throw new Error(JSON.stringify({ errors: filled.errors, fitted }));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('builtin provider: benefits state facts', () => {
  const builtin = createBuiltinProvider();
  const intro = STRUCTURES[SEED_DESIGNS.indexOf(design('category-intro'))] as DesignStructure;
  const benefitsOf = async (context: GenerationContext) =>
    (await builtin.generate(request(intro, context))).widgets.find((w) => w.design_widget_id === 52);

  it('when a job is in English, then each benefit is a sentence stating its fact, its verb agreeing with the name', async () => {
    const widget = await benefitsOf({
      ...CONTEXT,
      lang: 'en',
      name: 'Summit down jacket',
      short_description: undefined,
      old_description: '<p>800-fill goose down.</p>',
      parameter: 'Colour: Green\nDimensions: 70 x 50 cm\nGORE-TEX shell: yes',
      research: [],
    });
    expect(widget?.items).toEqual([
      { benefit_title: 'Colour', benefit_text: 'The colour is Green.' },
      { benefit_title: 'Dimensions', benefit_text: 'The dimensions are 70 x 50 cm.' },
      { benefit_title: 'GORE-TEX shell', benefit_text: 'The GORE-TEX shell is yes.' },
    ]);
  });

  it("when a description sentence no widget took names a fact's value, then the benefit is that sentence", async () => {
    const widget = await benefitsOf({
      ...CONTEXT,
      lang: 'en',
      name: 'Summit down jacket',
      short_description: undefined,
      // The section takes sentences up to its limit: more than it takes are left for benefits.
      old_description: `<p>${Array.from({ length: 80 }, (_, i) => `Layer ${i} keeps you warm on cold days.`).join(' ')} The green shell hides dirt on the trail.</p>`,
      parameter: 'Colour: green',
      research: [],
    });
    expect(widget?.items).toEqual([
      { benefit_title: 'Colour', benefit_text: 'The green shell hides dirt on the trail.' },
    ]);
  });

  it("when a default job's shop has not said which language its main one is, then benefits are left out as no_language; with default_language they are written", async () => {
    const context = { ...CONTEXT, lang: 'default', research: [] };
    const unknown = await builtin.generate(request(intro, context));
    expect(unknown.widgets.find((w) => w.design_widget_id === 52)).toBeUndefined();
    expect(unknown.skipped).toContainEqual({ design_widget_id: 52, type: 'benefit', reason: 'no_language' });

    const czech = await benefitsOf({ ...context, mainLanguage: 'cs' });
    expect(czech?.items?.[0]).toEqual({ benefit_title: 'Materiál', benefit_text: 'Materiál je kůže.' });
  });

  it("when a provider's benefit is only a parameter's name, value or both, then it is not a statement", () => {
    const facts = [{ title: 'Colour', text: 'Green' }];
    for (const text of ['Green', 'Colour', 'Colour: Green', 'colour green.', 'Very nice'])
      expect({ text, ok: isBenefitStatement(text, facts) }).toEqual({ text, ok: false });
    for (const text of ['The colour is Green.', 'Green hides mud on the trail.'])
      expect({ text, ok: isBenefitStatement(text, facts) }).toEqual({ text, ok: true });
  });
});
