/**
 * A provider's own retries (openai.ts): which failures are retried, how long to wait between
 * attempts, and when to stop. Every wait is at most `maxBackoffMs` (30 s by default, which the
 * stale-work sweeper's deadline counts on), also when the endpoint's `Retry-After` asks for
 * more; a malformed answer is retried once and uses the same attempt budget as 429, 5xx, 408,
 * network errors and timeouts. What is thrown when the attempts stop is the caller's (final)
 * error, so BullMQ's job-level retries do not multiply the provider's own.
 *
 * A request the endpoint refused for its rate limits (429) is no failed attempt: the provider
 * has paused its requests (limiter.ts) and the next attempt waits that out, bounded by the
 * generation's budget of waiting, not by `maxAttempts`.
 */

import { setTimeout as delay } from 'node:timers/promises';

/** One attempt's outcome when it did not produce a result. */
export interface Failure {
  ok: false;
  reason: string;
  status?: number;
  retryable: boolean;
  /** The answer came but could not be used (retried once). */
  malformed?: boolean;
  /** The wait the endpoint asked for, when it did. */
  retryAfterMs?: number | null;
  /**
   * Refused for the endpoint's rate limits and already paused for (limiter.ts): tried again at
   * once (the next attempt waits for the pause), without using up an attempt.
   */
  rateLimited?: boolean;
}

/** One attempt's outcome: a result, or why not. */
export type Attempt<T> = { ok: true; value: T } | Failure;

/** HTTP statuses worth another attempt: rate limited, request timeout, the server's trouble. */
export function retryableStatus(status: number): boolean {
  return status === 429 || status === 408 || status >= 500;
}

/** A wait the endpoint asked for (`retry-after-ms`, `Retry-After` in seconds or as a date), or null. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | null {
  const ms = headers?.get('retry-after-ms')?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Math.round(Number(ms));
  const header = headers?.get('retry-after')?.trim();
  if (!header) return null;
  if (/^\d+(\.\d+)?$/.test(header)) return Math.round(Number(header) * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export interface RetryPolicy {
  /** Attempts in all, the first included (at least 1 is made). */
  maxAttempts: number;
  /** First backoff; doubled after every failed attempt. */
  backoffMs: number;
  /** Upper bound of one wait, also of a `Retry-After`. */
  maxBackoffMs: number;
  /** Jitter source (tests pass a fixed one). */
  random?: () => number;
}

/**
 * How long to wait after failed attempt `n` (1-based): the endpoint's Retry-After (capped),
 * else a backoff of `backoffMs · 2^(n-1)` (capped), jittered between its half and its whole.
 */
export function waitAfter(failure: Failure, n: number, policy: RetryPolicy): number {
  const backoff = Math.min(policy.backoffMs * 2 ** (n - 1), policy.maxBackoffMs);
  const random = policy.random ?? Math.random;
  return failure.retryAfterMs !== undefined && failure.retryAfterMs !== null
    ? Math.min(failure.retryAfterMs, policy.maxBackoffMs)
    : backoff / 2 + (random() * backoff) / 2;
}

export interface RetryHooks {
  /** Names the provider in the messages: `<label>: <reason>`, `<label> gave up after …`. */
  label: string;
  /** The (final) error thrown when the attempts stop, with the last failure's status. */
  fail(message: string, status: number | undefined): Error;
  /** The error thrown when `signal` aborts before an attempt or during a wait. */
  aborted(): Error;
  signal?: AbortSignal;
}

/**
 * Runs `attempt` until it gives a result, a failure is not retryable, a second answer is
 * malformed, or `maxAttempts` are used up, waiting `waitAfter` between attempts.
 */
export async function withRetries<T>(
  attempt: () => Promise<Attempt<T>>,
  policy: RetryPolicy,
  hooks: RetryHooks,
): Promise<T> {
  const maxAttempts = Math.max(1, Math.floor(policy.maxAttempts));
  const { label, signal } = hooks;
  let malformed = 0;
  let last: Failure = { ok: false, reason: 'no attempt made', retryable: false };
  for (let n = 1; n <= maxAttempts; n++) {
    if (signal?.aborted) throw hooks.aborted();
    const outcome = await attempt();
    if (outcome.ok) return outcome.value;
    last = outcome;
    if (!outcome.retryable) throw hooks.fail(`${label}: ${outcome.reason}`, outcome.status);
    if (outcome.rateLimited) {
      n -= 1;
      continue;
    }
    if (outcome.malformed && ++malformed >= 2)
      throw hooks.fail(`${label}: ${outcome.reason} (twice)`, undefined);
    if (n === maxAttempts) break;
    try {
      await delay(waitAfter(outcome, n, policy), undefined, { signal });
    } catch {
      throw hooks.aborted();
    }
  }
  throw hooks.fail(
    `${label} gave up after ${maxAttempts} attempt${maxAttempts === 1 ? '' : 's'}: ${last.reason}`,
    last.status,
  );
}
