/**
 * A provider for any OpenAI-compatible chat-completions endpoint (OpenAI, Azure OpenAI, vLLM,
 * Ollama, LiteLLM), spoken through the official `openai` SDK. It asks for one JSON object in a
 * JSON schema derived from the design structure (Structured Outputs, `strict: true`; JSON mode
 * when the endpoint refuses schemas), checks the answer against that schema, and fits the texts
 * to the structure's limits.
 *
 * Retries are the provider's (retry.ts), not the SDK's (`maxRetries: 0`, so one `create()` is
 * one attempt): the SDK waits whatever `Retry-After` says up to 60 s and, past that, falls back
 * to its own backoff of at most 8 s, which would hammer an endpoint that asked for a longer
 * pause; neither can be capped. Here every wait is at most `maxBackoffMs` (30 s), and what is
 * thrown when the attempts stop is final (`retryable: false`). The API key goes into the
 * authentication header and nowhere else; the SDK logs nothing.
 */
import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AzureOpenAI,
} from 'openai';
import { isRecord } from '@catalogue/config';
import type { DesignStructure, FillWidgetInput } from '@catalogue/content';
import { keepBenefitStatements } from './benefits';
import { parameterPairs } from './builtin';
import { fitToStructure, isFillable, placeImages, withParagraphLength } from './fit';
import { addUsage, contextUrls, dropInventedUrls, Malformed, parseAnswer } from './openai-answer';
import { systemMessage, userMessage } from './openai-prompt';
import { answerSchema, type AnswerSchema } from './openai-schema';
import {
  createProviderLimiter,
  rateLimitResetMs,
  RateLimitWaitExceeded,
  type Permit,
  type ProviderLimiter,
} from './limiter';
import { retryableStatus, retryAfterMs, waitAfter, withRetries, type Attempt, type Failure } from './retry';
import { cutText } from './text';
import {
  ProviderError,
  type ContentProvider,
  type GenerationContext,
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
  /**
   * The endpoint's requests and tokens per minute and its pauses, shared by the deployment's
   * workers (limiter.ts). Without one, the provider still pauses for the endpoint's 429s, in
   * this process only.
   */
  limiter?: ProviderLimiter;
  /**
   * How long one generation may wait in all for the limiter (limits and pauses) before it fails
   * (default 10 minutes). Waiting for a rate limit uses up no attempt.
   */
  maxRateLimitWaitMs?: number;
}

/**
 * Tokens an answer is assumed to take before the endpoint says (usage): what the limiter counts
 * for a request until it is corrected. Prompts are estimated at 4 characters a token.
 */
const OUTPUT_TOKENS_ESTIMATE = 1_000;

/** The tokens a request is expected to take: its text at 4 characters a token, and an answer. */
export function estimateTokens(texts: readonly string[]): number {
  return Math.ceil(texts.reduce((sum, text) => sum + text.length, 0) / 4) + OUTPUT_TOKENS_ESTIMATE;
}

/**
 * A 429 that no wait will cure: OpenAI's `insufficient_quota` (the account's credit is used up)
 * fails the item at once instead of pausing every worker for the whole wait budget.
 */
