/**
 * The request and token limits of one provider endpoint, and its pauses, shared by every worker
 * process of a deployment through Redis (docs/decisions/0106-provider-rate-limits.md):
 * - requests per minute and tokens per minute are rate-limiter-flexible fixed windows
 *   (RateLimiterRedis). A request takes one request point and its estimated tokens before it
 *   goes; the tokens are corrected by the usage the endpoint reports (`penalty` / `reward`), and
 *   given back when the endpoint refused the request (429);
 * - a pause (the endpoint's 429 with `Retry-After`, or its `x-ratelimit-reset-*` once a
 *   `x-ratelimit-remaining-*` is 0) is one Redis key whose time to live is the pause: every
 *   process waits it out before its next request.
 * A request that must wait waits (it is not failed), up to the generation's budget of waiting.
 * Redis unreachable: each process keeps its own limits and pauses in memory (rate-limiter-
 * flexible's insurance limiter), so N processes may send up to N times the limit meanwhile.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Cluster, Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export interface ProviderLimits {
  /** Requests per window (0: no limit of ours). */
  requestsPerMinute: number;
  /** Tokens per window (0: no limit of ours). */
  tokensPerMinute: number;
  /** The window, in seconds: 60, a minute (tests shorten it). */
  windowSeconds?: number;
}

/** A request let through: what it took, to be corrected once its outcome is known. */
export interface Permit {
  /** The request was answered: its tokens become what the endpoint says it used (null: keep the estimate). */
  settle(usedTokens: number | null): Promise<void>;
  /** The endpoint refused the request (429): its request point and tokens are given back. */
  refund(): Promise<void>;
}

/** Thrown by `acquire` when the wait would pass the caller's deadline. */
export class RateLimitWaitExceeded extends Error {
  constructor(readonly waitMs: number) {
    super(`rate limited: the next request may go in ${Math.ceil(waitMs / 1000)} s, past the wait allowed`);
    this.name = 'RateLimitWaitExceeded';
  }
}

export interface ProviderLimiter {
  /**
   * Waits until a request of `tokens` (estimated) may go: no pause in force, a request point and
   * the tokens free in the current window. Throws RateLimitWaitExceeded when it would have to
   * wait past `deadline` (epoch ms), and an AbortError when `signal` aborts during a wait.
   */
  acquire(tokens: number, opts: { deadline: number; signal?: AbortSignal }): Promise<Permit>;
  /** Holds every process's requests for `ms` from now (a longer pause in force is kept). */
  pause(ms: number): Promise<void>;
}

/** Sets the pause key to expire in ARGV[1] ms, unless a longer pause is in force. */
const PAUSE_SCRIPT = `
local left = redis.call('PTTL', KEYS[1])
if left < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) end
return 1`;

function windowLimiter(
  redis: Redis | Cluster | undefined,
  keyPrefix: string,
  points: number,
  duration: number,
): RateLimiterRedis | RateLimiterMemory | null {
  if (points <= 0) return null;
  const insuranceLimiter = new RateLimiterMemory({ points, duration, keyPrefix });
  if (!redis) return insuranceLimiter;
  // A Redis that is not connected answers nothing (the workers' client queues commands until it
  // is back): the insurance limiter takes over at once instead.
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points,
    duration,
    insuranceLimiter,
    rejectIfRedisNotReady: true,
  });
}

/** The wait a refused consume asks for; a store error is not a refusal and is thrown. */
function refusal(err: unknown): number {
  if (err instanceof RateLimiterRes) return Math.max(1, err.msBeforeNext);
  throw err;
}

/**
 * The limiter of the endpoint named `endpoint` (base URL and model), its keys under `prefix`
 * (the deployment's Redis key prefix): every process with the same prefix and endpoint shares
 * it. Without `redis`, or with no limit set, it limits this process only (pauses included).
 */
