import fc from 'fast-check';
import nock from 'nock';
import {
  designStructure,
  fillDesign,
  htmlToText,
  SEED_DESIGNS,
  SEED_WIDGETS,
  type DesignStructure,
  type FillWidgetInput,
  type WidgetTemplate,
} from '@catalogue/content';
import {
  createBuiltinProvider,
  createOpenAiProvider,
  createProvider,
  fitToStructure,
  ProviderError,
  type GenerationContext,
  type OpenAiProviderOptions,
} from '../src/providers';

const TEMPLATES: WidgetTemplate[] = SEED_WIDGETS.map((w, index) => ({ ...w, id: index + 1 }));
const design = (key: string) => {
  const found = SEED_DESIGNS.find((d) => d.key === key);
  if (found === undefined) throw new Error(`no design ${key}`);
  return found;
};
/** Seeded designs with database-like ids (design_widget_id 10·design + position). */
const STRUCTURES: DesignStructure[] = SEED_DESIGNS.map((d, i) =>
  designStructure(d, {
    design_id: i + 1,
    design_widget_ids: d.widgets.map((_, p) => (i + 1) * 10 + p + 1),
  }),
);
// product-story: section 11, image_text 12, testimonial 13, faq (3 items) 14, cta 15.
const STORY = designStructure(design('product-story'), {
  design_id: 2,
  design_widget_ids: [11, 12, 13, 14, 15],
});

const fills = (structure: DesignStructure, widgets: FillWidgetInput[]) =>
  fillDesign(structure, TEMPLATES, { widget: widgets });

const CONTEXT: GenerationContext = {
  lang: 'cs',
  languages: ['default', 'cs'],
  name: 'Kožená peněženka Tom & Jerry',
  short_description: 'Praktická peněženka z pravé kůže. Vejde se do každé kapsy!',
  old_description:
    '<p>Praktická peněženka z pravé kůže.</p><p>Má <strong>8 slotů</strong> na karty a kapsu na mince. ' +
    'Vyrobeno v Česku.</p><ul><li>Ruční šití</li><li>Dárková krabička</li></ul>',
  parameter: 'Materiál: kůže\nBarva: hnědá\nRozměry = 10 x 12 cm\nTo je vše',
  ean: '8591234567890',
  prompt: 'Piš přátelsky.',
  research: [
    {
      url: 'https://maker.example/faq',
      text: 'Domů\nJak peněženku čistit?\nVlhkým hadříkem. Nepoužívejte rozpouštědla.\nMá peněženka záruku?\nAno, dva roky.',
    },
  ],
};

const BASE = 'https://llm.example.test/v1';
const KEY = 'sk-test-secret-123456';
const USAGE = { prompt_tokens: 120, completion_tokens: 80, total_tokens: 200 };

const options = (overrides: Partial<OpenAiProviderOptions> = {}): OpenAiProviderOptions => ({
  baseUrl: BASE,
  apiKey: KEY,
  model: 'gpt-test',
  timeoutMs: 2_000,
  maxAttempts: 3,
  backoffMs: 1,
  ...overrides,
});

const completion = (content: unknown, usage: object | null = USAGE) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  model: 'gpt-test-2025',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: typeof content === 'string' ? content : JSON.stringify(content),
      },
      finish_reason: 'stop',
    },
  ],
  ...(usage ? { usage } : {}),
});

const GOOD_ANSWER = {
  widgets: [
    {
      design_widget_id: 11,
      fields: { heading: 'Kožená peněženka', paragraph: `<p>${'Z pravé kůže, ručně šitá. '.repeat(80)}</p>` },
    },
    {
      design_widget_id: 14,
      fields: { heading: 'Časté dotazy' },
      items: [1, 2, 3, 4, 5].map((n) => ({ question: `Otázka ${n}?`, answer: `<p>Odpověď ${n}.</p>` })),
    },
    { design_widget_id: 15, fields: { button_label: 'Koupit', button_href: 'https://invented.example/buy' } },
    { design_widget_id: 99, fields: { heading: 'Unknown widget' } },
    { design_widget_id: 13, fields: { quote: 'Skvělá!', sentiment: 'unknown role' } },
  ],
};

