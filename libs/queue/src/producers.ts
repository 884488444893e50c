import { Queue, type JobsOptions } from 'bullmq';
import { queueTelemetry } from '@catalogue/tracing';
import type { RedisClient } from './connection';
import { withTimeout } from './connection';
import { addFair, isFairQueue, type FairQueueName } from './fair';
import { DEFAULT_JOB_OPTIONS, QUEUE_NAMES, type JobPayloads, type QueueName } from './jobs';

export type Queues = { readonly [Q in QueueName]: Queue<JobPayloads[Q]> };

/**
 * One BullMQ Queue per queue name, sharing one connection and key prefix. Connection errors
 * go to `onError` (BullMQ would print each reconnect attempt of each queue to stderr). While
 * tracing runs, every add stores the caller's trace context in the job (BullMQ's telemetry).
 */
export function createQueues(
  connection: RedisClient,
  prefix: string,
  onError: (err: Error) => void = () => undefined,
): Queues {
  return Object.fromEntries(
    QUEUE_NAMES.map((name) => {
      const queue = new Queue(name, {
        connection,
        prefix,
        defaultJobOptions: DEFAULT_JOB_OPTIONS,
        telemetry: queueTelemetry(),
      });
      queue.on('error', onError);
      return [name, queue];
    }),
  ) as unknown as Queues;
}

/**
 * Adds a job. Pass a deterministic `jobId` for jobs that must not be queued twice
 * (BullMQ ignores an add whose id already exists).
 */
export async function enqueue<Q extends QueueName>(
  queues: Queues,
  name: Q,
  payload: JobPayloads[Q],
  opts: JobsOptions = {},
): Promise<string | undefined> {
  if (isFairQueue(name))
    return (await enqueueFair(queues, name, [payload as JobPayloads[typeof name]], opts))[0];
  const queue = queues[name] as unknown as Queue<JobPayloads[Q]>;
  const job = await queue.add(name as never, payload as never, opts);
  return job.id;
}

/** Adds many jobs of one queue in one round trip to Redis. */
export async function enqueueMany<Q extends QueueName>(
  queues: Queues,
  name: Q,
  payloads: JobPayloads[Q][],
  opts: JobsOptions = {},
): Promise<void> {
  if (!payloads.length) return;
  if (isFairQueue(name)) {
    await enqueueFair(queues, name, payloads as JobPayloads[typeof name][], opts);
    return;
  }
  const queue = queues[name] as unknown as Queue<JobPayloads[Q]>;
  await queue.addBulk(payloads.map((data) => ({ name: name as never, data: data as never, opts })));
}

/**
 * A fair queue's jobs always go through addFair: a job added without a priority would run
 * before every prioritized one, ahead of all eshops' lines. Their priority is the queue's.
 */
function enqueueFair<Q extends FairQueueName>(
  queues: Queues,
  name: Q,
  payloads: JobPayloads[Q][],
  { priority: _priority, ...opts }: JobsOptions,
): Promise<(string | undefined)[]> {
  const queue = queues[name] as unknown as Queue<JobPayloads[Q]>;
  return addFair(
    queue,
    name,
    payloads.map((data) => ({ data, opts })),
  );
}

/**
 * Closes the queues, waiting at most `timeoutMs`: while Redis is unreachable a queue with a
 * command still waiting for the reconnect never finishes closing, and a stopping process must
 * not hang on it (the shared connection is then dropped by its owner).
 */
export async function closeQueues(queues: Queues, timeoutMs = 2_000): Promise<void> {
  const closed = Promise.all(Object.values(queues).map((q: Queue) => q.close().catch(() => undefined)));
  await withTimeout(closed, timeoutMs).catch(() => undefined);
}
