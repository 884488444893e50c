import type { Config } from '@catalogue/config';
import type { RedisClient } from '@catalogue/queue';
import type { Logger } from '@catalogue/logger';
import type { RateLimitMetrics } from '../metrics';
import {
  addressLimiter,
  admitScript,
  authFailureLimiter,
  createLimiterStore,
  tokenLimiter,
  type Budget,
} from './limiters';

/** The per-token budgets: cheap reads, bulk writes, generation starts. */
export type TokenBucket = 'read' | 'write' | 'generate';
/** Every budget, named as in the `RateLimit-Policy` header. */
export type Policy = TokenBucket | 'anonymous' | 'preflight' | 'auth-failure';

/** The outcome of counting one request against one budget. */
export interface RateLimitDecision {
  policy: Policy;
  /** Requests allowed per window. */
  limit: number;
  windowSeconds: number;
  /** Requests left in the current window. */
  remaining: number;
  /** Seconds until the window restarts. */
  resetSeconds: number;
  allowed: boolean;
}

/** What the limiter says when its Redis does not answer: nothing (the request passes). */
export type MaybeDecision = RateLimitDecision | undefined;

/** What `admitToken` found: the address's failed-authentication block, else the token's count. */
export interface Admission {
  /** Set when the address used up its failed-authentication budget (the token was not counted). */
  blocked: MaybeDecision;
  /** The token's count, unless blocked (or Redis did not answer). */
  counted: MaybeDecision;
}

export interface RateLimits {
  /** Counts a request of an authenticated token; `override` is the eshop's requests per minute. */
  consumeToken(tokenHash: string, bucket: TokenBucket, override: number | null): Promise<MaybeDecision>;
  /** Counts a request that carries no token, per client address. */
  consumeAnonymous(address: string): Promise<MaybeDecision>;
  /**
   * Counts a CORS preflight from an origin some eshop allows, per client address. A browser
   * preflights every new URL (each entity's paths are new), so a host's editor sends several a
   * product: they get the read budget, not the small anonymous one.
   */
  consumePreflight(address: string): Promise<MaybeDecision>;
  /** The address's failed-authentication budget when it is used up (then every token is refused). */
  authFailureBlock(address: string): Promise<MaybeDecision>;
  /** Counts a failed authentication of the address. */
  recordAuthFailure(address: string): Promise<MaybeDecision>;
  /**
   * `authFailureBlock` and, unless the address is blocked, `consumeToken`: what every request of
   * a known token pays. Decided mostly in the process, from a share of the token's budget
   * reserved in Redis together with the address's check in one script (admitScript, "A local
   * allowance of the token budgets" in docs/decisions): the same keys and metrics; the shared
   * budget is never exceeded, and `remaining` is this process's view.
   */
  admitToken(
    address: string,
    tokenHash: string,
    bucket: TokenBucket,
    override: number | null,
  ): Promise<Admission>;
  /** For the readiness detail: `failing_open` while the last Redis call of the limiter failed. */
  state(): 'ok' | 'failing_open' | 'disabled';
}

// Settled once: every request of a process without a limiter awaits one of these.
const PASSED: Promise<MaybeDecision> = Promise.resolve(undefined);
const ADMITTED: Promise<Admission> = Promise.resolve(
  Object.freeze({ blocked: undefined, counted: undefined }),
);
const pass = (): Promise<MaybeDecision> => PASSED;

/** Limits that let everything pass (RATE_LIMIT_ENABLED=0, and routers built by unit tests). */
export const NO_RATE_LIMITS: RateLimits = {
  consumeToken: pass,
  consumeAnonymous: pass,
  consumePreflight: pass,
  authFailureBlock: pass,
  recordAuthFailure: pass,
  admitToken: () => ADMITTED,
  state: () => 'disabled',
};

/**
 * Redis-backed rate limits (rate-limiter-flexible, fixed windows), shared by every replica
 * through the deployment's Redis. Redis trouble never refuses a request: a down connection is
 * refused at once (`rejectIfRedisNotReady`), a frozen one after `redisTimeoutMs`, and the
 * request passes unlimited ("fail open") while the metric and the readiness detail say so.
 * A rate limit protects the service; it must not take it down with Redis.
 *
 * Each budget is a limiter of its own (limiters.ts); this composes them over one store (the
 * Redis limiters, the failing-open state and the metrics they share).
 */
export function createRateLimits(
  redis: RedisClient,
  config: Config,
  metrics: RateLimitMetrics,
  logger: Logger,
): RateLimits {
  const settings = config.rateLimit;
  if (!settings.enabled) return NO_RATE_LIMITS;

  const store = createLimiterStore(redis, config, metrics, logger);
  const anonymous: Budget = { policy: 'anonymous', points: settings.anonymousPerMinute, windowSeconds: 60 };
  const preflight: Budget = { policy: 'preflight', points: settings.readPerMinute, windowSeconds: 60 };
  const tokens = tokenLimiter(store, settings);
  const authFailures = authFailureLimiter(store, settings);
  const admitInOneScript = admitScript(redis, store, settings, authFailures.budget);

  return {
    consumeToken: (tokenHash, bucket, override) => tokens.consume(tokenHash, bucket, override),
    consumeAnonymous: addressLimiter(store, anonymous),
    consumePreflight: addressLimiter(store, preflight),
    recordAuthFailure: (address) => {
      // The address may be blocked now: its next token request asks Redis again.
      admitInOneScript?.recheck(address);
      return authFailures.record(address);
    },
    authFailureBlock: authFailures.block,
    admitToken: async (address, tokenHash, bucket, override) => {
      if (admitInOneScript) return admitInOneScript(address, tokenHash, tokens.budget(bucket, override));
      const blocked = await authFailures.block(address);
      return {
        blocked,
        counted: blocked ? undefined : await tokens.consume(tokenHash, bucket, override),
      };
    },
    state: () => (store.failingOpen() ? 'failing_open' : 'ok'),
  };
}
