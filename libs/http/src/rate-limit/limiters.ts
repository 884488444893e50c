/**
 * The limiters `createRateLimits` (limits.ts) composes, one small factory each: the token
 * budgets, a per-address budget (anonymous requests, CORS preflights), the failed-authentication
 * budget, and the one-script admission of a token. They share one store: the Redis limiters,
 * the failing-open state and the metrics.
 */
import { RateLimiterRedis, RateLimiterRes, RLWrapperTimeouts } from 'rate-limiter-flexible';
import type { Config } from '@catalogue/config';
import type { RedisClient } from '@catalogue/queue';
import type { Logger } from '@catalogue/logger';
import type { RateLimitMetrics } from '../metrics';
import type { Admission, MaybeDecision, Policy, RateLimitDecision, TokenBucket } from './limits';

type Settings = Config['rateLimit'];

/** One budget: its policy name, the requests allowed and the window they are counted in. */
export interface Budget {
  policy: Policy;
  points: number;
  windowSeconds: number;
}

/** What every limiter uses: keys, the Redis limiters, decisions, and failing open. */
export interface LimiterStore {
  /** The Redis key prefix of a policy's counters. */
  keyPrefix(policy: Policy): string;
  /** Counts one request of `key` against `budget`; a Redis failure is a pass (undefined). */
  consume(budget: Budget, key: string): Promise<MaybeDecision>;
  /** Reads `key`'s count against `budget` without counting (a Redis failure is a pass). */
  read(budget: Budget, key: string, countAllowed: boolean): Promise<MaybeDecision>;
  /** Remembers whether the last Redis call failed (the metric and a log line when it changes). */
  setFailingOpen(value: boolean): void;
  failingOpen(): boolean;
  metrics: RateLimitMetrics;
  logger: Logger;
}

export function decisionOf(budget: Budget, res: RateLimiterRes, allowed: boolean): RateLimitDecision {
  return {
    policy: budget.policy,
    limit: budget.points,
    windowSeconds: budget.windowSeconds,
    remaining: Math.max(0, budget.points - res.consumedPoints),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
    allowed,
  };
}

export function createLimiterStore(
  redis: RedisClient,
  config: Config,
  metrics: RateLimitMetrics,
  logger: Logger,
): LimiterStore {
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
  // The state follows the connection too, not only the requests that use it: a lost connection
  // fails open at once (every request would), and a connection ready again counts again at once,
  // before any request has tried it (a pod that took no traffic meanwhile, or probes only).
  // A server that answers too slowly still fails open request by request (redisTimeoutMs).
  // (`reconnecting`, not `close`: a connection closed for good at shutdown is no outage.)
  redis.on('ready', () => setFailingOpen(false));
  redis.on('reconnecting', () => setFailingOpen(true));

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

  return {
    keyPrefix,
    consume: (budget, key) =>
      guarded(budget, async () => {
        try {
          return decisionOf(budget, await limiterOf(budget).consume(key), true);
        } catch (rejection) {
          // Over the budget rejects with a RateLimiterRes; anything else is a Redis failure.
          if (rejection instanceof RateLimiterRes) return decisionOf(budget, rejection, false);
          throw rejection;
        }
      }),
    read: (budget, key, countAllowed) =>
      guarded(
        budget,
        async () => {
          const res = (await limiterOf(budget).get(key)) ?? new RateLimiterRes(0, 0, 0);
          return decisionOf(budget, res, res.consumedPoints < budget.points);
        },
        countAllowed,
      ),
    setFailingOpen,
    failingOpen: () => failingOpen,
    metrics,
    logger,
  };
}

/** The per-token budgets (read, write, generate), with an eshop's override. */
export function tokenLimiter(store: LimiterStore, settings: Settings) {
  const budget = (bucket: TokenBucket, override: number | null): Budget => {
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
  return {
    budget,
    consume: (tokenHash: string, bucket: TokenBucket, override: number | null): Promise<MaybeDecision> =>
      store.consume(budget(bucket, override), tokenHash),
  };
}

/** A budget counted per client address (anonymous requests, CORS preflights). */
export function addressLimiter(store: LimiterStore, budget: Budget) {
  return (address: string): Promise<MaybeDecision> => store.consume(budget, address);
}

/** The failed-authentication budget of an address: failures count, every token request checks. */
export function authFailureLimiter(store: LimiterStore, settings: Settings) {
  const budget: Budget = {
    policy: 'auth-failure',
    points: settings.authFailures,
    windowSeconds: settings.authFailureWindowSeconds,
  };
  return {
    budget,
    record: (address: string): Promise<MaybeDecision> => store.consume(budget, address),
    // A read, not a count: every request with a token checks it (a blocked address must not
    // learn that a guessed token is valid), but only failures use the budget up.
    block: async (address: string): Promise<MaybeDecision> => {
      const decision = await store.read(budget, address, false);
      return decision && !decision.allowed ? decision : undefined;
    },
  };
}

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

/**
 * `authFailureBlock` then `consumeToken` in one Redis round trip, or undefined on a Redis
 * Cluster: a script's keys must share a hash slot there, and the limiter's keys carry no hash
 * tag (they spread over the masters), so a cluster keeps the two calls.
 */
export function admitScript(
  redis: RedisClient,
  store: LimiterStore,
  settings: Settings,
  authFailure: Budget,
): ((address: string, tokenHash: string, budget: Budget) => Promise<Admission>) | undefined {
  if ((redis as { isCluster?: boolean }).isCluster) return undefined;
  const admitClient = redis as AdmitClient;
  admitClient.defineCommand('ccsAdmitToken', { numberOfKeys: 2, lua: ADMIT_TOKEN_SCRIPT });
  const { metrics, logger } = store;

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
          `${store.keyPrefix(authFailure.policy)}:${address}`,
          `${store.keyPrefix(budget.policy)}:${tokenHash}`,
          String(authFailure.points),
          '1',
          String(budget.windowSeconds),
        )
        .then(resolve, reject)
        .finally(() => clearTimeout(timer));
    });
  };

  return async (address, tokenHash, budget) => {
    try {
      const [blocked, points, pttl] = await runAdmit(address, tokenHash, budget);
      store.setFailingOpen(false);
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
      store.setFailingOpen(true);
      for (const policy of [authFailure.policy, budget.policy]) {
        metrics.decisions.inc({ policy, decision: 'failed_open' });
        logger.debug({ err: (err as Error).message, policy }, 'rate limiter failed open');
      }
      return { blocked: undefined, counted: undefined };
    }
  };
}
