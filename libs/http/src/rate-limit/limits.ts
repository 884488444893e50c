import { RateLimiterRedis, RateLimiterRes, RLWrapperTimeouts } from 'rate-limiter-flexible';
import type { Config } from '@catalogue/config';
import type { RedisClient } from '@catalogue/queue';
import type { Logger } from '@catalogue/logger';
import type { RateLimitMetrics } from '../metrics';

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
   * `authFailureBlock` and, unless the address is blocked, `consumeToken`, in one Redis round
   * trip (one script): what every request of a known token pays. Same decisions, same keys,
   * same metrics as the two calls in sequence.
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

const pass = (): Promise<MaybeDecision> => Promise.resolve(undefined);

/** Limits that let everything pass (RATE_LIMIT_ENABLED=0, and routers built by unit tests). */
export const NO_RATE_LIMITS: RateLimits = {
  consumeToken: pass,
  consumeAnonymous: pass,
  consumePreflight: pass,
  authFailureBlock: pass,
  recordAuthFailure: pass,
  admitToken: () => Promise.resolve({ blocked: undefined, counted: undefined }),
  state: () => 'disabled',
};

/**
 * The failed-authentication check and the token's count as one script (KEYS: the address's
 * auth-failure key, the token's budget key; ARGV: failures allowed, points to count, the token
 * window in seconds). The read is `authFailureBlock`'s (blocked when the count reached the
 * budget; the count and its PTTL returned); the count is rate-limiter-flexible's own script for
 * `RateLimiterRedis.consume` (SET NX EX, INCRBY, PTTL, EXPIRE when the key had none), run only
 * when not blocked. Returns {1 blocked | 0, count, pttl}.
 */
const ADMIT_TOKEN_SCRIPT = `
local failures = tonumber(redis.call('get', KEYS[1]) or '0')
if failures >= tonumber(ARGV[1]) then
  return {1, failures, redis.call('pttl', KEYS[1])}
end
redis.call('set', KEYS[2], 0, 'EX', ARGV[3], 'NX')
local consumed = redis.call('incrby', KEYS[2], ARGV[2])
local ttl = redis.call('pttl', KEYS[2])
if ttl == -1 then
  redis.call('expire', KEYS[2], ARGV[3])
  ttl = 1000 * ARGV[3]
end
return {0, consumed, ttl}
`;

/** The client with the script defined (ioredis `defineCommand`: EVALSHA, EVAL when not loaded). */
type AdmitClient = RedisClient & {
  ccsAdmitToken(failureKey: string, tokenKey: string, ...args: string[]): Promise<[number, number, number]>;
};

interface Budget {
  policy: Policy;
  points: number;
  windowSeconds: number;
}

/**
 * Redis-backed rate limits (rate-limiter-flexible, fixed windows), shared by every replica
 * through the deployment's Redis. Redis trouble never refuses a request: a down connection is
 * refused at once (`rejectIfRedisNotReady`), a frozen one after `redisTimeoutMs`, and the
 * request passes unlimited ("fail open") while the metric and the readiness detail say so.
 * A rate limit protects the service; it must not take it down with Redis.
 */
