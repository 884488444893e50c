import type { JobsOptions, Queue } from 'bullmq';
import { Cluster, Redis } from 'ioredis';
import type { RedisClient } from './connection';
import {
  jobOptions,
  QUEUE_NAMES,
  QUEUES,
  type JobPayloads,
  type QueueName,
  type QueueOf,
  type QueueSpec,
} from './jobs';

/**
 * Fair sharing of a queue between eshops, on open-source BullMQ (no groups): each job's
 * priority is its place in its own eshop's line of waiting jobs, kept in a Redis hash
 * (eshop id -> jobs queued and not yet started). BullMQ takes the lowest priority first, FIFO
 * among equals, so an eshop with one job waits behind at most one job of each other eshop
 * instead of behind another eshop's whole backlog: round-robin between eshops.
 *
 * Every queue an eshop can fill with work someone waits for is fair (`fair: true` in QUEUES):
 * renders (imports), generations (white-label starts), listing rows (uploads) and the settlements
 * generations end in. `webhook-delivery` is not: a place in line reorders an eshop's own jobs while its backlog
 * drains (a new job ties with the middle of the backlog), and deliveries keep an endpoint's
 * events in order (docs/decisions/0057-fair-shares-for-every-queue.md).
 *
 * The count goes up when a job is queued and down when it first starts. A job under a
 * deterministic id (`generate-<id>`, `listing-<row>`, `settle-<id>`) takes a place only when no
 * job has that id yet and no other add of the same id holds one (a set of the ids holding a
 * place), so the adds BullMQ ignores (a retried add, a second path ending a generation) count
 * nothing. Should the count drift otherwise (a job removed by hand), only ordering suffers,
 * never a job, and the sweeper forgets the lines of a queue with nothing waiting
 * (`resetIdleLines`); a Redis that lost its data lost the jobs and the counts together.
 */
export type FairQueueName = {
  [Q in QueueName]: (typeof QUEUES)[Q] extends { fairBy: unknown } ? Q : never;
}[QueueName];

export function isFairQueue(name: QueueName): name is FairQueueName {
  return QUEUES[name].fairBy !== undefined;
}

/** The fair queues, in QUEUES order. */
export const FAIR_QUEUES: readonly FairQueueName[] = QUEUE_NAMES.filter(isFairQueue);

/** BullMQ's highest priority value (the least urgent). */
const MAX_PRIORITY = 2_097_151;

/** The hash of waiting-job counts, next to the queue's own keys. */
export function fairKey(prefix: string, queue: QueueName): string {
  return `${prefix}:${queue}:fair-waiting`;
}

/** The set of deterministic job ids holding a place (their count is in the hash). */
export function fairIdsKey(prefix: string, queue: QueueName): string {
  return `${prefix}:${queue}:fair-ids`;
}

/** BullMQ's ids of its own (a counter) are integers; custom ids never are (BullMQ refuses them). */
const isCounterId = (id: string): boolean => /^[0-9]+$/.test(id);

/*
 * KEYS[1] the counts, KEYS[2] the ids holding a place, KEYS[2 + i] job i's key (its id's, or
 * the counts again for a job without an id); ARGV[2i - 1] job i's eshop, ARGV[2i] its id or ''.
 * Returns each job's priority, 0 for a job that took no place (its id is taken).
 */
const TAKE_SCRIPT = `
local out = {}
for i = 1, #ARGV / 2 do
  local eshop, id = ARGV[2 * i - 1], ARGV[2 * i]
  if id ~= '' and (redis.call('EXISTS', KEYS[2 + i]) == 1 or redis.call('SADD', KEYS[2], id) == 0) then
    out[i] = 0
  else
    out[i] = redis.call('HINCRBY', KEYS[1], eshop, 1)
  end
end
return out`;

/*
 * KEYS[1] the counts, KEYS[2] the ids holding a place; ARGV[1] the eshop, ARGV[2] the job's id,
 * ARGV[3] '1' when the id is BullMQ's own (not in the set). Never below 0: a count that drifted
 * low is clamped rather than favouring the eshop for ever.
 */
const RELEASE_SCRIPT = `
if ARGV[3] ~= '1' and redis.call('SREM', KEYS[2], ARGV[2]) == 0 then return -1 end
local n = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if n <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return n`;

export interface FairKeys {
  /** The hash of waiting-job counts. */
  counts: string;
  /** The set of deterministic ids holding a place. */
  ids: string;
  /** The queue's key prefix for job keys (`<prefix>:<queue>:`). */
  jobs: string;
}

export function fairKeys(prefix: string, queue: QueueName): FairKeys {
  return { counts: fairKey(prefix, queue), ids: fairIdsKey(prefix, queue), jobs: `${prefix}:${queue}:` };
}

/**
 * Takes one place per job in its eshop's line; returns each job's priority, or 0 for a job
 * whose id is taken (BullMQ will ignore its add).
 */
