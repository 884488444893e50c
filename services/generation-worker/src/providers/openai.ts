/**
 * A provider for any OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, Ollama, LiteLLM).
 * It asks for one JSON object shaped after the design structure, checks the shape, and fits the
 * texts to the structure's limits. Transient failures (429, 5xx, network errors, timeouts) are
 * retried with exponential backoff inside one job; a malformed answer is retried once. What is
 * thrown after that is final (`retryable: false`), so BullMQ's job-level retries do not multiply
 * the provider's own. The API key goes into the Authorization header and nowhere else.
 */
import type { DesignStructure, FillWidgetInput } from '@catalogue/content';
import { fitToStructure, isFillable, withParagraphLength } from './fit';
import { addUsage, contextUrls, dropInventedUrls, isObject, Malformed, parseAnswer } from './openai-answer';
import { systemMessage, userMessage } from './openai-prompt';
import { cutText } from './text';
import {
  ProviderError,
  type ContentProvider,
  type GenerationContext,
  type GenerationRequest,
  type GenerationResult,
  type TokenUsage,
} from './types';

export { parseAnswer } from './openai-answer';
export { systemMessage, userMessage } from './openai-prompt';

export interface OpenAiProviderOptions {
  /** E.g. `https://api.openai.com/v1`, `http://ollama:11434/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`; leave empty for endpoints without authentication. */
  apiKey: string;
  model: string;
  /** Time limit of one attempt (request and answer body). */
  timeoutMs: number;
  /** Attempts in all, the first included (≥ 1). */
  maxAttempts: number;
  /** First backoff; doubled after every failed attempt. */
  backoffMs: number;
  /** Upper bound of one wait, also of a 429's `Retry-After` (default 30 s). */
  maxBackoffMs?: number;
  /** Sampling temperature (default 0.3). */
  temperature?: number;
  /** Characters of each research extract sent to the model (default 4,000). */
  maxResearchChars?: number;
  /** Characters of each context text (descriptions, parameters, prompt) sent (default 8,000). */
  maxContextChars?: number;
  /** For tests; the global fetch by default. */
  fetch?: typeof fetch;
}

/** `Retry-After` as milliseconds (seconds or an HTTP date), or null. */
function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  if (/^\d+(\.\d+)?$/.test(header.trim())) return Math.round(Number(header) * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * What a failed fetch says went wrong: undici's `cause.code` (ECONNRESET…), else the thrown
 * value's own `code` or `name`. Node 24's fetch may reject with a value that is not an Error.
 */
function errorCode(err: unknown): string {
  const e = (typeof err === 'object' && err !== null ? err : {}) as {
    cause?: { code?: unknown };
    code?: unknown;
    name?: unknown;
  };
  for (const candidate of [e.cause?.code, e.code, e.name])
    if (typeof candidate === 'string') return candidate;
  return 'unknown';
}

/** One attempt's outcome when it did not produce widgets. */
interface Failure {
  reason: string;
  status?: number;
  retryable: boolean;
  malformed?: boolean;
  retryAfterMs?: number | null;
}

/** The chat-completions request: the design as the system message, the job's context as the user's. */
function requestBody(
  options: OpenAiProviderOptions,
  structure: DesignStructure,
  context: GenerationContext,
): string {
  return JSON.stringify({
    model: options.model,
    messages: [
      { role: 'system', content: systemMessage(structure, context.lang) },
      {
        role: 'user',
        content: userMessage(context, options.maxResearchChars, options.maxContextChars),
      },
    ],
    response_format: { type: 'json_object' },
    temperature: options.temperature ?? 0.3,
  });
}

/**
 * A 2xx answer read: the usage it reports added to `usage` (also when the rest is malformed),
 * and its widgets checked, stripped of URLs the context did not give and fitted to the structure.
 */
function readAnswer(
  text: string,
  usage: TokenUsage | null,
  structure: DesignStructure,
  allowedUrls: ReturnType<typeof contextUrls>,
  requestedModel: string,
): { usage: TokenUsage | null; outcome: GenerationResult | Failure } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return {
      usage,
      outcome: { reason: 'malformed answer: the response is not JSON', retryable: true, malformed: true },
    };
  }
  const total = addUsage(usage, isObject(data) ? data.usage : undefined);
  const malformed = (reason: string) => ({
    usage: total,
    outcome: { reason: `malformed answer: ${reason}`, retryable: true, malformed: true },
  });
  const choice = isObject(data) && Array.isArray(data.choices) ? data.choices[0] : undefined;
  const message = isObject(choice) ? choice.message : undefined;
  const content = isObject(message) ? message.content : undefined;
  if (typeof content !== 'string') return malformed('no message content');
  let widgets: FillWidgetInput[];
  try {
    widgets = parseAnswer(content);
  } catch (err) {
    if (!(err instanceof Malformed)) throw err;
    return malformed(err.message);
  }
  dropInventedUrls(structure, widgets, allowedUrls);
  const fitted = fitToStructure(structure, widgets);
  if (fitted.length === 0) return malformed('no usable widget');
  const model = isObject(data) && typeof data.model === 'string' ? data.model : requestedModel;
  return { usage: total, outcome: { widgets: fitted, usage: total, provider: 'openai', model } };
}