const SMALL_ANSWER = { widgets: [{ design_widget_id: 11, fields: { heading: 'Peněženka' } }] };

const request = (structure: DesignStructure = STORY, context: GenerationContext = CONTEXT) => ({
  structure,
  context,
});

beforeAll(() => {
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
});
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('openai provider', () => {
  it('asks for JSON shaped after the structure and returns widgets that fill the design', async () => {
    let sent: Record<string, unknown> = {};
    const scope = nock(BASE)
      .matchHeader('authorization', `Bearer ${KEY}`)
      .post('/chat/completions', (body: Record<string, unknown>) => {
        sent = body;
        return true;
      })
      .reply(200, completion(GOOD_ANSWER));

    const context = {
      ...CONTEXT,
      research: [{ url: 'https://maker.example/faq', text: `${'Fakta o kůži. '.repeat(400)}ZZ-END` }],
    };
    const result = await createOpenAiProvider(options()).generate(request(STORY, context));
    expect(scope.isDone()).toBe(true);

    expect(sent.model).toBe('gpt-test');
    expect(sent.response_format).toEqual({ type: 'json_object' });
    const [system, user] = sent.messages as Array<{ role: string; content: string }>;
    expect(system?.role).toBe('system');
    for (const role of ['heading', 'paragraph', 'quote', 'author', 'question', 'answer', 'button_label']) {
      expect(system?.content).toContain(`"${role}"`);
    }
    expect(system?.content).toContain('design_widget_id 14');
    expect(system?.content).toContain('at most 3');
    expect(system?.content).toContain('at most 1500 characters');
    expect(system?.content).toContain('Czech');
    expect(user?.role).toBe('user');
    expect(user?.content).toContain('Kožená peněženka Tom & Jerry');
    expect(user?.content).toContain('8591234567890');
    expect(user?.content).toContain('Piš přátelsky.');
    expect(user?.content).toContain('https://maker.example/faq');
    expect(user?.content).not.toContain('ZZ-END'); // research capped at 4,000 characters per URL
    expect(JSON.stringify(sent)).not.toContain(KEY);

    expect(result.provider).toBe('openai');
    expect(result.model).toBe('gpt-test-2025');
    expect(result.usage).toEqual(USAGE);
    expect(fills(STORY, result.widgets).ok).toBe(true);
    expect(result.widgets.map((w) => w.design_widget_id)).toEqual([11, 13, 14, 15]);
    const section = result.widgets[0];
    expect(htmlToText(String(section?.fields?.paragraph)).length).toBeLessThanOrEqual(1500);
    expect(result.widgets[2]?.items).toHaveLength(3);
    expect(result.widgets[1]?.fields).toEqual({ quote: 'Skvělá!' });
    // A link the context does not contain is a made-up link: dropped, the label stays.
    expect(result.widgets[3]?.fields).toEqual({ button_label: 'Koupit' });
  });

  it('retries a malformed answer once and sums the usage of both attempts', async () => {
    const scope = nock(BASE)
      .post('/chat/completions')
      .reply(200, completion('Sure! Here is your content: {widgets: oops'))
      .post('/chat/completions')
      .reply(200, completion(SMALL_ANSWER));
    const result = await createOpenAiProvider(options()).generate(request());
    expect(scope.isDone()).toBe(true);
    expect(result.widgets).toEqual([{ design_widget_id: 11, fields: { heading: 'Peněženka' } }]);
    expect(result.usage).toEqual({ prompt_tokens: 240, completion_tokens: 160, total_tokens: 400 });
  });

  it('gives up after a second malformed answer, whatever maxAttempts allows', async () => {
    let calls = 0;
    nock(BASE)
      .post('/chat/completions')
      .times(5)
      .reply(() => {
        calls += 1;
        return [200, completion({ widgets: 'not an array' })];
      });
    const error = await createOpenAiProvider(options({ maxAttempts: 5 }))
      .generate(request())
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toMatch(/malformed answer/);
    expect((error as ProviderError).retryable).toBe(false);
    expect((error as ProviderError).usage?.total_tokens).toBe(400);
    expect(calls).toBe(2);
  });

  it('treats an answer without any usable widget as malformed', async () => {
    nock(BASE)
      .post('/chat/completions')
      .reply(200, completion({ widgets: [{ design_widget_id: 999, fields: { heading: 'x' } }] }))
      .post('/chat/completions')
      .reply(200, completion(SMALL_ANSWER));
    const result = await createOpenAiProvider(options()).generate(request());
    expect(result.widgets).toHaveLength(1);
  });

  it('waits on 429 (Retry-After) and then succeeds', async () => {
    const scope = nock(BASE)
      .post('/chat/completions')
      .reply(429, { error: { message: 'Rate limit reached' } }, { 'Retry-After': '0' })
      .post('/chat/completions')
      .reply(200, completion(SMALL_ANSWER));
    const result = await createOpenAiProvider(options({ backoffMs: 60_000 })).generate(request());
    expect(scope.isDone()).toBe(true);
    expect(result.widgets).toHaveLength(1);
    expect(result.usage).toEqual(USAGE);
  });

  it('retries 500 until maxAttempts and then fails for good', async () => {
    let calls = 0;
    nock(BASE)
      .post('/chat/completions')
      .times(10)
      .reply(() => {
        calls += 1;
        return [500, { error: { message: 'The server had an error' } }];
      });
    const error = await createOpenAiProvider(options({ maxAttempts: 4 }))
      .generate(request())
      .catch((err: unknown) => err);
    expect(calls).toBe(4);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).retryable).toBe(false);
    expect((error as ProviderError).status).toBe(500);
    expect((error as ProviderError).message).toBe(
      'openai provider gave up after 4 attempts: HTTP 500: The server had an error',
    );
  });

  it('aborts an attempt that exceeds timeoutMs and retries', async () => {
    const scope = nock(BASE)
      .post('/chat/completions')
      .delay(1_000)
      .reply(200, completion(SMALL_ANSWER))
      .post('/chat/completions')
      .reply(200, completion(SMALL_ANSWER));
    const started = Date.now();
    const result = await createOpenAiProvider(options({ timeoutMs: 100 })).generate(request());
    expect(scope.isDone()).toBe(true);
    expect(result.widgets).toHaveLength(1);
    expect(result.usage).toEqual(USAGE);
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('reports timeouts when every attempt times out', async () => {
    nock(BASE).post('/chat/completions').times(2).delay(1_000).reply(200, completion(SMALL_ANSWER));
    await expect(
      createOpenAiProvider(options({ timeoutMs: 50, maxAttempts: 2 })).generate(request()),
    ).rejects.toThrow('openai provider gave up after 2 attempts: timed out after 50 ms');
  });

  it('retries network errors', async () => {
    nock(BASE)
      .post('/chat/completions')
      .replyWithError({ code: 'ECONNRESET', message: 'socket hang up' })
      .post('/chat/completions')
      .reply(200, completion(SMALL_ANSWER));
    const result = await createOpenAiProvider(options()).generate(request());
    expect(result.widgets).toHaveLength(1);
  });

  it('does not retry 401 and never repeats the API key', async () => {
    let calls = 0;
    nock(BASE)
      .post('/chat/completions')
      .times(3)
      .reply(() => {
        calls += 1;
        return [401, { error: { message: `Incorrect API key provided: ${KEY}.` } }];
      });
    const error = await createOpenAiProvider(options())
      .generate(request())
      .catch((err: unknown) => err);
    expect(calls).toBe(1);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).status).toBe(401);
    expect((error as ProviderError).retryable).toBe(false);
    expect((error as ProviderError).message).toMatch(
      /^openai provider: HTTP 401: Incorrect API key provided/,
    );
    expect(JSON.stringify(error) + String(error) + (error as Error).stack).not.toContain(KEY);
    expect((error as Error).message).not.toContain('secret-123456');
  });

  it('keeps a link that the context contains', async () => {
    const context = { ...CONTEXT, prompt: 'Tlačítko ať vede na https://shop.example/penezenka' };
    nock(BASE)
      .post('/chat/completions')
      .reply(
        200,
        completion({
          widgets: [
            {
              design_widget_id: 15,
              fields: { button_label: 'Koupit', button_href: 'https://shop.example/penezenka' },
            },
          ],
        }),
      );
    const result = await createOpenAiProvider(options()).generate(request(STORY, context));
    expect(result.widgets[0]?.fields?.button_href).toBe('https://shop.example/penezenka');
    expect(fills(STORY, result.widgets).ok).toBe(true);
  });

  it('stops when the caller aborts', async () => {
    nock(BASE).post('/chat/completions').delay(1_000).reply(200, completion(SMALL_ANSWER));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await createOpenAiProvider(options({ timeoutMs: 5_000 }))
      .generate(request(), controller.signal)
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toBe('generation aborted');
  });

  it('does not call the endpoint for a structure without fillable widgets', async () => {
    const structure: DesignStructure = {
      ...STORY,
      widget: [
        {
          design_widget_id: 1,
          position: 1,
          type: 'divider',
          widget_name: 'Divider',
          fillable: false,
          reason: 'no_content_field',
        },
      ],
    };
    const result = await createOpenAiProvider(options()).generate(request(structure));
    expect(result.widgets).toEqual([]);
    expect(result.usage).toBeNull();
  });

  it('omits the Authorization header without a key (Ollama, vLLM)', async () => {
    let auth: string | undefined = 'unset';
    nock(BASE)
      .post('/chat/completions')
      .reply(function () {
        auth = this.req.headers.authorization as string | undefined;
        return [200, completion(SMALL_ANSWER, null)];
      });
    const result = await createOpenAiProvider(options({ apiKey: '' })).generate(request());
    expect(auth).toBeUndefined();
    expect(result.usage).toBeNull();
  });
});