export function createRateLimits(
  redis: RedisClient,
  config: Config,
  metrics: RateLimitMetrics,
  logger: Logger,
): RateLimits {
  const settings = config.rateLimit;
  const limiters = new Map<string, RLWrapperTimeouts>();
  // Without the queue prefix's hash tag: each of the limiter's commands touches one key, so on a
  // cluster its keys (the busiest of all) spread over every master.
  const keyPrefix = (policy: Policy): string =>
    `${config.redis.queuePrefix.replace(/[{}]/g, '')}:rl:${policy}`;
  let failingOpen = false;

  // One limiter per (policy, points): an eshop override changes the points, not the key, so
  // the count carries over when an operator changes the limit.
  const limiterOf = ({ policy, points, windowSeconds }: Budget): RLWrapperTimeouts => {
    const id = `${policy}:${points}:${windowSeconds}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      limiter = new RLWrapperTimeouts({
        limiter: new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: keyPrefix(policy),
          points,
          duration: windowSeconds,
          rejectIfRedisNotReady: true,
        }),
        timeoutMs: settings.redisTimeoutMs,
      });
      limiters.set(id, limiter);
    }
    return limiter;
  };

  const setFailingOpen = (value: boolean): void => {
    if (value !== failingOpen) {
      failingOpen = value;
      metrics.failingOpen.set(value ? 1 : 0);
      if (value) logger.warn('rate limiter cannot reach Redis: requests pass unlimited');
      else logger.info('rate limiter reaches Redis again');
    }
  };

  const decisionOf = (budget: Budget, res: RateLimiterRes, allowed: boolean): RateLimitDecision => ({
    policy: budget.policy,
    limit: budget.points,
    windowSeconds: budget.windowSeconds,
    remaining: Math.max(0, budget.points - res.consumedPoints),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
    allowed,
  });

  /** Runs a limiter call; a Redis failure is a pass (undefined), counted and remembered. */
  const guarded = async (
    budget: Budget,
    call: () => Promise<RateLimitDecision>,
    countAllowed = true,
  ): Promise<MaybeDecision> => {
    try {
      const decision = await call();
      setFailingOpen(false);
      if (countAllowed || !decision.allowed) {
        metrics.decisions.inc({ policy: budget.policy, decision: decision.allowed ? 'allowed' : 'limited' });
      }
      return decision;
    } catch (err) {
      setFailingOpen(true);
      metrics.decisions.inc({ policy: budget.policy, decision: 'failed_open' });
      logger.debug({ err: (err as Error).message, policy: budget.policy }, 'rate limiter failed open');
      return undefined;
    }
  };

  const consume = (budget: Budget, key: string): Promise<MaybeDecision> =>
    guarded(budget, async () => {
      try {
        return decisionOf(budget, await limiterOf(budget).consume(key), true);
      } catch (rejection) {
        // Over the budget rejects with a RateLimiterRes; anything else is a Redis failure.
        if (rejection instanceof RateLimiterRes) return decisionOf(budget, rejection, false);
        throw rejection;
      }
    });

  const tokenBudget = (bucket: TokenBucket, override: number | null): Budget => {
    const defaults = {
      read: settings.readPerMinute,
      write: settings.writePerMinute,
      generate: settings.generatePerMinute,
    };
    // The override replaces the read budget; writes and generation starts keep their ratio.
    const points =
      override === null
        ? defaults[bucket]
        : Math.max(1, Math.round((override * defaults[bucket]) / settings.readPerMinute));
    return { policy: bucket, points, windowSeconds: 60 };
  };
  const anonymous: Budget = { policy: 'anonymous', points: settings.anonymousPerMinute, windowSeconds: 60 };
  const preflight: Budget = { policy: 'preflight', points: settings.readPerMinute, windowSeconds: 60 };
  const authFailure: Budget = {
    policy: 'auth-failure',
    points: settings.authFailures,
    windowSeconds: settings.authFailureWindowSeconds,
  };

  if (!settings.enabled) return NO_RATE_LIMITS;

  // A script's keys must share a hash slot on a Redis Cluster, and the limiter's keys carry no
  // hash tag there (they spread over the masters): a cluster keeps the two calls.
  const oneScript = !(redis as { isCluster?: boolean }).isCluster;
  const admitClient = redis as AdmitClient;
  if (oneScript) admitClient.defineCommand('ccsAdmitToken', { numberOfKeys: 2, lua: ADMIT_TOKEN_SCRIPT });

  /** The script, refused at once when Redis is not connected and after `redisTimeoutMs` (as RLWrapperTimeouts). */
  const runAdmit = (
    address: string,
    tokenHash: string,
    budget: Budget,
  ): Promise<[number, number, number]> => {
    if (redis.status !== 'ready') return Promise.reject(new Error('Redis connection is not ready'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('Operation timed out')), settings.redisTimeoutMs);
      admitClient
        .ccsAdmitToken(
          `${keyPrefix(authFailure.policy)}:${address}`,
          `${keyPrefix(budget.policy)}:${tokenHash}`,
          String(authFailure.points),
          '1',
          String(budget.windowSeconds),
        )
        .then(resolve, reject)
        .finally(() => clearTimeout(timer));
    });
  };

  const admitInOneScript = async (address: string, tokenHash: string, budget: Budget): Promise<Admission> => {
    try {
      const [blocked, points, pttl] = await runAdmit(address, tokenHash, budget);
      setFailingOpen(false);
      if (blocked) {
        // authFailureBlock's decision and metric (a block is counted, an allowed read is not).
        metrics.decisions.inc({ policy: authFailure.policy, decision: 'limited' });
        return {
          blocked: decisionOf(authFailure, new RateLimiterRes(0, pttl, points), false),
          counted: undefined,
        };
      }
      const allowed = points <= budget.points; // rate-limiter-flexible rejects above the points
      metrics.decisions.inc({ policy: budget.policy, decision: allowed ? 'allowed' : 'limited' });
      return {
        blocked: undefined,
        counted: decisionOf(budget, new RateLimiterRes(0, pttl, points), allowed),
      };
    } catch (err) {
      // Both calls would have failed open: both are counted so.
      setFailingOpen(true);
      for (const policy of [authFailure.policy, budget.policy]) {
        metrics.decisions.inc({ policy, decision: 'failed_open' });
        logger.debug({ err: (err as Error).message, policy }, 'rate limiter failed open');
      }
      return { blocked: undefined, counted: undefined };
    }
  };

  const limits: RateLimits = {
    consumeToken: (tokenHash, bucket, override) => consume(tokenBudget(bucket, override), tokenHash),
    consumeAnonymous: (address) => consume(anonymous, address),
    consumePreflight: (address) => consume(preflight, address),
    recordAuthFailure: (address) => consume(authFailure, address),
    // A read, not a count: every request with a token checks it (a blocked address must not
    // learn that a guessed token is valid), but only failures use the budget up.
    authFailureBlock: async (address) => {
      const decision = await guarded(
        authFailure,
        async () => {
          const res = (await limiterOf(authFailure).get(address)) ?? new RateLimiterRes(0, 0, 0);
          return decisionOf(authFailure, res, res.consumedPoints < authFailure.points);
        },
        false,
      );
      return decision && !decision.allowed ? decision : undefined;
    },
    admitToken: async (address, tokenHash, bucket, override) => {
      if (oneScript) return admitInOneScript(address, tokenHash, tokenBudget(bucket, override));
      const blocked = await limits.authFailureBlock(address);
      return {
        blocked,
        counted: blocked ? undefined : await limits.consumeToken(tokenHash, bucket, override),
      };
    },
    state: () => (failingOpen ? 'failing_open' : 'ok'),
  };
  return limits;
}