function quotaExhausted(err: APIError): boolean {
  const body: unknown = err.error;
  const code = err.code ?? (isRecord(body) ? body.code : undefined);
  return code === 'insufficient_quota';
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

/**
 * What a failed connection says went wrong: undici's `cause.code` (ECONNRESET…), else the
 * thrown value's own `code` or `name`.
 */
function errorCode(err: unknown): string {
  const e = isRecord(err) ? err : {};
  for (const candidate of [isRecord(e.cause) ? e.cause.code : undefined, e.code, e.name])
    if (typeof candidate === 'string') return candidate;
  return 'unknown';
}

/** Error texts from the endpoint may echo credentials (the key, any bearer token): they never leave this module. */
function redactor(secret: string): (text: string) => string {
  return (text) => {
    let out = text;
    if (secret.length >= 4) out = out.split(secret).join('***');
    return out
      .replace(/\b(sk|key|api[-_]?key)[-_][A-Za-z0-9*_.-]{4,}/gi, '$1-***')
      .replace(/Bearer\s+\S+/gi, 'Bearer ***');
  };
}

/** The endpoint's own words for an HTTP error: `error.message`, a bare `error` or `message`. */
function shortReason(err: APIError, redact: (text: string) => string): string {
  const body: unknown = err.error;
  let reason = err.message.replace(/^\d{3}\s+/, '');
  if (isRecord(body) && typeof body.message === 'string') reason = body.message;
  else if (typeof body === 'string') reason = body;
  return cutText(redact(reason), 200);
}

/**
 * A request that threw (other than the caller's abort) as a failed attempt: timeouts, network
 * errors, 429/408/5xx (with the endpoint's Retry-After) and a body that is not JSON are retried;
 * other HTTP errors and anything else are not.
 */
function requestFailure(
  err: unknown,
  elapsedMs: number,
  timeoutMs: number,
  redact: (text: string) => string,
): Failure {
  // The SDK names its own abort a timeout only when the abort error is an Error of this
  // realm; under jest's VM context it is not, and the same abort reads as a connection error.
  const timedOut =
    err instanceof APIConnectionTimeoutError || (err instanceof APIConnectionError && elapsedMs >= timeoutMs);
  if (timedOut) return { ok: false, reason: `timed out after ${timeoutMs} ms`, retryable: true };
  if (err instanceof APIConnectionError) {
    return { ok: false, reason: `network error (${redact(errorCode(err.cause))})`, retryable: true };
  }
  if (err instanceof APIError && err.status !== undefined) {
    const status = err.status;
    const retryable = retryableStatus(status);
    const reason = `HTTP ${status}: ${shortReason(err, redact)}`;
    return {
      ok: false,
      reason,
      status,
      retryable,
      retryAfterMs: retryable ? retryAfterMs(err.headers) : null,
    };
  }
  if (err instanceof SyntaxError) {
    const reason = 'malformed answer: the response is not JSON';
    return { ok: false, reason, retryable: true, malformed: true };
  }
  const text = err instanceof Error ? err.message : String(err);
  return { ok: false, reason: `request failed (${cutText(redact(text), 200)})`, retryable: false };
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
  context: Pick<GenerationContext, 'images' | 'parameter' | 'lang'>,
): { usage: TokenUsage | null; outcome: Attempt<GenerationResult> } {
  const total = addUsage(usage, isRecord(data) ? data.usage : undefined);
  const malformed = (reason: string) => ({
    usage: total,
    outcome: { ok: false as const, reason: `malformed answer: ${reason}`, retryable: true, malformed: true },
  });
  const choice = isRecord(data) && Array.isArray(data.choices) ? data.choices[0] : undefined;
  const message = isRecord(choice) ? choice.message : undefined;
  const refusal = isRecord(message) ? message.refusal : undefined;
  if (typeof refusal === 'string' && refusal.trim() !== '') {
    return malformed(`the model refused (${cutText(refusal, 200)})`);
  }
  const content = isRecord(message) ? message.content : undefined;
  if (typeof content !== 'string') return malformed('no message content');
  let widgets: FillWidgetInput[];
  try {
    widgets = parseAnswer(content, schema);
  } catch (err) {
    if (!(err instanceof Malformed)) throw err;
    return malformed(err.message);
  }
  dropInventedUrls(structure, widgets, allowedUrls);
  // A benefit that only repeats a parameter's name or value is no benefit: checked as the
  // builtin provider's are (benefits.ts), the widget left out when none is left.
  const fitted = keepBenefitStatements(
    structure,
    fitToStructure(structure, widgets),
    parameterPairs(context.parameter),
    context.lang,
  ).widgets;
  if (fitted.length === 0) return malformed('no usable widget');
  const placed = placeImages(structure, fitted, context.images ?? []);
  const model = isRecord(data) && typeof data.model === 'string' ? data.model : requestedModel;
  return {
    usage: total,
    outcome: { ok: true, value: { widgets: placed, usage: total, provider: 'openai', model } },
  };
}

export function createOpenAiProvider(options: OpenAiProviderOptions): ContentProvider {
  const client = createClient(options);
  const retryPolicy = {
    maxAttempts: options.maxAttempts,
    backoffMs: options.backoffMs,
    maxBackoffMs: options.maxBackoffMs ?? 30_000,
  };
  const redact = redactor(options.apiKey);
  const limiter =
    options.limiter ??
    createProviderLimiter({ prefix: '', endpoint: '', limits: { requestsPerMinute: 0, tokensPerMinute: 0 } });
  const maxRateLimitWaitMs = options.maxRateLimitWaitMs ?? 600_000;

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
      const estimate = estimateTokens([...messages.map((m) => m.content), JSON.stringify(schema)]);
      let waitedMs = 0;
      let refusals = 0;

      /** A permit of the limiter, the wait counted against the generation's budget. */
      const permit = async (): Promise<Permit | Failure> => {
        const started = Date.now();
        try {
          return await limiter.acquire(estimate, {
            deadline: started + maxRateLimitWaitMs - waitedMs,
            signal,
          });
        } catch (err) {
          if (signal?.aborted) throw aborted();
          if (!(err instanceof RateLimitWaitExceeded)) throw err;
          const reason = `${err.message} (waited ${Math.round(waitedMs / 1000)} s already)`;
          return { ok: false, reason, status: 429, retryable: false };
        } finally {
          waitedMs += Date.now() - started;
        }
      };

      const attempt = async (format: AnswerFormat): Promise<Attempt<GenerationResult>> => {
        const taken = await permit();
        if ('ok' in taken) return taken;
        let completion: unknown;
        let headers: Headers | undefined;
        const started = performance.now();
        try {
          const { data, response } = await client.chat.completions
            .create(
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
            )
            .withResponse();
          completion = data;
          headers = response.headers;
        } catch (err) {
          if (signal?.aborted || err instanceof APIUserAbortError) {
            await taken.settle(null);
            throw aborted();
          }
          if (err instanceof APIError && err.status === 429 && !quotaExhausted(err)) {
            // Refused before any work: the request and its tokens are given back, and every
            // worker holds its requests for as long as the endpoint asked (else a backoff).
            await taken.refund();
            refusals += 1;
            const asked = retryAfterMs(err.headers) ?? rateLimitResetMs(err.headers, true);
            const pause =
              asked ?? waitAfter({ ok: false, reason: '', retryable: true }, refusals, retryPolicy);
            await limiter.pause(pause);
            return {
              ok: false,
              reason: `HTTP 429: ${shortReason(err, redact)}`,
              status: 429,
              retryable: true,
              rateLimited: true,
            };
          }
          await taken.settle(null);
          return requestFailure(err, performance.now() - started, options.timeoutMs, redact);
        }
        const reported =
          isRecord(completion) && isRecord(completion.usage) ? completion.usage.total_tokens : null;
        await taken.settle(typeof reported === 'number' && Number.isFinite(reported) ? reported : null);
        // The endpoint says a limit is used up: every worker waits for its reset before the next request.
        const reset = rateLimitResetMs(headers, false);
        if (reset !== null && reset > 0) await limiter.pause(reset);
        const answer = readCompletion(
          completion,
          usage,
          structure,
          schema,
          allowedUrls,
          options.model,
          req.context,
        );
        usage = answer.usage;
        return answer.outcome;
      };

      let format: AnswerFormat = 'json_schema';
      /** One attempt; an endpoint that refuses the JSON schema is asked again in JSON mode at once. */
      const attemptInFormat = async (): Promise<Attempt<GenerationResult>> => {
        const outcome = await attempt(format);
        if (
          format === 'json_schema' &&
          !outcome.ok &&
          outcome.status === 400 &&
          SCHEMA_REFUSED.test(outcome.reason)
        ) {
          // An endpoint without Structured Outputs (older vLLM or Ollama, some proxies): JSON mode
          // at once, the shape told by the system message; this does not use up an attempt.
          format = 'json_object';
          return attempt(format);
        }
        return outcome;
      };

      return withRetries(attemptInFormat, retryPolicy, {
        label: 'openai provider',
        fail: (message, status) => new ProviderError(message, false, status, usage),
        aborted,
        signal,
      });
    },
  };
}
