// The openai provider against the answer shapes of each OpenAI-compatible server it is meant
// for: OpenAI (see providers-openai.test.ts), Azure OpenAI, Ollama and vLLM (faked with nock).
import nock from 'nock';
import { createOpenAiProvider, ProviderError } from '../src/providers';
import { BASE, fills, options, request, SMALL_ANSWER, STORY, USAGE } from './providers-fixtures';

type Sent = { model: string; response_format: { type: string } };

describe('openai provider on Azure OpenAI (apiVersion set)', () => {
  const AZURE = 'https://shop-content.openai.azure.com';
  // Azure keys are 32 hex digits: nothing about them looks like a key but the value itself.
  const AZURE_KEY = '7f3a9c0e5b2d4f6a8c1e3b5d7f9a2c4e';
  const azure = (overrides = {}) =>
    options({
      baseUrl: `${AZURE}/openai`,
      apiKey: AZURE_KEY,
      apiVersion: '2024-10-21',
      model: 'content-gpt',
      ...overrides,
    });
  /** Azure's answer: OpenAI's, with the content filters' verdicts. */
  const azureCompletion = {
    id: 'chatcmpl-AZ1',
    object: 'chat.completion',
    created: 1_760_000_000,
    model: 'gpt-4o-mini-2024-07-18',
    prompt_filter_results: [
      { prompt_index: 0, content_filter_results: { hate: { filtered: false, severity: 'safe' } } },
    ],
    choices: [
      {
        index: 0,
        finish_reason: 'stop',
        logprobs: null,
        message: { role: 'assistant', content: JSON.stringify(SMALL_ANSWER), refusal: null },
        content_filter_results: { hate: { filtered: false, severity: 'safe' } },
      },
    ],
    usage: USAGE,
  };

  it('posts to the deployment with the api-version and the key in an api-key header, never as Bearer', async () => {
    let headers: Record<string, unknown> = {};
    let sent: Partial<Sent> = {};
    const scope = nock(AZURE)
      .post('/openai/deployments/content-gpt/chat/completions', (body: Sent) => {
        sent = body;
        return true;
      })
      .query({ 'api-version': '2024-10-21' })
      .reply(function () {
        headers = this.req.headers;
        return [200, azureCompletion];
      });
    const result = await createOpenAiProvider(azure()).generate(request());
    expect(scope.isDone()).toBe(true);
    expect(headers['api-key']).toBe(AZURE_KEY);
    expect(headers.authorization).toBeUndefined();
    expect(sent.response_format?.type).toBe('json_schema');
    expect(result).toMatchObject({ provider: 'openai', model: 'gpt-4o-mini-2024-07-18', usage: USAGE });
    expect(result.widgets).toEqual([{ design_widget_id: 11, fields: { heading: 'Peněženka' } }]);
  });

  it("waits as long as Azure's retry-after-ms says on 429", async () => {
    const scope = nock(AZURE)
      .post('/openai/deployments/content-gpt/chat/completions')
      .query(true)
      .reply(
        429,
        { error: { code: '429', message: 'Requests have exceeded the call rate limit.' } },
        {
          'retry-after-ms': '5',
          'retry-after': '60',
        },
      )
      .post('/openai/deployments/content-gpt/chat/completions')
      .query(true)
      .reply(200, azureCompletion);
    const started = Date.now();
    const result = await createOpenAiProvider(azure({ backoffMs: 60_000 })).generate(request());
    expect(scope.isDone()).toBe(true);
    expect(result.widgets).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(20_000); // retry-after asked for 60 s, the backoff allows 60 s
  });

  it('fails for good on a content-filter refusal (400), the key not repeated', async () => {
    nock(AZURE)
      .post('/openai/deployments/content-gpt/chat/completions')
      .query(true)
      .reply(400, {
        error: {
          code: 'content_filter',
          message: `The response was filtered due to the prompt triggering Azure OpenAI's content management policy (key ${AZURE_KEY}).`,
        },
      });
    const error = await createOpenAiProvider(azure())
      .generate(request())
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).status).toBe(400);
    expect((error as ProviderError).message).toMatch(/^openai provider: HTTP 400: The response was filtered/);
    expect(JSON.stringify(error) + String(error) + (error as Error).stack).not.toContain(AZURE_KEY);
  });
});

