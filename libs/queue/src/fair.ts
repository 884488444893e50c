import type { Queue } from 'bullmq';
import type { RedisClient } from './connection';
import type { JobPayloads, QueueName } from './jobs';

/**
 * Fair sharing of a queue between eshops, on open-source BullMQ (no groups): each job's
 * priority is its place in its own eshop's line of waiting jobs, kept in a Redis hash
 * (eshop id -> jobs queued and not yet started). BullMQ takes the lowest priority first, FIFO
 * among equals, so an eshop with one job waits behind at most one job of each other eshop
 * instead of behind another eshop's whole backlog: round-robin between eshops.
 *
 * The count goes up when a job is queued and down when it first starts. Should it drift (a job
 * removed by hand), only ordering suffers, never a job; a Redis that lost its data lost the
 * jobs and the counts together.
 */
export const FAIR_QUEUES = ['render-content'] as const satisfies readonly QueueName[];
export type FairQueueName = (typeof FAIR_QUEUES)[number];

/** BullMQ's highest priority value (the least urgent). */
const MAX_PRIORITY = 2_097_151;

export function isFairQueue(name: string): name is FairQueueName {
  return (FAIR_QUEUES as readonly string[]).includes(name);
}

/** The hash of waiting-job counts, next to the queue's own keys. */
export function fairKey(prefix: string, queue: QueueName): string {
  return `${prefix}:${queue}:fair-waiting`;
}

/** Takes one place per job in its eshop's line; returns each job's priority. */
export async function takePlaces(redis: RedisClient, key: string, eshopIds: number[]): Promise<number[]> {
  const pipeline = redis.pipeline();
  for (const id of eshopIds) pipeline.hincrby(key, String(id), 1);
  const results = (await pipeline.exec()) ?? [];
  return results.map(([err, value]) => {
    if (err) throw err;
    return Math.min(Math.max(Number(value), 1), MAX_PRIORITY);
  });
}

// Never below 0: a count that drifted low is clamped rather than favouring the eshop for ever.
const RELEASE_SCRIPT = `
local n = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if n <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return n`;

/** Gives back one place of the eshop's line (its job started, or was never queued). */
export async function releasePlace(redis: RedisClient, key: string, eshopId: number): Promise<void> {
  await redis.eval(RELEASE_SCRIPT, 1, key, String(eshopId));
}

/** A job of a fair queue, with the BullMQ options it needs besides its priority. */
export interface FairJob<Q extends FairQueueName> {
  data: JobPayloads[Q];
  opts?: { deduplication?: { id: string } };
}

/**
 * Adds jobs to a fair queue in one round trip (plus one for the places). When the add fails,
 * the places are given back and the error is thrown.
 */
export async function addFair<Q extends FairQueueName>(
  queue: Queue<JobPayloads[Q]>,
  name: Q,
  jobs: FairJob<Q>[],
): Promise<void> {
  if (!jobs.length) return;
  // createQueues gives every queue the shared ioredis connection.
  const redis = queue.opts.connection as RedisClient;
  const key = fairKey(queue.opts.prefix ?? 'bull', name);
  const eshopIds = jobs.map((job) => job.data.eshop_id);
  const priorities = await takePlaces(redis, key, eshopIds);
  try {
    await queue.addBulk(
      jobs.map((job, index) => ({
        name: name as never,
        data: job.data as never,
        opts: { ...job.opts, priority: priorities[index] },
      })),
    );
  } catch (err) {
    await Promise.allSettled(eshopIds.map((id) => releasePlace(redis, key, id)));
    throw err;
  }
}
