import {
  createWorkers,
  queueConcurrency,
  QUEUE_NAMES,
  QUEUES,
  queuesConsumedBy,
  recoverySweepJobId,
  redisMarkerKey,
  SWEEP_EVERY_MS,
  withTimeout,
  type JobHandlers,
  type JobPayloads,
  type QueueName,
  type QueueOf,
  type QueueSpec,
} from '@catalogue/queue';
import type { Worker } from 'bullmq';
import type { Deps } from '../deps';
import { generateHandler } from './generate.handler';
import { listingEnrichmentHandler } from './listing-enrichment.handler';
import { renderContentHandler } from './render-content.handler';
import { sweepStaleWorkHandler } from './sweep-stale-work.handler';
import { webhookDeliveryHandler } from './webhook-delivery.handler';
import { webhookRelayHandler } from './webhook-relay.handler';

/**
 * The queues this worker consumes (libs/queue's QUEUES) and their handlers (one file per job name in this
 * folder). createWorkers() refuses to start when a listed queue has no handler.
 */
export const CONSUMED_QUEUES: readonly QueueName[] = queuesConsumedBy('generation-worker');

export { SWEEP_EVERY_MS };

/** The queues of QUEUES with a `schedule` (queued only by their job scheduler). */
export const SCHEDULED_QUEUES: readonly QueueName[] = QUEUE_NAMES.filter((name) => QUEUES[name].schedule);

export function buildHandlers(deps: Deps): Partial<JobHandlers> {
  return {
    'render-content': renderContentHandler(deps),
    generate: generateHandler(deps),
    'listing-enrichment': listingEnrichmentHandler(deps),
    'sweep-stale-work': sweepStaleWorkHandler(deps),
    'webhook-relay': webhookRelayHandler(deps),
    'webhook-delivery': webhookDeliveryHandler(deps),
  };
}

/**
 * BullMQ workers for the given queues (all consumed ones by default) with this process's
 * handlers, settings and metrics.
 */
export function startWorkers(deps: Deps, queues: readonly QueueName[] = CONSUMED_QUEUES): Worker[] {
  return createWorkers({
    queues,
    handlers: buildHandlers(deps),
    connection: deps.redis,
    prefix: deps.config.redis.queuePrefix,
    concurrency: deps.config.worker.concurrency,
    concurrencyOf: queueConcurrency(deps.config),
    logger: deps.logger,
    metrics: deps.queueMetrics,
  });
}

/**
 * A scheduled run starts a trace of its own. Without this BullMQ stores the trace context of
 * whatever queued the run in it (the declaration, and each run the next one), so every run
 * between two declarations joined one trace.
 */
const OWN_TRACE = { telemetry: { omitContext: true } } as const;

/**
 * Declares the job scheduler of a scheduled queue (its `schedule` in QUEUES). Every replica
 * declares the same scheduler id (the queue's name), so Redis holds one schedule and queues one
 * run per period, whichever replica takes it.
 */
export async function scheduleQueue<Q extends QueueName>(deps: Deps, name: Q): Promise<void> {
  const spec: QueueSpec<JobPayloads[Q]> = QUEUES[name];
  const schedule = spec.schedule;
  if (!schedule) throw new Error(`${name} has no schedule`);
  const queue: QueueOf<Q> = deps.queues[name];
  await queue.upsertJobScheduler(
    name,
    { every: schedule.every(deps.config) },
    {
      name,
      data: schedule.data,
      opts: { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 }, ...OWN_TRACE },
    },
  );
}

/** Declares the sweeper's job scheduler (see scheduleQueue). */
export function scheduleSweep(deps: Deps): Promise<void> {
  return scheduleQueue(deps, 'sweep-stale-work');
}

/**
 * Keeps a job scheduler declared for as long as the worker runs: at once, whenever the Redis
 * connection is ready again (a Redis restarted empty has lost the schedule) and every `everyMs`
 * (a Redis flushed without dropping the connection). Declaring is idempotent and cheap. Returns
 * the function that stops it.
 */
