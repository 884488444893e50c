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
import { messageOf } from '../objects';
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
      logger.debug({ err: messageOf(err), policy: budget.policy }, 'rate limiter failed open');
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
 * The failed-authentication check and a reservation of the token's budget as one script (KEYS:
 * the address's auth-failure key, the token's budget key; ARGV: failures allowed, the budget's
 * points, the points wanted, the token window in seconds). The read is `authFailureBlock`'s
 * (blocked when the count reached the budget; the count and its PTTL returned). Unless blocked,
 * it counts up to `wanted` of what is left of the budget at once, with rate-limiter-flexible's
 * own statements for `RateLimiterRedis.consume` (SET NX EX, INCRBY, PTTL, EXPIRE when the key had
 * none); with nothing left it counts one, as the library counts a refused request. `wanted` 0:
 * the failure check alone, nothing counted. Returns {1 blocked | 0, count, pttl, granted}.
 */
const ADMIT_TOKEN_SCRIPT = `
local failures = tonumber(redis.call('get', KEYS[1]) or '0')
if failures >= tonumber(ARGV[1]) then
  return {1, failures, redis.call('pttl', KEYS[1]), 0}
end
local wanted = tonumber(ARGV[3])
if wanted == 0 then
  return {0, 0, 0, 0}
end
redis.call('set', KEYS[2], 0, 'EX', ARGV[4], 'NX')
local left = tonumber(ARGV[2]) - tonumber(redis.call('get', KEYS[2]))
local granted = math.max(0, math.min(wanted, left))
local consumed = redis.call('incrby', KEYS[2], math.max(granted, 1))
local ttl = redis.call('pttl', KEYS[2])
if ttl == -1 then
  redis.call('expire', KEYS[2], ARGV[4])
  ttl = 1000 * ARGV[4]
end
return {0, consumed, ttl, granted}
`;

/** The client with the script defined (ioredis `defineCommand`: EVALSHA, EVAL when not loaded). */
type AdmitClient = RedisClient & {
  ccsAdmitToken(
    failureKey: string,
    tokenKey: string,
    ...args: string[]
  ): Promise<[number, number, number, number]>;
};

/**
 * The share of a token's budget one process reserves in Redis at a time (at least 1 point) and
 * then hands out without asking Redis (docs/decisions: "A local allowance of the token budgets").
 */
export const LOCAL_SHARE = 0.01;
/**
 * How long an address found not blocked by failed authentications stays so without asking
 * Redis again: failures recorded by other processes block it here this much later at most.
 */
export const BLOCK_CHECK_MS = 1_000;
/** Tokens and addresses whose local state a process keeps at most (the oldest go first). */
const MAX_LOCAL_ENTRIES = 10_000;

/** A token's reservation in this process: what is left of it, the count it left in Redis, until when. */
interface Allowance {
  left: number;
  /** The budget's count in Redis after this process's last reservation. */
  counted: number;
  /** When the window of the reservation ends (local clock, taken before the script ran). */
  endsAt: number;
  /** The reservation under way, which requests finding nothing left wait for. */
  pending: Promise<void> | undefined;
}

/** Set of a Map, the oldest inserted going first past the bound. */
function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  if (map.size >= MAX_LOCAL_ENTRIES && !map.has(key)) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.set(key, value);
}

export interface TokenAdmission {
  (address: string, tokenHash: string, budget: Budget): Promise<Admission>;
  /** Forgets that `address` was found not blocked (a failed authentication was just recorded). */
  recheck(address: string): void;
}

/**
 * `authFailureBlock` then `consumeToken`, decided mostly in this process: the first request of a
 * token reserves a share of its budget in Redis (`LOCAL_SHARE`, with the address's failure check,
 * in one script) and the next ones use it up here; the address's check is asked again at most
 * every `BLOCK_CHECK_MS`; a budget found used up is refused here until its window ends. Every
 * admitted request was counted in Redis before it was admitted, so the shared budget is never
 * exceeded; what other processes hold reserved and unused (at most a share each) is refused
 * early. Undefined on a Redis Cluster: a script's keys must share a hash slot there, and the
 * limiter's keys carry no hash tag (they spread over the masters), so a cluster keeps the two
 * calls.
 */