/** Every sentence of a text appears in the context: the builtin provider invents nothing. */
function contextBlob(context: GenerationContext): string {
  const parts = [context.name, context.short_description, context.old_description, context.parameter];
  return [...parts, ...context.research.map((page) => page.text)]
    .map((part) => htmlToText((part ?? '').replace(/\n/g, ' <br> ')))
    .join(' \u0000 ');
}
function textsOf(widgets: FillWidgetInput[]): string[] {
  const out: string[] = [];
  for (const widget of widgets) {
    for (const text of Object.values(widget.fields ?? {})) out.push(String(text));
    for (const item of widget.items ?? []) for (const text of Object.values(item)) out.push(String(text));
  }
  return out;
}
function expectNothingInvented(widgets: FillWidgetInput[], context: GenerationContext): void {
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

  it('writes name, description sentences, parameter benefits and research questions', async () => {
    const structure = STRUCTURES[SEED_DESIGNS.indexOf(design('category-intro'))] as DesignStructure;
    const { widgets } = await builtin.generate(request(structure));
    expect(widgets).toEqual([
      {
        design_widget_id: 51,
        fields: {
          heading: 'Kožená peněženka Tom & Jerry',
          paragraph:
            '<p>Praktická peněženka z pravé kůže. Vejde se do každé kapsy!</p>' +
            '<p>Má 8 slotů na karty a kapsu na mince. Vyrobeno v Česku.</p><p>Ruční šití</p><p>Dárková krabička</p>',
        },
      },
      {
        design_widget_id: 52,
        items: [
          { benefit_title: 'Materiál', benefit_text: 'kůže' },
          { benefit_title: 'Barva', benefit_text: 'hnědá' },
          { benefit_title: 'Rozměry', benefit_text: '10 x 12 cm' },
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

  it('leaves the questions out without research and widgets it has no text for', async () => {
    const { widgets } = await builtin.generate(request(STORY, { ...CONTEXT, research: [] }));
    // section only: no image, testimonial, questions or call to action can be written honestly.
    expect(widgets.map((w) => w.design_widget_id)).toEqual([11]);
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
