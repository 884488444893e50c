import nock from 'nock';
import { htmlToText, type DesignStructure } from '@catalogue/content';
import { createOpenAiProvider, ProviderError } from '../src/providers';
import {
  STORY,
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
