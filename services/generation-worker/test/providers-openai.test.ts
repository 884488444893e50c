import nock from 'nock';
import { toStrictJsonSchema } from 'openai/lib/transform';
import { htmlToText, SEED_DESIGNS, type DesignStructure } from '@catalogue/content';
import { answerSchema, createOpenAiProvider, ProviderError } from '../src/providers';
import {
  STORY,
  STRUCTURES,
  CONTEXT,
  fills,
  BASE,
  KEY,
  USAGE,
  options,
  completion,
  GOOD_ANSWER,
  SMALL_ANSWER,
  request,
  design,
} from './providers-fixtures';

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
    expect(sent.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'design_content', strict: true, schema: answerSchema(STORY) },
    });
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

  it('retries a response body that is not JSON as a malformed answer', async () => {
    const scope = nock(BASE)
      .post('/chat/completions')
      .reply(200, '{"id":"chatcmpl-1","choices":[', { 'Content-Type': 'application/json' })
      .post('/chat/completions')
      .reply(200, completion(SMALL_ANSWER));
    const result = await createOpenAiProvider(options({ backoffMs: 1 })).generate(request());
    expect(scope.isDone()).toBe(true);
    expect(result.widgets).toHaveLength(1);
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
      .delay(20_000)
      .reply(200, completion(SMALL_ANSWER))
      .post('/chat/completions')
      .reply(200, completion(SMALL_ANSWER));
    const started = Date.now();
    // Long enough for the second, immediate answer on a busy machine (100 ms was not, once).
    const result = await createOpenAiProvider(options({ timeoutMs: 2_000 })).generate(request());
    expect(scope.isDone()).toBe(true);
    expect(result.widgets).toHaveLength(1);
    expect(result.usage).toEqual(USAGE);
    expect(Date.now() - started).toBeLessThan(10_000); // the first attempt would take 20 s
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

  it("tells the model the item's brand and categories, and a source list as list lines", async () => {
    const context = { ...CONTEXT, brand: 'Kožeňák', categories: ['Peněženky', 'Dárky'] };
    let user = '';
    nock(BASE)
      .post('/chat/completions', (body: { messages: Array<{ content: string }> }) => {
        user = body.messages[1]!.content;
        return true;
      })
      .reply(200, completion({ widgets: [{ design_widget_id: 11, fields: { heading: 'Peněženka' } }] }));
    await createOpenAiProvider(options()).generate(request(STORY, context));
    expect(user).toContain('Brand:\nKožeňák');
    expect(user).toContain('Categories:\nPeněženky, Dárky');
    expect(user).toContain('- Ruční šití\n- Dárková krabička');
  });

  it("links to the catalogue item's page and places its images, never a model's", async () => {
    const context = {
      ...CONTEXT,
      url: 'https://shop.example/cs/penezenka',
      images: ['https://cdn.example/penezenka.jpg'],
    };
    nock(BASE)
      .post('/chat/completions', (body: { messages: Array<{ content: string }> }) =>
        body.messages[1]!.content.includes('https://shop.example/cs/penezenka'),
      )
      .reply(
        200,
        completion({
          widgets: [
            {
              design_widget_id: 12,
              fields: { heading: 'Peněženka', paragraph: '<p>Z pravé kůže.</p>' },
              image: ['https://cdn.example/penezenka.jpg', 'https://elsewhere.example/x.jpg'],
            },
            {
              design_widget_id: 15,
              fields: { button_label: 'Koupit', button_href: 'https://shop.example/cs/penezenka' },
            },
          ],
        }),
      );
    const result = await createOpenAiProvider(options()).generate(request(STORY, context));
    // The model's image names are ignored; the item's image fills the image-and-text slot.
    expect(result.widgets.find((w) => w.design_widget_id === 12)?.image).toEqual([
      'https://cdn.example/penezenka.jpg',
    ]);
    expect(JSON.stringify(result.widgets)).not.toContain('elsewhere.example');
    expect(result.widgets.find((w) => w.design_widget_id === 15)?.fields?.button_href).toBe(
      'https://shop.example/cs/penezenka',
    );
  });

  it("when the model answers a benefit with a parameter's name and value, then that item is dropped and a statement kept", async () => {
    let system = '';
    nock(BASE)
      .post('/chat/completions', (body: { messages: Array<{ content: string }> }) => {
        system = body.messages[0]!.content;
        return true;
      })
      .reply(
        200,
        completion({
          widgets: [
            {
              design_widget_id: 52,
              items: [
                { benefit_title: 'Barva', benefit_text: 'hnědá' },
                { benefit_title: 'Materiál', benefit_text: 'Pravá kůže vydrží mnoho let nošení.' },
              ],
            },
          ],
        }),
      );
    const intro = STRUCTURES[SEED_DESIGNS.indexOf(design('category-intro'))] as DesignStructure;

    const result = await createOpenAiProvider(options()).generate(request(intro, CONTEXT));

    expect(system).toContain('A benefit item states in one sentence what a fact of the context');
    expect(result.widgets).toEqual([
      {
        design_widget_id: 52,
        items: [{ benefit_title: 'Materiál', benefit_text: 'Pravá kůže vydrží mnoho let nošení.' }],
      },
    ]);
  });

  it('stops when the caller aborts', async () => {
    nock(BASE).post('/chat/completions').delay(1_000).reply(200, completion(SMALL_ANSWER));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50); // while the answer (1 s away) is awaited
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
  it.each([
    [{ widget: [] }, 'answer.widgets is missing'],
    [{ widgets: { design_widget_id: 11 } }, 'answer.widgets is not an array'],
    [{ widgets: [{ fields: { heading: 'Peněženka' } }] }, 'answer.widgets[0].design_widget_id is missing'],
    [{ widgets: [{ design_widget_id: 11.5 }] }, 'answer.widgets[0].design_widget_id is not an integer'],
    [
      { widgets: [{ design_widget_id: 11, fields: { heading: ['Peněženka'] } }] },
      'answer.widgets[0].fields.heading is not a string',
    ],
    [
      { widgets: [{ design_widget_id: 14, items: { question: 'Q?' } }] },
      'answer.widgets[0].items is not an array',
    ],
    [
      { widgets: [{ design_widget_id: 14, items: [{ question: true }] }] },
      'answer.widgets[0].items[0].question is not a string',
    ],
  ])('refuses an answer whose types break the schema: %j', async (answer, place) => {
    nock(BASE).post('/chat/completions').reply(200, completion(answer));
    const error = await createOpenAiProvider(options({ maxAttempts: 1 }))
      .generate(request())
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toBe(
      `openai provider gave up after 1 attempt: malformed answer: ${place}`,
    );
  });

  it('reads what an endpoint without the schema writes: an id as digits, a number as text, null as left out', async () => {
    nock(BASE)
      .post('/chat/completions')
      .reply(
        200,
        completion({
          widgets: [{ design_widget_id: '13', fields: { quote: 42, author: null }, items: null }],
        }),
      );
    const result = await createOpenAiProvider(options()).generate(request());
    expect(result.widgets).toEqual([{ design_widget_id: 13, fields: { quote: '42' } }]);
  });

  it('takes the object out of prose and a ```json fence', async () => {
    nock(BASE)
      .post('/chat/completions')
      .reply(
        200,
        completion(`Here is the content:\n\n\`\`\`json\n${JSON.stringify(SMALL_ANSWER)}\n\`\`\`\nEnjoy!`),
      );
    const result = await createOpenAiProvider(options()).generate(request());
    expect(result.widgets).toEqual([{ design_widget_id: 11, fields: { heading: 'Peněženka' } }]);
  });

  it('retries a refusal as a malformed answer', async () => {
    const refusal = completion(null);
    refusal.choices[0]!.message = {
      role: 'assistant',
      content: null,
      refusal: 'I cannot help with that.',
    } as never;
    nock(BASE).post('/chat/completions').times(2).reply(200, refusal);
    const error = await createOpenAiProvider(options())
      .generate(request())
      .catch((err: unknown) => err);
    expect((error as ProviderError).message).toBe(
      'openai provider: malformed answer: the model refused (I cannot help with that.) (twice)',
    );
    expect((error as ProviderError).usage).toEqual({
      prompt_tokens: 240,
      completion_tokens: 160,
      total_tokens: 400,
    });
  });

  it('asks for the paragraph length the job wishes, never more than the field allows', async () => {
    const sent: Array<{ response_format: { json_schema: { schema: unknown } } }> = [];
    nock(BASE)
      .post('/chat/completions', (body: (typeof sent)[number]) => sent.push(body) > 0)
      .reply(200, completion(SMALL_ANSWER));
    await createOpenAiProvider(options()).generate(request(STORY, { ...CONTEXT, paragraph_length: 300 }));
    const schema = JSON.stringify(sent[0]?.response_format.json_schema.schema);
    expect(schema).toContain('"paragraph":{"type":["string","null"],"maxLength":300}');
    expect(schema).not.toContain('"maxLength":1500');
  });

  it('waits at most maxBackoffMs after a server error, however long its Retry-After asks for', async () => {
    // A 429's Retry-After is waited in full, up to the rate-limit budget (providers-rate-limits.test.ts).
    const scope = nock(BASE)
      .post('/chat/completions')
      .reply(503, { error: { message: 'Overloaded' } }, { 'Retry-After': '120' })
      .post('/chat/completions')
      .reply(200, completion(SMALL_ANSWER));
    const started = Date.now();
    const result = await createOpenAiProvider(options({ maxBackoffMs: 50 })).generate(request());
    expect(scope.isDone()).toBe(true);
    expect(result.widgets).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(20_000); // Retry-After asked for 120 s
  });
});

describe('the answer schema', () => {
  const schema = answerSchema(STORY);
  const branches = schema.properties?.widgets?.items?.anyOf ?? [];
  const branch = (id: number) => branches.find((b) => b.properties?.design_widget_id?.enum?.[0] === id);
  const text = (maxLength: number) => ({ type: ['string', 'null'], maxLength });

  it('has one closed branch per fillable widget: its roles at most max_length, its items at most item_count', () => {
    expect(schema).toMatchObject({ type: 'object', required: ['widgets'], additionalProperties: false });
    expect(branches.map((b) => b.properties?.design_widget_id)).toEqual(
      [11, 12, 13, 14, 15].map((id) => ({ type: 'integer', enum: [id] })),
    );
    expect(branch(14)).toEqual({
      type: 'object',
      additionalProperties: false,
      required: ['design_widget_id', 'fields', 'items'],
      properties: {
        design_widget_id: { type: 'integer', enum: [14] },
        fields: {
          type: ['object', 'null'],
          additionalProperties: false,
          required: ['heading'],
          properties: { heading: text(120) },
        },
        items: {
          type: ['array', 'null'],
          maxItems: 3,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['question', 'answer'],
            properties: { question: text(200), answer: text(600) },
          },
        },
      },
    });
    expect(branch(11)?.properties?.fields?.properties).toEqual({ heading: text(120), paragraph: text(1500) });
    expect(branch(11)?.required).toEqual(['design_widget_id', 'fields']);
  });

  it.each(STRUCTURES.map((structure) => [structure.design_name, structure] as const))(
    "of %s is what strict Structured Outputs accepts: the SDK's own check changes nothing",
    (_name, structure) => {
      const own = answerSchema(structure);
      expect(toStrictJsonSchema(structuredClone(own) as never)).toEqual(own);
    },
  );
});
