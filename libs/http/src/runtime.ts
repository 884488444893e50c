import { collectDefaultMetrics, Registry } from 'prom-client';
import type { Config } from '@catalogue/config';
import { createKnex, pingDatabase, type Knex } from '@catalogue/db';
import { createLogger, type Logger } from '@catalogue/logger';
import { authChangesChannel, createRedis, pingRedis, withTimeout, type RedisClient } from '@catalogue/queue';
import { registerDegradedGauge, type ReadinessCheck } from './health';
import { createRateLimitMetrics, createReadMetrics } from './metrics';
import { createReads, type Reads } from './read-replica';
import { createRateLimits, type RateLimits } from './rate-limit/limits';
import { createAuthCache, NO_AUTH_CACHE, type AuthCache } from './auth-cache';
import type { HttpApp } from './app';

const DEFAULT_GAUGES_NAMED_TOTAL = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/** What every service process needs: config, logs, Postgres, Redis and a metrics registry. */
export interface BaseDeps {
  config: Config;
  logger: Logger;
  db: Knex;
  redis: RedisClient;
  registry: Registry;
  readiness: ReadinessCheck[];
  /** Request budgets in the shared Redis (see createRateLimits). */
  rateLimits: RateLimits;
  /** The rate limiter's own connection to that Redis (`redis` itself where nothing is limited). */
  rateLimitRedis: RedisClient;
  /** Tokens' eshops and eshops' origins in memory, for the services that authenticate requests. */
  authCache: AuthCache;
  /**
   * The reads a replica may serve (`DATABASE_READ_URL`; the primary when there is none, or in a
   * process that does not serve such reads): docs/decisions/0049-reads-from-a-replica.md, "Reads from a replica".
   */
  reads: Reads;
}

/**
 * `authenticates`: the process serves token-authenticated routes, so it keeps an auth cache
 * (and its one Redis connection subscribed to auth changes); the others do not. `readsReplica`: the
 * process serves reads a replica may answer, so it connects to `DATABASE_READ_URL` when one is set.
 * `runsJobs`: the process works through queued jobs, which wait for a database connection as long
 * as DATABASE_CONNECT_TIMEOUT_MS allows however many wait (a job refused at once would only be
 * retried later); a process serving requests refuses at once (503) those past DATABASE_POOL_QUEUE_MAX
 * waiting and those expected to wait longer than DATABASE_POOL_QUEUE_BUDGET_MS, and those that
 * waited that long then.
 */