function keepScheduled(
  deps: Deps,
  declareOnce: () => Promise<void>,
  everyMs: number,
  what: string,
): () => void {
  const declare = (): void => {
    // While Redis is down the call would wait in the offline queue; the 'ready' event comes.
    if (deps.redis.status !== 'ready') return;
    withTimeout(declareOnce(), everyMs / 2).catch((err: unknown) =>
      deps.logger.error({ err }, `could not declare the ${what} schedule`),
    );
  };
  deps.redis.on('ready', declare);
  const timer = setInterval(declare, everyMs);
  timer.unref();
  declare();
  return () => {
    clearInterval(timer);
    deps.redis.off('ready', declare);
  };
}

/** How often a worker looks for its Redis marker (besides whenever its connection is ready again). */
export const REDIS_MARKER_EVERY_MS = 10_000;

/**
 * Notices Redis losing its data (restarted empty, flushed, failed over to an empty replica): a
 * marker key (`<QUEUE_PREFIX>:redis-marker`) is set if absent, whenever the connection is ready
 * and every `everyMs`. Whoever finds it absent (one replica: SET NX) queues one recovery sweep
 * (sweep.service.ts, every idle deadline zero) under an id of the new marker, so lost work is
 * queued again within seconds, whichever replica runs it (a replica that dies meanwhile leaves
 * the job to another). A connection that comes back (Redis was unreachable, its data kept)
 * queues one too, once a minute across replicas: what the APIs committed meanwhile and could
 * not queue. A fresh Redis at the first start also runs one: nothing to find then. Returns the
 * function that stops it.
 */
export function watchRedisLoss(deps: Deps, everyMs = REDIS_MARKER_EVERY_MS): () => void {
  const key = redisMarkerKey(deps.config.redis.queuePrefix);
  let checking = false;
  let seenReady = false;
  let reconnected = false;
  const check = async (): Promise<void> => {
    const marker = `${Date.now()}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    const lost = (await deps.redis.set(key, marker, 'NX')) === 'OK';
    const back = reconnected;
    reconnected = false;
    seenReady = true;
    if (!lost && !back) return;
    deps.logger.warn(
      lost
        ? 'Redis has no marker (restarted empty, flushed or new): queueing a recovery sweep'
        : 'Redis connection back: queueing a recovery sweep for work not queued meanwhile',
    );
    await deps.queues['sweep-stale-work'].add(
      'sweep-stale-work',
      { after_redis_loss: true },
      {
        jobId: recoverySweepJobId(lost ? marker : `reconnect-${Math.floor(Date.now() / 60_000)}`),
        attempts: 5,
        backoff: { type: 'exponential', delay: 1_000 },
        removeOnComplete: { count: 100 },
        removeOnFail: { count: 100 },
      },
    );
  };
  const run = (): void => {
    // While Redis is down the call would wait in the offline queue; the 'ready' event comes.
    if (checking || deps.redis.status !== 'ready') return;
    checking = true;
    withTimeout(check(), everyMs)
      .catch((err: unknown) => deps.logger.error({ err }, 'could not check the Redis marker'))
      .finally(() => (checking = false));
  };
  const onReady = (): void => {
    // Not the first connection: one that was ready before and came back (checked at the next run).
    if (seenReady) reconnected = true;
    run();
  };
  deps.redis.on('ready', onReady);
  const timer = setInterval(run, everyMs);
  timer.unref();
  run();
  return () => {
    clearInterval(timer);
    deps.redis.off('ready', onReady);
  };
}

/**
 * Keeps the schedule of every scheduled queue this worker consumes declared (see keepScheduled);
 * returns the function that stops them all.
 */
export function keepSchedulesDeclared(
  deps: Deps,
  queues: readonly QueueName[] = SCHEDULED_QUEUES.filter((name) => CONSUMED_QUEUES.includes(name)),
): () => void {
  const stops = queues.map((name) => {
    const schedule = QUEUES[name].schedule;
    if (!schedule) throw new Error(`${name} has no schedule`);
    return keepScheduled(
      deps,
      () => scheduleQueue(deps, name),
      schedule.redeclareEveryMs,
      `${name} job scheduler`,
    );
  });
  return () => stops.forEach((stop) => stop());
}

/** Keeps the sweeper's schedule declared (see keepScheduled). */
export function keepSweepScheduled(deps: Deps): () => void {
  return keepSchedulesDeclared(deps, ['sweep-stale-work']);
}

/** Keeps the webhook relay's schedule declared (see keepScheduled). */
export function keepRelayScheduled(deps: Deps): () => void {
  return keepSchedulesDeclared(deps, ['webhook-relay']);
}
