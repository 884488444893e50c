/**
 * A provider for any OpenAI-compatible chat-completions endpoint (OpenAI, Azure OpenAI, vLLM,
 * Ollama, LiteLLM), spoken through the official `openai` SDK. It asks for one JSON object in a
 * JSON schema derived from the design structure (Structured Outputs, `strict: true`; JSON mode
 * when the endpoint refuses schemas), checks the answer against that schema, and fits the texts
 * to the structure's limits.
 *
 * Retries are this module's, not the SDK's (`maxRetries: 0`, so one `create()` is one attempt):
 * the SDK waits whatever `Retry-After` says up to 60 s and, past that, falls back to its own
 * backoff of at most 8 s, which would hammer an endpoint that asked for a longer pause; neither
 * can be capped. Here every wait is at most `maxBackoffMs` (30 s, which the stale-work sweeper's
 * deadline counts on), and a malformed answer (retried once) uses the same attempt budget as
 * 429, 5xx, 408, network errors and timeouts. What is thrown after that is final
 * (`retryable: false`), so BullMQ's job-level retries do not multiply the provider's own. The API
 * key goes into the authentication header and nowhere else; the SDK logs nothing.
 */
import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AzureOpenAI,
} from 'openai';
import type { DesignStructure, FillWidgetInput } from '@catalogue/content';
import { fitToStructure, isFillable, placeImages, withParagraphLength } from './fit';
import { addUsage, contextUrls, dropInventedUrls, isObject, Malformed, parseAnswer } from './openai-answer';
import { systemMessage, userMessage } from './openai-prompt';
import { answerSchema, type AnswerSchema } from './openai-schema';
import { cutText } from './text';
import {
  ProviderError,
  type ContentProvider,
  type GenerationRequest,
  type GenerationResult,
  type TokenUsage,
} from './types';

export interface OpenAiProviderOptions {
  /**
   * E.g. `https://api.openai.com/v1`, `http://ollama:11434/v1`, `http://vllm:8000/v1`;
   * `/chat/completions` is appended. With `apiVersion`: `https://<resource>.openai.azure.com/openai`.
   */
  baseUrl: string;
  /**
   * Sent as `Authorization: Bearer …` (Azure: `api-key: …`); empty sends no authentication
   * header (a keyless Ollama or vLLM).
   */
  apiKey: string;
  /** The model; on Azure OpenAI (`apiVersion` set) the deployment name. */
  model: string;
  /**
   * Azure OpenAI's `api-version` (e.g. `2024-10-21`). When set, requests go to
   * `…/deployments/<model>/chat/completions?api-version=…` with the key in an `api-key` header.
   */
  apiVersion?: string;
  /** Time limit of one attempt (request and answer body). */
  timeoutMs: number;
  /** Attempts in all, the first included (≥ 1). */
  maxAttempts: number;
  /** First backoff; doubled after every failed attempt. */
  backoffMs: number;
  /** Upper bound of one wait, also of a `Retry-After` (default 30 s). */
  maxBackoffMs?: number;
  /** Sampling temperature (default 0.3). */
  temperature?: number;
  /** Characters of each research extract sent to the model (default 4,000). */
  maxResearchChars?: number;
  /** Characters of each context text (descriptions, parameters, prompt) sent (default 8,000). */
  maxContextChars?: number;
}

/** The `response_format` name of the answer schema (a-z, 0-9, `_`, at most 64 characters). */
const SCHEMA_NAME = 'design_content';

/** A 400 that says the endpoint cannot take a JSON schema as `response_format`. */
const SCHEMA_REFUSED = /response_format|json_schema|schema|structured|guided/i;

type AnswerFormat = 'json_schema' | 'json_object';

/** The SDK client for the dialect the options describe; it retries nothing and logs nothing. */
function createClient(options: OpenAiProviderOptions): OpenAI {
  const common = {
    timeout: options.timeoutMs,
    maxRetries: 0,
    logLevel: 'off' as const,
    // Only what the configuration says: not the SDK's OPENAI_ORG_ID / OPENAI_PROJECT_ID.
    organization: null,
    project: null,
  };
  if (options.apiVersion) {
    return new AzureOpenAI({
      ...common,
      baseURL: options.baseUrl,
      apiKey: options.apiKey,
      apiVersion: options.apiVersion,
      deployment: options.model,
    });
  }
  if (options.apiKey === '') {
    // The SDK wants a key; the placeholder is never sent, the header is removed.
    return new OpenAI({
      ...common,
      baseURL: options.baseUrl,
      apiKey: 'none',
      defaultHeaders: { Authorization: null },
    });
  }
  return new OpenAI({ ...common, baseURL: options.baseUrl, apiKey: options.apiKey });
}