describe('openai provider on Ollama (/v1, no key)', () => {
  /** Ollama's answer: no usage here, the JSON in a fence when the model does not keep to the schema. */
  const ollamaCompletion = (content: string) => ({
    id: 'chatcmpl-491',
    object: 'chat.completion',
    created: 1_760_000_000,
    model: 'llama3.1:8b',
    system_fingerprint: 'fp_ollama',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  });

  it('reads a fenced answer without usage and sends no Authorization header', async () => {
    let auth: unknown = 'unset';
    nock(BASE)
      .post('/chat/completions')
      .reply(function () {
        auth = this.req.headers.authorization;
        return [200, ollamaCompletion(`\`\`\`json\n${JSON.stringify(SMALL_ANSWER, null, 2)}\n\`\`\``)];
      });
    const result = await createOpenAiProvider(options({ apiKey: '', model: 'llama3.1:8b' })).generate(
      request(),
    );
    expect(auth).toBeUndefined();
    expect(result).toEqual({
      widgets: [{ design_widget_id: 11, fields: { heading: 'Peněženka' } }],
      usage: null,
      provider: 'openai',
      model: 'llama3.1:8b',
    });
  });
});

describe('openai provider on vLLM', () => {
  /** vLLM's answer: usage with its own extra fields, reasoning_content, an empty tool_calls. */
  const vllmCompletion = (content: unknown) => ({
    id: 'chatcmpl-8f1c',
    object: 'chat.completion',
    created: 1_760_000_000,
    model: 'Qwen/Qwen2.5-7B-Instruct',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          reasoning_content: null,
          content: JSON.stringify(content),
          tool_calls: [],
        },
        logprobs: null,
        finish_reason: 'stop',
        stop_reason: null,
      },
    ],
    usage: { prompt_tokens: 900, total_tokens: 1000, completion_tokens: 100, prompt_tokens_details: null },
    prompt_logprobs: null,
  });
  /** vLLM's error body: no `error` wrapper. */
  const vllmError = (message: string) => ({
    object: 'error',
    message,
    type: 'BadRequestError',
    param: null,
    code: 400,
  });

  it('reads its answer and usage', async () => {
    nock(BASE).post('/chat/completions').reply(200, vllmCompletion(SMALL_ANSWER));
    const result = await createOpenAiProvider(options({ apiKey: '' })).generate(request());
    expect(result.usage).toEqual({ prompt_tokens: 900, completion_tokens: 100, total_tokens: 1000 });
    expect(result.model).toBe('Qwen/Qwen2.5-7B-Instruct');
    expect(fills(STORY, result.widgets).ok).toBe(true);
  });

  it('falls back to JSON mode at once when the server refuses a json_schema response_format', async () => {
    const sent: Sent[] = [];
    const scope = nock(BASE)
      .post('/chat/completions', (body: Sent) => sent.push(body) > 0)
      .reply(400, vllmError("response_format type 'json_schema' is not supported by this server"))
      .post('/chat/completions', (body: Sent) => sent.push(body) > 0)
      .reply(200, vllmCompletion(SMALL_ANSWER));
    // One attempt allowed: the switch does not use it up.
    const result = await createOpenAiProvider(options({ maxAttempts: 1 })).generate(request());
    expect(scope.isDone()).toBe(true);
    expect(sent.map((body) => body.response_format.type)).toEqual(['json_schema', 'json_object']);
    expect(result.widgets).toHaveLength(1);
    expect(result.usage?.total_tokens).toBe(1000);
  });

  it('does not fall back on a 400 about something else, and says what the server said', async () => {
    let calls = 0;
    nock(BASE)
      .post('/chat/completions')
      .times(2)
      .reply(() => {
        calls += 1;
        return [400, vllmError("This model's maximum context length is 8192 tokens.")];
      });
    const error = await createOpenAiProvider(options())
      .generate(request())
      .catch((err: unknown) => err);
    expect(calls).toBe(1);
    expect((error as ProviderError).message).toBe(
      "openai provider: HTTP 400: This model's maximum context length is 8192 tokens.",
    );
  });
});