export function buildBaseDeps(
  config: Config,
  service: string,
  opts: { authenticates?: boolean; readsReplica?: boolean; runsJobs?: boolean } = {},
): BaseDeps {
  const logger = createLogger({ service, level: config.logLevel, pretty: config.logPretty });
  const knexLog = {
    warn: (msg: string) => logger.warn({ component: 'knex' }, msg),
    error: (msg: string) => logger.error({ component: 'knex' }, msg),
  };
  const { poolQueueMax, poolQueueBudgetMs, ...database } = config.database;
  const db = createKnex({
    ...database,
    ...(opts.runsJobs ? {} : { poolQueueMax, ...(poolQueueBudgetMs > 0 ? { poolQueueBudgetMs } : {}) }),
    applicationName: service,
    log: knexLog,
  });
  const replica =
    opts.readsReplica && config.database.readUrl
      ? createKnex({
          ...database,
          url: config.database.readUrl,
          applicationName: `${service}-read`,
          log: knexLog,
        })
      : null;
  const redis = createRedis(config.redis, service);
  // ioredis reconnects on its own; without a listener every failed attempt is an
  // "unhandled error event" on stderr. /readyz reports the outage instead.
  redis.on('error', (err: Error) => logger.debug({ err: err.message }, 'redis connection error'));
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // prom-client also exports these totals as gauges, which breaks the `_total` = counter
  // convention (`promtool check metrics` refuses them); `sum(nodejs_active_handles)` etc.
  // give the same numbers from the by-type gauges it keeps.
  for (const name of DEFAULT_GAUGES_NAMED_TOTAL) registry.removeSingleMetric(name);
  // The API services' limiter talks to Redis on a connection of its own. On the shared one,
  // where BullMQ has defined its few dozen scripts, every MULTI the limiter sends (its read of an
  // address's failed authentications, on every request) copies all of them into a new pipeline:
  // a third of whoami's CPU.
  const rateLimitRedis = opts.authenticates ? createRedis(config.redis, `${service}-rate-limit`) : redis;
  if (rateLimitRedis !== redis) {
    rateLimitRedis.on('error', (err: Error) =>
      logger.debug({ err: err.message }, 'rate limiter redis connection error'),
    );
  }
  const rateLimits = createRateLimits(rateLimitRedis, config, createRateLimitMetrics(registry), logger);
  const authCache = opts.authenticates
    ? createAuthCache({
        redis: config.redis,
        channel: authChangesChannel(config.redis.queuePrefix),
        ttlMs: config.http.authCacheTtlMs,
        logger,
        applicationName: service,
      })
    : NO_AUTH_CACHE;
  const reads = createReads({ primary: db, replica, metrics: createReadMetrics(registry), logger });
  const readiness: ReadinessCheck[] = [
    { name: 'postgres', check: () => pingDatabase(db) },
    // A process that serves requests serves them without Redis (imports and uploads commit and
    // the sweeper queues their work later, limits fail open, the auth cache reads PostgreSQL):
    // it stays ready, degraded, so a Redis outage does not take every pod out of its Service at
    // once. A process that only works through queued jobs has nothing to do without it.
    { name: 'redis', critical: opts.runsJobs ? true : 'degrades', check: () => pingRedis(redis) },
    // Reported, never failing readiness: without Redis the limiter lets requests pass.
    { name: 'rate_limiter', critical: false, check: () => Promise.resolve(rateLimits.state()) },
    // Reported, never failing readiness: without its Redis subscription (down, or not answering
    // a ping now) the cache is off and every request reads Postgres.
    ...(opts.authenticates
      ? [
          {
            name: 'auth_cache',
            critical: false as const,
            check: () => authCache.state(),
          },
        ]
      : []),
    // Reported, never failing readiness: without the replica, reads go to the primary.
    ...(replica ? [{ name: 'postgres_replica', critical: false as const, check: () => reads.check() }] : []),
  ];
  registerDegradedGauge(registry, readiness);
  return {
    config,
    logger,
    db,
    redis,
    registry,
    readiness,
    rateLimits,
    rateLimitRedis,
    authCache,
    reads,
  };
}

/**
 * An HTTP service as its process runs it: its dependencies built from a configuration, its app on
 * them, and their closing. Each service exports its own from src/service.ts; its main.ts serves it,
 * and so do the tests (serveServiceForTests and tests/full-stack.ts in libs/testing and tests/).
 */
export interface ServiceModule<D extends BaseDeps = BaseDeps> {
  buildDeps(config: Config): D;
  createApp(deps: D): HttpApp;
  closeDeps(deps: D): Promise<void>;
}

export async function closeBaseDeps(deps: BaseDeps): Promise<void> {
  await deps.authCache.close();
  await deps.db.destroy();
  await deps.reads.replica?.destroy();
  if (deps.rateLimitRedis !== deps.redis) await closeRedis(deps.rateLimitRedis);
  await closeRedis(deps.redis);
}

/**
 * QUIT when Redis answers, so replies in flight arrive first; otherwise (down, reconnecting) QUIT
 * would wait in the offline queue for a reconnect that may never come: drop the connection.
 */
async function closeRedis(redis: RedisClient, timeoutMs = 2_000): Promise<void> {
  const quit =
    redis.status === 'ready' &&
    (await withTimeout(redis.quit(), timeoutMs).then(
      () => true,
      () => false,
    ));
  if (!quit) redis.disconnect();
}

/**
 * On SIGTERM or SIGINT runs `shutdown` once (stop accepting, finish in-flight work, close
 * connections) and exits 0, or 1 when shutdown failed. A second signal exits at once.
 */
export function exitOnSignals(logger: Logger, shutdown: () => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    shutdown().then(
      () => {
        logger.info('stopped');
        logger.flush();
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        logger.flush();
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
