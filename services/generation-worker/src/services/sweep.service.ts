/**
 * The stale-work sweeper: finds work that nothing will finish any more and ends or restarts it.
 *
 * - A generation job row stays `pending`/`running` when its BullMQ job is gone (Redis lost it,
 *   or the white-label API committed the row and could not queue it) or failed for good without
 *   its handler running (BullMQ gave up on a job that stalled too often). Once the row has been
 *   idle for longer than any generation may take and no live queue job carries it, it is ended
 *   `failed` through the same path as a provider failure, which queues its release under
 *   `settle-<job_id>`: settled once, however often the sweep runs.
 * - A catalogue item stays in `generate` when Redis failed right after its import committed.
 *   Once it has been idle for a few minutes, a `render-content` job is queued for it again
 *   (rendering is idempotent), one job per item, at most one in flight per item.
 *
 * - An Idempotency-Key kept past its 24 hours is deleted (lookups ignore it already; this only
 *   bounds the table).
 *
 * It runs as a job of its own queue, queued by a BullMQ job scheduler: one sweep per period
 * across all replicas, and two overlapping sweeps are harmless.
 */
import {
  generationJobsRepository,
  idempotencyRepository,
  stuckItemsRepository,
  type StuckItem,
} from '@catalogue/db';
import type { SweepMetrics } from '../metrics';
import { failGeneration, type EndDeps } from './generation-end';

export interface SweepOptions {
  /** A generation row idle this long, with no live queue job, is ended `failed`. */
  jobDeadlineMs: number;
  /** An item in `generate` idle this long gets a render job again. */
  itemDeadlineMs: number;
  /** Rows looked at per kind (and entity type) in one sweep; the next sweep takes the rest. */
  batch: number;
}

export type SweepDeps = EndDeps & {
  sweepMetrics: SweepMetrics;
  sweep: SweepOptions;
};

export interface SweepResult {
  generation_jobs_failed: number;
  items_requeued: number;
  idempotency_keys_expired: number;
}

/** States in which a queue job will still run (or is running). */
const LIVE_STATES = ['active', 'waiting', 'delayed', 'prioritized', 'waiting-children'] as const;

export const ABANDONED_MESSAGE =
  'The generation job was abandoned: it did not finish in time and no worker holds it any more. No credits were charged.';

const generationKey = (eshopId: number, jobId: number): string => `${eshopId}:${jobId}`;

/** The generation rows that live queue jobs carry, read in one atomic snapshot of the queue. */
async function liveGenerations(deps: SweepDeps): Promise<Set<string>> {
  const jobs = await deps.queues.generate.getJobs([...LIVE_STATES]);
  return new Set(jobs.map((job) => generationKey(job.data.eshop_id, job.data.job_id)));
}

async function failAbandonedGenerations(deps: SweepDeps): Promise<number> {
  const idleSeconds = deps.sweep.jobDeadlineMs / 1000;
  const stale = await generationJobsRepository.staleUnfinished(deps.db, idleSeconds, deps.sweep.batch);
  if (stale.length === 0) return 0;
  const live = await liveGenerations(deps);
  let failed = 0;
  for (const job of stale) {
    if (live.has(generationKey(job.eshopId, job.id))) continue;
    const result = await failGeneration(deps, job.eshopId, job.id, {
      message: ABANDONED_MESSAGE,
      provider: null,
      usage: null,
    });
    // Another delivery may have ended it meanwhile; only what this sweep ended counts.
    if (result.outcome === 'failed') failed += 1;
  }
  deps.sweepMetrics.swept.inc({ kind: 'generation_job' }, failed);
  return failed;
}

async function requeueStuckItems(deps: SweepDeps): Promise<number> {
  const idleSeconds = deps.sweep.itemDeadlineMs / 1000;
  const stuck = await stuckItemsRepository.waitingForRender(deps.db, idleSeconds, deps.sweep.batch);
  const queue = deps.queues['render-content'];
  const deduplicationId = (item: StuckItem): string =>
    `sweep-render-${item.eshopId}-${item.entityType}-${item.externalId}`;
  // While a sweep's render job of an item is unfinished, later sweeps add none, so a long render
  // backlog does not fill up with copies (the add is deduplicated too, for sweeps that race).
  const pending = await Promise.all(stuck.map((item) => queue.getDeduplicationJobId(deduplicationId(item))));
  const missing = stuck.filter((_, index) => pending[index] === null);
  // One item per job: an item that cannot render must not hold back the others.
  await queue.addBulk(
    missing.map((item) => ({
      name: 'render-content' as const,
      data: { eshop_id: item.eshopId, entity_type: item.entityType, external_ids: [item.externalId] },
      opts: { deduplication: { id: deduplicationId(item) } },
    })),
  );
  deps.sweepMetrics.swept.inc({ kind: 'catalogue_item' }, missing.length);
  return missing.length;
}

async function deleteExpiredIdempotencyKeys(deps: SweepDeps): Promise<number> {
  const deleted = await idempotencyRepository.deleteExpired(deps.db, deps.sweep.batch);
  deps.sweepMetrics.swept.inc({ kind: 'idempotency_key' }, deleted);
  return deleted;
}

export async function sweepStaleWork(deps: SweepDeps): Promise<SweepResult> {
  const result = {
    generation_jobs_failed: await failAbandonedGenerations(deps),
    items_requeued: await requeueStuckItems(deps),
    idempotency_keys_expired: await deleteExpiredIdempotencyKeys(deps),
  };
  // Expired keys are routine, not lost work: they alone do not warn.
  if (result.generation_jobs_failed > 0 || result.items_requeued > 0) {
    deps.logger.warn(result, 'stale work swept');
  }
  return result;
}