export async function takePlaces(
  redis: RedisClient,
  keys: FairKeys,
  jobs: { eshopId: number; jobId?: string }[],
): Promise<number[]> {
  if (!jobs.length) return [];
  const jobKeys = jobs.map((job) => (job.jobId ? keys.jobs + job.jobId : keys.counts));
  const args = jobs.flatMap((job) => [String(job.eshopId), job.jobId ?? '']);
  const places = await redis.eval(TAKE_SCRIPT, 2 + jobs.length, keys.counts, keys.ids, ...jobKeys, ...args);
  if (!Array.isArray(places)) throw new Error('the fair queue script answered no list of places');
  return places.map((place) => (place === 0 ? 0 : Math.min(Math.max(Number(place), 1), MAX_PRIORITY)));
}

/**
 * The Redis client a queue was made with: createQueues gives every queue the shared ioredis
 * connection, whose scripts the fair lines run on.
 */
function connectionOf(queue: Queue): RedisClient {
  const { connection } = queue.opts;
  if (connection instanceof Redis || connection instanceof Cluster) return connection;
  throw new Error(`queue ${queue.name} was made without an ioredis connection`);
}

/** Gives back the place a job took in its eshop's line (it started, or was never queued). */
export async function releasePlace(
  redis: RedisClient,
  keys: FairKeys,
  eshopId: number,
  jobId: string,
): Promise<void> {
  await redis.eval(
    RELEASE_SCRIPT,
    2,
    keys.counts,
    keys.ids,
    String(eshopId),
    jobId,
    isCounterId(jobId) ? '1' : '0',
  );
}

/*
 * KEYS[1] the counts, KEYS[2] the ids holding a place, KEYS[3..6] the queue's wait list, paused
 * list, prioritized and delayed sets. Deletes the lines when no job waits in any of them.
 */
const RESET_SCRIPT = `
if redis.call('LLEN', KEYS[3]) + redis.call('LLEN', KEYS[4]) + redis.call('ZCARD', KEYS[5]) + redis.call('ZCARD', KEYS[6]) > 0 then
  return 0
end
return redis.call('DEL', KEYS[1], KEYS[2])`;

/**
 * Forgets the eshops' lines of a queue in which no job waits (none waiting, paused, prioritized
 * or delayed): whatever the counts say then is drift (a job removed by hand, jobs of a worker
 * that gave no place back during a rolling deploy), and it would otherwise stay for good. Atomic
 * against BullMQ's adds; a place taken just before its job is added is forgotten with the rest
 * and its job gives nothing back at its start (its id is no longer in the set; an integer id's
 * count stops at 0). Returns whether the lines were reset.
 */
export async function resetIdleLines(queue: Queue, name: FairQueueName): Promise<boolean> {
  const redis = connectionOf(queue);
  const keys = fairKeys(queue.opts.prefix ?? 'bull', name);
  const deleted = await redis.eval(
    RESET_SCRIPT,
    6,
    keys.counts,
    keys.ids,
    queue.toKey('wait'),
    queue.toKey('paused'),
    queue.toKey('prioritized'),
    queue.toKey('delayed'),
  );
  return Number(deleted) > 0;
}

/** A job of a fair queue, with its BullMQ options (its priority is the queue's to choose). */
export interface FairJob<Q extends QueueName> {
  data: JobPayloads[Q];
  opts?: Omit<JobsOptions, 'priority'>;
}

/**
 * Adds jobs to a fair queue in one round trip (plus one for the places) and returns their ids.
 * When the add fails, the places are given back and the error is thrown.
 */
export function addFair<Q extends FairQueueName>(
  queue: QueueOf<Q>,
  name: Q,
  jobs: FairJob<Q>[],
): Promise<(string | undefined)[]> {
  return addToLines(queue, name, jobs);
}

/** addFair for any queue name; refuses a queue that is not fair (enqueue checks first). */
export async function addToLines<Q extends QueueName>(
  queue: QueueOf<Q>,
  name: Q,
  jobs: FairJob<Q>[],
): Promise<(string | undefined)[]> {
  if (!jobs.length) return [];
  const spec: QueueSpec<JobPayloads[Q]> = QUEUES[name];
  const eshopOf = spec.fairBy;
  if (!eshopOf) throw new Error(`${name} is not a fair queue`);
  // createQueues gives every queue the shared ioredis connection.
  const redis = connectionOf(queue);
  const keys = fairKeys(queue.opts.prefix ?? 'bull', name);
  const priorities = await takePlaces(
    redis,
    keys,
    jobs.map((job) => ({ eshopId: eshopOf(job.data), jobId: jobOptions(spec, job.data, job.opts).jobId })),
  );
  try {
    const added = await queue.addBulk(
      jobs.map((job, index) => ({
        name,
        data: job.data,
        // A job that took no place is a duplicate BullMQ ignores; 1 keeps it prioritized anyway.
        opts: { ...jobOptions(spec, job.data, job.opts), priority: priorities[index] || 1 },
      })),
    );
    return added.map((job) => job.id);
  } catch (err) {
    // Only the places this add took: an auto id is unknown yet, so those give back a count.
    await Promise.allSettled(
      jobs.map((job, index) =>
        priorities[index]
          ? releasePlace(redis, keys, eshopOf(job.data), jobOptions(spec, job.data, job.opts).jobId ?? '0')
          : Promise.resolve(),
      ),
    );
    throw err;
  }
}
