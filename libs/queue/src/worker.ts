import { Worker, type Job } from 'bullmq';
import type { RedisClient } from './connection';
import type { Config } from '@catalogue/config';
import type { Logger } from '@catalogue/logger';
import { exemplarOf, queueTelemetry } from '@catalogue/tracing';
import { fairKeys, releasePlace } from './fair';
import { QUEUE_NAMES, QUEUES, type JobPayloads, type QueueName, type QueueSpec } from './jobs';
import type { QueueMetrics } from './metrics';

export type JobHandler<Q extends QueueName> = (job: Job<JobPayloads[Q]>) => Promise<unknown>;
export type JobHandlers<Q extends QueueName = QueueName> = { [K in Q]: JobHandler<K> };

export interface WorkerOptions<Q extends QueueName> {
  /** The queues this process consumes; each must have exactly one handler. */
  queues: readonly Q[];
  handlers: Partial<JobHandlers>;
  connection: RedisClient;
  prefix: string;
  concurrency: number;
  /** Queues whose jobs run more (or fewer) at once than `concurrency` (`queueConcurrency(config)`). */
  concurrencyOf?: Partial<Record<QueueName, number>>;
  logger: Logger;
  metrics: QueueMetrics;
}

/**
 * Starts one BullMQ Worker per consumed queue, with the production settings: stalled jobs
 * (a worker died mid-job) are taken over after the lock expires, failures retry with the
 * queue's backoff, and every attempt is counted and timed. Refuses to start when a
 * consumed queue has no handler, so a deploy can never silently drop a kind of job.
 */
export function createWorkers<Q extends QueueName>(opts: WorkerOptions<Q>): Worker[] {
  const missing = opts.queues.filter((q) => typeof opts.handlers[q] !== 'function');
  if (missing.length) throw new Error(`no handler for queue(s): ${missing.join(', ')}`);
  return opts.queues.map((queue) => startWorker(opts, queue));
}

function startWorker<Q extends QueueName>(opts: WorkerOptions<QueueName>, queue: Q): Worker {
  const handler: JobHandler<Q> | undefined = opts.handlers[queue];
  if (!handler) throw new Error(`no handler for queue(s): ${queue}`);
  const spec: QueueSpec<JobPayloads[Q]> = QUEUES[queue];
  const log = opts.logger.child({ queue });
  // A scheduled queue's runs are routine (the relay every second, the sweeper): a completed
  // attempt's `job finished` line is at debug, so it does not bury everything else; a retry or
  // failure stays at info (and `job failed` at warn).
  const routine = spec.schedule !== undefined;
  const eshopOf = spec.fairBy;
  const fair = eshopOf ? fairKeys(opts.prefix, queue) : undefined;
  const run = async (job: Job<JobPayloads[Q]>): Promise<unknown> => {
    // The job left its eshop's line of waiting jobs (first start only: retries and stalled
    // restarts were counted out already; a job added without a priority took no place).
    if (fair && eshopOf && job.attemptsStarted <= 1 && job.priority > 0 && job.id) {
      const eshopId = eshopOf(job.data);
      await releasePlace(opts.connection, fair, eshopId, job.id).catch((err: unknown) =>
        log.warn({ err, job_id: job.id }, 'could not release the fair-queue place'),
      );
    }
    return handler(job);
  };
  const worker = new Worker<JobPayloads[Q]>(queue, run, {
    connection: opts.connection,
    prefix: opts.prefix,
    concurrency: opts.concurrencyOf?.[queue] ?? opts.concurrency,
    lockDuration: 60_000,
    stalledInterval: 30_000,
    maxStalledCount: 2,
    // While tracing runs: one consumer span per attempt, a child of the span that added the job.
    telemetry: queueTelemetry(),
  });
  // Both events are emitted inside the attempt's span (BullMQ's telemetry), so the metric's
  // exemplar and the line below carry its trace.
  const record = (job: Job, outcome: 'completed' | 'retried' | 'failed'): void => {
    opts.metrics.jobs.inc({ queue, outcome });
    const finished = job.finishedOn ?? Date.now();
    const seconds = job.processedOn ? (finished - job.processedOn) / 1000 : undefined;
    if (seconds !== undefined)
      opts.metrics.jobDuration.observe({
        labels: { queue, outcome },
        value: seconds,
        exemplarLabels: exemplarOf() as Record<string, never>,
      });
    // One line per attempt, at info (a routine queue's completed one at debug): ids, counts and
    // times only (never the payload beyond the eshop, nor an error's message: 'job failed'
    // below has the error).
    log[routine && outcome === 'completed' ? 'debug' : 'info'](
      {
        job_id: job.id,
        eshop_id: eshopIdOf(job.data),
        outcome,
        attempts: job.attemptsStarted,
        duration_ms: seconds === undefined ? undefined : Math.round(seconds * 1000),
        queued_ms: job.processedOn ? job.processedOn - job.timestamp : undefined,
      },
      'job finished',
    );
  };
  worker.on('completed', (job) => record(job, 'completed'));
  worker.on('failed', (job, err) => {
    if (!job) return;
    // A handler may throw anything, not only an Error.
    const unrecoverable = err instanceof Error && err.name === 'UnrecoverableError';
    const willRetry = job.attemptsMade < (job.opts.attempts ?? 1) && !unrecoverable;
    record(job, willRetry ? 'retried' : 'failed');
    log.warn({ job_id: job.id, attempt: job.attemptsMade, will_retry: willRetry, err }, 'job failed');
  });
  // A job whose worker died (or blocked the event loop past the lock) is taken over by
  // another worker; BullMQ emits no 'failed' for it, so it is counted here.
  worker.on('stalled', (jobId) => {
    opts.metrics.jobs.inc({ queue, outcome: 'stalled' });
    log.warn({ job_id: jobId }, 'job stalled');
  });
  worker.on('error', (err) => log.error({ err }, 'worker error'));
  return worker;
}

/** The eshop a job's payload names, when it names one (for its log line). */
function eshopIdOf(data: unknown): unknown {
  return typeof data === 'object' && data !== null && 'eshop_id' in data ? data.eshop_id : undefined;
}

/** The queues whose jobs run more (or fewer) at once than WORKER_CONCURRENCY (QUEUES' `concurrency`). */
export function queueConcurrency(config: Config): Partial<Record<QueueName, number>> {
  return Object.fromEntries(
    QUEUE_NAMES.flatMap((name) => {
      const of = QUEUES[name].concurrency;
      return of ? [[name, of(config)]] : [];
    }),
  );
}

/** Stops taking jobs and waits for the running ones to finish. */
export async function closeWorkers(workers: Worker[]): Promise<void> {
  await Promise.all(workers.map((w) => w.close()));
}
