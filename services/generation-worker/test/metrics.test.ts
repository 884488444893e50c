import { Registry } from 'prom-client';
import { SEED_DESIGNS, SEED_WIDGETS, designStructure } from '@catalogue/content';
import {
  createProviderMetrics,
  instrumentProvider,
  providerErrorKind,
  type ProviderMetrics,
} from '../src/metrics';
import { createBuiltinProvider, ProviderError, type ContentProvider } from '../src/providers';

const TEMPLATES = SEED_WIDGETS.map((w, index) => ({ ...w, id: index + 1 }));
const REQUEST = {
  structure: designStructure(SEED_DESIGNS[0]!, { widgets: TEMPLATES }),
  context: {
    lang: 'default',
    languages: ['default'],
    name: 'Boot',
    short_description: 'Warm.',
    research: [],
  },
};

const failing = (err: unknown): ContentProvider => ({
  name: 'openai',
  generate: () => Promise.reject(err),
});

describe('providerErrorKind', () => {
  const gaveUp = (reason: string, status?: number) =>
    new ProviderError(`openai provider gave up after 4 attempts: ${reason}`, false, status);

  it.each<[string, string, unknown]>([
    ['HTTP 429', 'rate_limited', gaveUp('HTTP 429: slow down', 429)],
    ['HTTP 503', 'server', gaveUp('HTTP 503: busy', 503)],
    ['HTTP 401', 'client', new ProviderError('openai provider: HTTP 401: bad key', false, 401)],
    ['HTTP 408', 'timeout', gaveUp('HTTP 408: late', 408)],
    ['a timed-out attempt', 'timeout', gaveUp('timed out after 60000 ms')],
    [
      'a malformed answer',
      'malformed',
      new ProviderError('openai provider: malformed answer: x (twice)', false),
    ],
    ['a network error', 'network', gaveUp('network error (ECONNREFUSED)')],
    ['an abort', 'aborted', new ProviderError('generation aborted', true)],
    ['not a ProviderError', 'other', new Error('a bug')],
  ])('when the failure is %s, then the kind is %s', (_name, kind, err) => {
    expect(providerErrorKind(err)).toBe(kind);
  });
});

describe('instrumentProvider', () => {
  let registry: Registry;
  let metrics: ProviderMetrics;

  beforeEach(() => {
    registry = new Registry();
    metrics = createProviderMetrics(registry);
  });

  it('times successful calls by provider and outcome and passes the result through', async () => {
    const provider = instrumentProvider(createBuiltinProvider(), metrics);

    const result = await provider.generate(REQUEST);

    expect(provider.name).toBe('builtin');
    expect(result.widgets.length).toBeGreaterThan(0);
    const text = await registry.metrics();
    expect(text).toMatch(
      /generation_provider_request_duration_seconds_count\{provider="builtin",outcome="success"\} 1/,
    );
  });

  it('counts failures by kind and rethrows them unchanged', async () => {
    const error = new ProviderError(
      'openai provider gave up after 4 attempts: HTTP 502: bad gateway',
      false,
      502,
    );
    const provider = instrumentProvider(failing(error), metrics);

    await expect(provider.generate(REQUEST)).rejects.toBe(error);

    const text = await registry.metrics();
    expect(text).toMatch(/generation_provider_errors_total\{provider="openai",kind="server"\} 1/);
    expect(text).toMatch(
      /generation_provider_request_duration_seconds_count\{provider="openai",outcome="error"\} 1/,
    );
  });
});