export function createProviderLimiter(opts: {
  redis?: Redis | Cluster;
  prefix: string;
  endpoint: string;
  limits: ProviderLimits;
}): ProviderLimiter {
  const { redis, limits } = opts;
  const duration = limits.windowSeconds ?? 60;
  const base = `${opts.prefix}provider:${opts.endpoint}`;
  const requests = windowLimiter(redis, `${base}:rpm`, limits.requestsPerMinute, duration);
  const tokens = windowLimiter(redis, `${base}:tpm`, limits.tokensPerMinute, duration);
  const pauseKey = `${base}:pause`;
  // This process's own view of the pause: kept when Redis cannot be read.
  let pausedUntil = 0;

  async function pausedFor(): Promise<number> {
    const local = Math.max(0, pausedUntil - Date.now());
    if (!redis || redis.status !== 'ready') return local;
    try {
      return Math.max(local, await redis.pttl(pauseKey));
    } catch {
      return local;
    }
  }

  /** Tokens a request takes: at least 1, at most the window's budget (else it could never go). */
  const weight = (n: number): number => Math.max(1, Math.min(Math.ceil(n), limits.tokensPerMinute));

  return {
    async acquire(estimated, { deadline, signal }) {
      const taken = weight(estimated);
      const wait = async (ms: number): Promise<void> => {
        if (Date.now() + ms > deadline) throw new RateLimitWaitExceeded(ms);
        await delay(ms, undefined, { signal });
      };
      for (;;) {
        const paused = await pausedFor();
        if (paused > 0) {
          await wait(paused);
          continue;
        }
        if (requests) {
          try {
            await requests.consume('all', 1);
          } catch (err) {
            const ms = refusal(err);
            // A refused consume still counted: given back, so waiting is not counted as sending.
            await requests.reward('all', 1).catch(() => undefined);
            await wait(ms);
            continue;
          }
        }
        if (tokens) {
          try {
            await tokens.consume('all', taken);
          } catch (err) {
            const ms = refusal(err);
            await tokens.reward('all', taken).catch(() => undefined);
            await requests?.reward('all', 1).catch(() => undefined);
            await wait(ms);
            continue;
          }
        }
        let done = false;
        return {
          async settle(used) {
            if (done || !tokens || used === null) return;
            done = true;
            const diff = weight(used) - taken;
            if (diff > 0) await tokens.penalty('all', diff).catch(() => undefined);
            else if (diff < 0) await tokens.reward('all', -diff).catch(() => undefined);
          },
          async refund() {
            if (done) return;
            done = true;
            await requests?.reward('all', 1).catch(() => undefined);
            await tokens?.reward('all', taken).catch(() => undefined);
          },
        };
      }
    },
    async pause(ms) {
      const wait = Math.max(1, Math.ceil(ms));
      pausedUntil = Math.max(pausedUntil, Date.now() + wait);
      if (!redis || redis.status !== 'ready') return;
      await redis.eval(PAUSE_SCRIPT, 1, pauseKey, String(wait)).catch(() => undefined);
    },
  };
}

/**
 * The pause an answer's `x-ratelimit-*` headers ask for: the reset time of a limit whose
 * remaining count is 0 (`x-ratelimit-reset-requests: 1m30.5s`, `…-tokens: 20ms`), or null. On a
 * 429 without `Retry-After` any reset given counts.
 */
export function rateLimitResetMs(headers: Headers | undefined, refused: boolean): number | null {
  let longest: number | null = null;
  for (const kind of ['requests', 'tokens']) {
    const reset = parseDuration(headers?.get(`x-ratelimit-reset-${kind}`));
    if (reset === null) continue;
    const remaining = headers?.get(`x-ratelimit-remaining-${kind}`)?.trim();
    if (!refused && remaining !== '0') continue;
    longest = Math.max(longest ?? 0, reset);
  }
  return longest;
}

/** `6m0s`, `1.5s`, `20ms`, `1h2m`, or plain seconds (`2`, `0.5`), in ms; null otherwise. */
export function parseDuration(text: string | null | undefined): number | null {
  const value = text?.trim();
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const parts =
    /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?$/.exec(
      value,
    );
  if (!parts || parts.slice(1).every((p) => p === undefined)) return null;
  const [h, m, s, ms] = [
    Number(parts[1] ?? 0),
    Number(parts[2] ?? 0),
    Number(parts[3] ?? 0),
    Number(parts[4] ?? 0),
  ];
  return Math.round(((h * 60 + m) * 60 + s) * 1000 + ms);
}