export function createOpenAiProvider(options: OpenAiProviderOptions): ContentProvider {
  const doFetch = options.fetch ?? fetch;
  const endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const maxAttempts = Math.max(1, Math.floor(options.maxAttempts));
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;
  const secret = options.apiKey;

  /** Error texts from the endpoint may echo credentials; they never leave this module. */
  const redact = (text: string): string => {
    let out = text;
    if (secret.length >= 4) out = out.split(secret).join('***');
    return out
      .replace(/\b(sk|key|api[-_]?key)[-_][A-Za-z0-9*_.-]{4,}/gi, '$1-***')
      .replace(/Bearer\s+\S+/gi, 'Bearer ***');
  };

  const shortReason = (body: string): string => {
    let reason = body;
    try {
      const data: unknown = JSON.parse(body);
      if (isObject(data)) {
        const error = data.error;
        if (isObject(error) && typeof error.message === 'string') reason = error.message;
        else if (typeof error === 'string') reason = error;
        else if (typeof data.message === 'string') reason = data.message;
      }
    } catch {
      // Not JSON: the text itself.
    }
    return cutText(redact(reason), 200);
  };

  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (secret !== '') headers.authorization = `Bearer ${secret}`;

  /** Step 1 of an attempt: an HTTP status that is not an answer, as a failure (null when 2xx). */
  const httpFailure = (res: Response, text: string): Failure | null => {
    if (res.status === 429) {
      return {
        reason: `HTTP 429: ${shortReason(text)}`,
        status: 429,
        retryable: true,
        retryAfterMs: retryAfterMs(res.headers.get('retry-after')),
      };
    }
    if (!res.ok) {
      const retryable = res.status >= 500 || res.status === 408;
      return { reason: `HTTP ${res.status}: ${shortReason(text)}`, status: res.status, retryable };
    }
    return null;
  };

  /** How long to wait after failed attempt `n`: the endpoint's Retry-After, else jittered backoff. */
  const waitAfter = (outcome: Failure, n: number): number => {
    const backoff = Math.min(options.backoffMs * 2 ** (n - 1), maxBackoffMs);
    return outcome.retryAfterMs !== undefined && outcome.retryAfterMs !== null
      ? Math.min(outcome.retryAfterMs, maxBackoffMs)
      : backoff / 2 + (Math.random() * backoff) / 2;
  };

  return {
    name: 'openai',
    async generate(req: GenerationRequest, signal?: AbortSignal): Promise<GenerationResult> {
      const structure = withParagraphLength(req.structure, req.context.paragraph_length);
      if (!structure.widget.some(isFillable)) {
        return { widgets: [], usage: null, provider: 'openai', model: options.model };
      }
      const body = requestBody(options, structure, req.context);
      const allowedUrls = contextUrls(req.context);
      let usage: TokenUsage | null = null;
      let malformed = 0;
      const aborted = (): ProviderError => new ProviderError('generation aborted', true, undefined, usage);

      const attempt = async (): Promise<GenerationResult | Failure> => {
        const controller = new AbortController();
        let timedOut = false;
        const timer = setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, options.timeoutMs);
        const onAbort = (): void => controller.abort();
        signal?.addEventListener('abort', onAbort, { once: true });
        try {
          const res = await doFetch(endpoint, { method: 'POST', headers, body, signal: controller.signal });
          const text = await res.text();
          const failure = httpFailure(res, text);
          if (failure) return failure;
          const answer = readAnswer(text, usage, structure, allowedUrls, options.model);
          usage = answer.usage;
          return answer.outcome;
        } catch (err) {
          if (signal?.aborted) throw aborted();
          if (timedOut) return { reason: `timed out after ${options.timeoutMs} ms`, retryable: true };
          return { reason: `network error (${redact(errorCode(err))})`, retryable: true };
        } finally {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        }
      };

      let last: Failure = { reason: 'no attempt made', retryable: false };
      for (let n = 1; n <= maxAttempts; n++) {
        if (signal?.aborted) throw aborted();
        const outcome = await attempt();
        if ('widgets' in outcome) return outcome;
        last = outcome;
        if (!outcome.retryable) {
          throw new ProviderError(`openai provider: ${outcome.reason}`, false, outcome.status, usage);
        }
        if (outcome.malformed && ++malformed >= 2) {
          throw new ProviderError(`openai provider: ${outcome.reason} (twice)`, false, undefined, usage);
        }
        if (n === maxAttempts) break;
        try {
          await sleep(waitAfter(outcome, n), signal);
        } catch {
          throw aborted();
        }
      }
      throw new ProviderError(
        `openai provider gave up after ${maxAttempts} attempt${maxAttempts === 1 ? '' : 's'}: ${last.reason}`,
        false,
        last.status,
        usage,
      );
    },
  };
}