/** A wait the endpoint asked for (`retry-after-ms`, `Retry-After` in seconds or as a date), or null. */
function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | null {
  const ms = headers?.get('retry-after-ms')?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Math.round(Number(ms));
  const header = headers?.get('retry-after')?.trim();
  if (!header) return null;
  if (/^\d+(\.\d+)?$/.test(header)) return Math.round(Number(header) * 1000);
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
 * What a failed connection says went wrong: undici's `cause.code` (ECONNRESET…), else the
 * thrown value's own `code` or `name`.
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

/**
 * A 2xx answer read: the usage it reports added to `usage` (also when the rest is malformed),
 * its widgets checked against the schema, stripped of URLs the context did not give, fitted
 * to the structure, and given the catalogue item's images in their image slots.
 */
function readCompletion(
  data: unknown,
  usage: TokenUsage | null,
  structure: DesignStructure,
  schema: AnswerSchema,
  allowedUrls: Set<string>,
  requestedModel: string,
  images: readonly string[],
): { usage: TokenUsage | null; outcome: GenerationResult | Failure } {
  const total = addUsage(usage, isObject(data) ? data.usage : undefined);
  const malformed = (reason: string) => ({
    usage: total,
    outcome: { reason: `malformed answer: ${reason}`, retryable: true, malformed: true },
  });
  const choice = isObject(data) && Array.isArray(data.choices) ? data.choices[0] : undefined;
  const message = isObject(choice) ? choice.message : undefined;
  const refusal = isObject(message) ? message.refusal : undefined;
  if (typeof refusal === 'string' && refusal.trim() !== '') {
    return malformed(`the model refused (${cutText(refusal, 200)})`);
  }
  const content = isObject(message) ? message.content : undefined;
  if (typeof content !== 'string') return malformed('no message content');
  let widgets: FillWidgetInput[];
  try {
    widgets = parseAnswer(content, schema);
  } catch (err) {
    if (!(err instanceof Malformed)) throw err;
    return malformed(err.message);
  }
  dropInventedUrls(structure, widgets, allowedUrls);
  const fitted = fitToStructure(structure, widgets);
  if (fitted.length === 0) return malformed('no usable widget');
  const placed = placeImages(structure, fitted, images);
  const model = isObject(data) && typeof data.model === 'string' ? data.model : requestedModel;
  return { usage: total, outcome: { widgets: placed, usage: total, provider: 'openai', model } };
}

export function createOpenAiProvider(options: OpenAiProviderOptions): ContentProvider {
  const client = createClient(options);
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

  /** The endpoint's own words for an HTTP error: `error.message`, a bare `error` or `message`. */
  const shortReason = (err: APIError): string => {
    const body: unknown = err.error;
    let reason = err.message.replace(/^\d{3}\s+/, '');
    if (isObject(body) && typeof body.message === 'string') reason = body.message;
    else if (typeof body === 'string') reason = body;
    return cutText(redact(reason), 200);
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
      const schema = answerSchema(structure);
      const messages = [
        { role: 'system' as const, content: systemMessage(structure, req.context.lang) },
        {
          role: 'user' as const,
          content: userMessage(req.context, options.maxResearchChars, options.maxContextChars),
        },
      ];
      const allowedUrls = contextUrls(req.context);
      let usage: TokenUsage | null = null;
      const aborted = (): ProviderError => new ProviderError('generation aborted', true, undefined, usage);

      /** A thrown request as a failure; the caller's abort is thrown on. */
      const failureOf = (err: unknown, elapsedMs: number): Failure => {
        if (signal?.aborted || err instanceof APIUserAbortError) throw aborted();
        // The SDK names its own abort a timeout only when the abort error is an Error of this
        // realm; under jest's VM context it is not, and the same abort reads as a connection error.
        const timedOut =
          err instanceof APIConnectionTimeoutError ||
          (err instanceof APIConnectionError && elapsedMs >= options.timeoutMs);
        if (timedOut) return { reason: `timed out after ${options.timeoutMs} ms`, retryable: true };
        if (err instanceof APIConnectionError) {
          return { reason: `network error (${redact(errorCode(err.cause))})`, retryable: true };
        }
        if (err instanceof APIError && err.status !== undefined) {
          const status = err.status;
          const retryable = status === 429 || status === 408 || status >= 500;
          const reason = `HTTP ${status}: ${shortReason(err)}`;
          return { reason, status, retryable, retryAfterMs: retryable ? retryAfterMs(err.headers) : null };
        }
        if (err instanceof SyntaxError) {
          return { reason: 'malformed answer: the response is not JSON', retryable: true, malformed: true };
        }
        const text = err instanceof Error ? err.message : String(err);
        return { reason: `request failed (${cutText(redact(text), 200)})`, retryable: false };
      };

      const attempt = async (format: AnswerFormat): Promise<GenerationResult | Failure> => {
        let completion: unknown;
        const started = performance.now();
        try {
          completion = await client.chat.completions.create(
            {
              model: options.model,
              messages,
              response_format:
                format === 'json_schema'
                  ? { type: 'json_schema', json_schema: { name: SCHEMA_NAME, strict: true, schema } }
                  : { type: 'json_object' },
              temperature: options.temperature ?? 0.3,
            },
            { signal },
          );
        } catch (err) {
          return failureOf(err, performance.now() - started);
        }
        const answer = readCompletion(
          completion,
          usage,
          structure,
          schema,
          allowedUrls,
          options.model,
          req.context.images ?? [],
        );
        usage = answer.usage;
        return answer.outcome;
      };

      let format: AnswerFormat = 'json_schema';
      let malformed = 0;
      let last: Failure = { reason: 'no attempt made', retryable: false };
      for (let n = 1; n <= maxAttempts; n++) {
        if (signal?.aborted) throw aborted();
        let outcome = await attempt(format);
        if (
          format === 'json_schema' &&
          'status' in outcome &&
          outcome.status === 400 &&
          SCHEMA_REFUSED.test(outcome.reason)
        ) {
          // An endpoint without Structured Outputs (older vLLM or Ollama, some proxies): JSON mode
          // at once, the shape told by the system message; this does not use up an attempt.
          format = 'json_object';
          outcome = await attempt(format);
        }
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
