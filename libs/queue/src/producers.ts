import { Queue, type JobsOptions } from 'bullmq';
import { queueTelemetry } from '@catalogue/tracing';
import type { RedisClient } from './connection';
import { withTimeout } from './connection';
import { addToLines } from './fair';
import {
  DEFAULT_JOB_OPTIONS,
  jobOptions,
  QUEUE_NAMES,
  QUEUES,
  type JobPayloads,
  type QueueName,
  type QueueOf,
  type QueueSpec,
} from './jobs';

export type Queues = { readonly [Q in QueueName]: QueueOf<Q> };

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
  const open = <Q extends QueueName>(name: Q): QueueOf<Q> => {
    const queue: QueueOf<Q> = new Queue(name, {
      connection,
      prefix,
      defaultJobOptions: DEFAULT_JOB_OPTIONS,
      telemetry: queueTelemetry(),
    });
    queue.on('error', onError);
    return queue;
  };
  // The one place the queues are built from their names: TypeScript cannot see that an object
  // built key by key from QUEUE_NAMES has every key with its own queue type.
  return Object.fromEntries(QUEUE_NAMES.map((name) => [name, open(name)])) as unknown as Queues;
}

/**
 * Adds a job. A queue whose entry in QUEUES has a `jobId` adds it under that deterministic id
 * unless `opts.jobId` says otherwise (BullMQ ignores an add whose id already exists).
 */
export async function enqueue<Q extends QueueName>(
  queues: Queues,
  name: Q,
  payload: JobPayloads[Q],
  opts: JobsOptions = {},
): Promise<string | undefined> {
  return (await add(queues, name, [payload], opts))[0];
}

/** Adds many jobs of one queue in one round trip to Redis (one more for a fair queue's places). */
export async function enqueueMany<Q extends QueueName>(
  queues: Queues,
  name: Q,
  payloads: JobPayloads[Q][],
  opts: JobsOptions = {},
): Promise<void> {
  await add(queues, name, payloads, opts);
}

/** Adds the jobs; returns their ids. */
async function add<Q extends QueueName>(
  queues: Queues,
  name: Q,
  payloads: JobPayloads[Q][],
  opts: JobsOptions,
): Promise<(string | undefined)[]> {
  if (!payloads.length) return [];
  const queue: QueueOf<Q> = queues[name];
  const spec: QueueSpec<JobPayloads[Q]> = QUEUES[name];
  // A fair queue's jobs always go through addFair: a job added without a priority would run
  // before every prioritized one, ahead of all eshops' lines. Their priority is the queue's.
  if (spec.fairBy) {
    const { priority: _priority, ...fairOpts } = opts;
    return addToLines(
      queue,
      name,
      payloads.map((data) => ({ data, opts: fairOpts })),
    );
  }
  if (payloads.length === 1) {
    const [data] = payloads;
    return data ? [(await queue.add(name, data, jobOptions(spec, data, opts))).id] : [];
  }
  const jobs = await queue.addBulk(
    payloads.map((data) => ({ name, data, opts: jobOptions(spec, data, opts) })),
  );
  return jobs.map((job) => job.id);
}

/**
 * Closes the queues, waiting at most `timeoutMs`: while Redis is unreachable a queue with a
 * command still waiting for the reconnect never finishes closing, and a stopping process must
 * not hang on it (the shared connection is then dropped by its owner).
 */
export async function closeQueues(queues: Queues, timeoutMs = 2_000): Promise<void> {
  const closed = Promise.all(QUEUE_NAMES.map((name) => queues[name].close().catch(() => undefined)));
  await withTimeout(closed, timeoutMs).catch(() => undefined);
}