export function admitScript(
  redis: RedisClient,
  store: LimiterStore,
  settings: Settings,
  authFailure: Budget,
): TokenAdmission | undefined {
  if (redis.isCluster) return undefined;
  const admitClient = redis as AdmitClient;
  admitClient.defineCommand('ccsAdmitToken', { numberOfKeys: 2, lua: ADMIT_TOKEN_SCRIPT });
  const { metrics, logger } = store;
  const allowances = new Map<string, Allowance>();
  /** Address → until when it counts as not blocked; blocked ones → their refusal, until it ends. */
  const clearUntil = new Map<string, number>();
  const blockedUntil = new Map<string, { decision: RateLimitDecision; endsAt: number }>();
  const counters = new Map<string, { inc(): void }>();
  const count = (policy: Policy, decision: 'allowed' | 'limited' | 'failed_open'): void => {
    const key = `${policy}:${decision}`;
    let counter = counters.get(key);
    if (!counter) counters.set(key, (counter = metrics.decisions.labels(policy, decision)));
    counter.inc();
  };

  /** The script, refused at once when Redis is not connected and after `redisTimeoutMs` (as RLWrapperTimeouts). */
  const runAdmit = (
    address: string,
    tokenHash: string,
    budget: Budget,
    wanted: number,
  ): Promise<[number, number, number, number]> => {
    if (redis.status !== 'ready') return Promise.reject(new Error('Redis connection is not ready'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('Operation timed out')), settings.redisTimeoutMs);
      admitClient
        .ccsAdmitToken(
          `${store.keyPrefix(authFailure.policy)}:${address}`,
          `${store.keyPrefix(budget.policy)}:${tokenHash}`,
          String(authFailure.points),
          String(budget.points),
          String(wanted),
          String(budget.windowSeconds),
        )
        .then(resolve, reject)
        .finally(() => clearTimeout(timer));
    });
  };

  /** Both checks would have failed open: both are counted so. */
  const failOpen = (err: unknown, budget: Budget): Admission => {
    store.setFailingOpen(true);
    for (const policy of [authFailure.policy, budget.policy]) {
      count(policy, 'failed_open');
      logger.debug({ err: messageOf(err), policy }, 'rate limiter failed open');
    }
    return { blocked: undefined, counted: undefined };
  };

  /**
   * Asks Redis: the address's failures and, when `reserve`, a new share of the token's budget.
   * Resolves with the address's refusal when it is blocked; a Redis failure rejects.
   */
  const synchronise = async (
    address: string,
    tokenHash: string,
    budget: Budget,
    key: string,
    reserve: boolean,
  ): Promise<RateLimitDecision | undefined> => {
    const sentAt = Date.now();
    const wanted = reserve ? Math.max(1, Math.floor(budget.points * LOCAL_SHARE)) : 0;
    const [blocked, points, pttl, granted] = await runAdmit(address, tokenHash, budget, wanted);
    store.setFailingOpen(false);
    if (blocked) {
      clearUntil.delete(address);
      const decision = decisionOf(authFailure, new RateLimiterRes(0, pttl, points), false);
      remember(blockedUntil, address, { decision, endsAt: sentAt + Math.max(0, pttl) });
      return decision;
    }
    blockedUntil.delete(address);
    remember(clearUntil, address, sentAt + BLOCK_CHECK_MS);
    if (reserve) {
      const allowance = allowances.get(key);
      const left = granted + (allowance && allowance.endsAt > sentAt ? allowance.left : 0);
      const next = { left, counted: points, endsAt: sentAt + pttl };
      // A share still running in this window keeps what it had left: both were counted.
      if (allowance) Object.assign(allowance, next);
      else remember(allowances, key, { ...next, pending: undefined });
    }
    return undefined;
  };

  const admit = async (address: string, tokenHash: string, budget: Budget): Promise<Admission> => {
    if (redis.status !== 'ready') return failOpen(new Error('Redis connection is not ready'), budget);
    const key = `${budget.policy}:${budget.points}:${budget.windowSeconds}:${tokenHash}`;
    try {
      for (;;) {
        const now = Date.now();
        const blocked = blockedUntil.get(address);
        if (blocked && blocked.endsAt > now) {
          // authFailureBlock's decision and metric (a block is counted, an allowed read is not).
          count(authFailure.policy, 'limited');
          const resetSeconds = Math.max(1, Math.ceil((blocked.endsAt - now) / 1000));
          return { blocked: { ...blocked.decision, resetSeconds }, counted: undefined };
        }
        const allowance = allowances.get(key);
        if (allowance?.pending) {
          await allowance.pending;
          continue;
        }
        const current = allowance !== undefined && allowance.endsAt > now;
        const clear = (clearUntil.get(address) ?? 0) > now;
        if (clear && current && (allowance.left > 0 || allowance.counted >= budget.points)) {
          const allowed = allowance.left > 0;
          if (allowed) allowance.left -= 1;
          count(budget.policy, allowed ? 'allowed' : 'limited');
          return {
            blocked: undefined,
            counted: {
              policy: budget.policy,
              limit: budget.points,
              windowSeconds: budget.windowSeconds,
              remaining: Math.max(0, budget.points - allowance.counted + allowance.left),
              resetSeconds: Math.max(1, Math.ceil((allowance.endsAt - now) / 1000)),
              allowed,
            },
          };
        }
        // The address's check only, when the token still has a share here; else a new share too.
        // Requests of the token meanwhile wait for it rather than ask Redis again.
        const reserve = !(current && allowance.left > 0);
        const sync = synchronise(address, tokenHash, budget, key, reserve);
        let entry = allowance;
        if (!entry)
          remember(allowances, key, (entry = { left: 0, counted: 0, endsAt: 0, pending: undefined }));
        const pending = sync.then(
          () => undefined,
          () => undefined,
        );
        entry.pending = pending;
        void pending.then(() => {
          if (entry.pending === pending) entry.pending = undefined;
        });
        const refusal = await sync;
        if (refusal) {
          count(authFailure.policy, 'limited');
          return { blocked: refusal, counted: undefined };
        }
      }
    } catch (err) {
      return failOpen(err, budget);
    }
  };
  return Object.assign(admit, {
    recheck: (address: string) => void clearUntil.delete(address),
  });
}
