/**
 * The stale-work sweeper: finds work that nothing will finish any more and ends or restarts it.
 *
 * - A generation job row stays `pending`/`running` when its BullMQ job is gone (Redis lost it,
 *   or the white-label API committed the row and could not queue it) or failed for good without
 *   its handler running (BullMQ gave up on a job that stalled too often). Once the row has been
 *   idle for longer than any generation may take and no live queue job carries it: a job Redis
 *   no longer knows at all is queued again under its own id (`generate-<job_id>`): the row and
 *   its context are in PostgreSQL, so accepted work is finished, never dropped for want of
 *   Redis; it is charged once, as the generation stores its result only on an unfinished row.
 *   A job BullMQ has finished with (failed for good, or completed without ending the row) is
 *   ended `failed` through the same path as a provider failure, which queues its release under
 *   `settle-<job_id>`: settled once, however often the sweep runs.
 * - After Redis lost its data (a worker found the marker key gone, see handlers/index.ts), one
 *   sweep runs at once with every idle deadline at zero: all unfinished work without a live job
 *   is lost work, re-queued within seconds instead of after the deadlines. A job the API queues
 *   meanwhile carries the same id as the sweep's (or is a render, which is idempotent).
 * - A finished (`done`/`failed`) generation job keeps its credit reservation when Redis lost its
 *   `settle-<job_id>` job (or the process died before queueing it). Once it has been finished
 *   for longer than a settlement takes (`settlementGraceMs`) and no settlement has charged or
 *   released it (`reservation_settled`, set by every settlement), it is settled here from
 *   PostgreSQL's facts: the stored charged cost of a `done` job, nothing for a `failed` one.
 *   settleReservation locks the account and settles once, so a settlement job still in flight
 *   and this sweep cannot both charge. (Listing batches reserve no credits.)
 * - A catalogue item stays in `generate` when Redis failed right after its import committed, or
 *   lost the job. Once it has been idle for a few minutes and no live render job carries it (an
 *   item merely waiting in a long backlog is left alone), a `render-content` job is queued for
 *   it again (rendering is idempotent), one job per item, at most one in flight per item.
 * - A listing row stays `pending`/`processing` when its enrichment job was never queued or was
 *   lost. Once idle past the generation deadline with no job under its id, it is queued again.
 * - An Idempotency-Key kept past its 24 hours is deleted (lookups ignore it already; this only
 *   bounds the table).
 * - An event older than `EVENT_RETENTION_DAYS` is deleted (the change feed then answers 410 to a
 *   cursor before it; webhook relays have moved past it long before).
 * - A content revision is deleted when its entity has `CONTENT_REVISIONS_KEEP` newer ones, or
 *   when it is older than `CONTENT_REVISIONS_DAYS` and not its entity's newest (the content as
 *   it stands stays restorable).
 * - The eshops' lines of a fair queue in which no job waits are forgotten (their counts drifted).
 * - A bulk generation still moving (`queued`/`running`) whose row has not changed for the
 *   settlement grace gets a step (`generate` with its batch id): Redis may have lost its step or
 *   the process died between an item's settlement and queueing the next. A step with nothing to
 *   start changes nothing, so a batch that is merely slow is not harmed.
 *
 * Each kind is paged through to the end in one sweep (recovery after Redis lost everything is
 * not capped at one page per minute). It runs as a job of its own queue, queued by a BullMQ job
 * scheduler: one sweep per period across all replicas, and two overlapping sweeps are harmless.
 */
import { CATALOGUE_ENTITY_TYPES } from '@catalogue/config';
import { settleReservation } from '@catalogue/credits';
import {
  contentRevisionsRepository,
  eventsRepository,
  generationJobsRepository,
  idempotencyRepository,
  stuckItemsRepository,
} from '@catalogue/db';
import {
  addFair,
  enqueue,
  FAIR_QUEUES,
  generateJobId,
  isBatchStep,
  listingJobId,
  resetIdleLines,
  sweepRenderDeduplicationId,
} from '@catalogue/queue';
import { afterItemSettled, nudgeIdleBatches } from '@catalogue/generation';
import type { SweepMetrics } from '../metrics';
import { failGeneration, type EndDeps } from './generation-end';

export interface SweepOptions {
  /** A generation row idle this long, with no live queue job, is ended `failed`. */
  jobDeadlineMs: number;
  /** A finished generation job unsettled this long is settled by the sweep. */
  settlementGraceMs: number;
  /** An item in `generate` idle this long gets a render job again. */
  itemDeadlineMs: number;
  /** Rows read per page; a sweep reads pages until none is left. */
  batch: number;
  /** Events older than this many days are deleted. */
  eventRetentionDays: number;
  /** Content revisions kept per entity (its newest). */
  revisionsKeep: number;
  /** Content revisions older than this many days are deleted (never an entity's newest). */
  revisionRetentionDays: number;
}

export type SweepDeps = EndDeps & {
  sweepMetrics: SweepMetrics;
  sweep: SweepOptions;
};

export interface SweepResult {
  generation_jobs_failed: number;
  generation_jobs_requeued: number;
  settlements_recovered: number;
  items_requeued: number;
  listing_rows_requeued: number;
  idempotency_keys_expired: number;
  events_expired: number;
  content_revisions_expired: number;
  /** Bulk generations idle past the settlement grace that were given a step. */
  batches_nudged: number;
}

/** States in which a queue job will still run (or is running). */
const LIVE_STATES = ['active', 'waiting', 'delayed', 'prioritized', 'waiting-children'] as const;

export const ABANDONED_MESSAGE =
  'The generation job was abandoned: it did not finish in time and no worker holds it any more. No credits were charged.';

const generationKey = (eshopId: number, jobId: number): string => `${eshopId}:${jobId}`;

/** Every page of rows `read` finds, in id order: a sweep reads to the end, not one page a period. */
async function* pages<T extends { id: number }>(
  batch: number,
  read: (afterId: number) => Promise<T[]>,
): AsyncGenerator<T[]> {
  for (let afterId = 0; ;) {
    const page = await read(afterId);
    if (page.length > 0) yield page;
    if (page.length < batch) return;
    afterId = page[page.length - 1]!.id;
  }
}

/** The generation rows that live queue jobs carry, read in one atomic snapshot of the queue. */
async function liveGenerations(deps: SweepDeps): Promise<Set<string>> {
  const jobs = await deps.queues.generate.getJobs([...LIVE_STATES]);
  return new Set(
    jobs.flatMap((job) => (isBatchStep(job.data) ? [] : [generationKey(job.data.eshop_id, job.data.job_id)])),
  );
}

/** Unfinished generation rows without a live job: queued again when lost, else ended `failed`. */
async function recoverGenerations(
  deps: SweepDeps,
  idleSeconds: number,
): Promise<{ failed: number; requeued: number }> {
  let live: Set<string> | undefined;
  let failed = 0;
  let requeued = 0;
  const stalePages = pages(deps.sweep.batch, (afterId) =>
    generationJobsRepository.staleUnfinished(deps.db, idleSeconds, deps.sweep.batch, afterId),
  );
  for await (const stale of stalePages) {
    live ??= await liveGenerations(deps);
    for (const job of stale) {
      if (live.has(generationKey(job.eshopId, job.id))) continue;
      const state = await deps.queues.generate.getJobState(generateJobId(job.id));
      if (state === 'unknown') {
        // Redis lost it (or the API never queued it): the row holds everything the job needs.
        await enqueue(
          deps.queues,
          'generate',
          { eshop_id: job.eshopId, job_id: job.id },
          { jobId: generateJobId(job.id) },
        );
        requeued += 1;
        continue;
      }
      const result = await failGeneration(deps, job.eshopId, job.id, {
        message: ABANDONED_MESSAGE,
        provider: null,
        usage: null,
      });
      // Another delivery may have ended it meanwhile; only what this sweep ended counts.
      if (result.outcome === 'failed') failed += 1;
    }
  }
  deps.sweepMetrics.swept.inc({ kind: 'generation_job' }, failed);
  deps.sweepMetrics.swept.inc({ kind: 'generation_job_requeued' }, requeued);
  if (requeued > 0) deps.logger.warn({ requeued }, 'lost generation jobs queued again');
  return { failed, requeued };
}

/** Finished jobs whose settlement was lost: settled from the job's row, once (see the header). */
async function settleLostSettlements(deps: SweepDeps, idleSeconds: number): Promise<number> {
  let settled = 0;
  const unsettledPages = pages(deps.sweep.batch, (afterId) =>
    generationJobsRepository.finishedUnsettled(deps.db, idleSeconds, deps.sweep.batch, afterId),
  );
  for await (const jobs of unsettledPages) {
    for (const job of jobs) {
      const actualCost = job.status === 'done' ? (job.chargedCost ?? 0) : 0;
      const result = await deps.db.transaction((trx) =>
        settleReservation(trx, job.eshopId, job.id, actualCost),
      );
      // A bulk generation's item: its batch goes on.
      if (result.batchId !== undefined) await afterItemSettled(deps, job.eshopId, result.batchId, job.id);
      // A settlement job may have got there meanwhile ('duplicate'): only what this sweep settled counts.
      if (result.outcome === 'settled') {
        settled += 1;
        deps.logger.warn(
          { eshop_id: job.eshopId, job_id: job.id, charged: result.charged, released: result.released },
          'lost credit settlement recovered',
        );
      }
    }
  }
  deps.sweepMetrics.swept.inc({ kind: 'settlement' }, settled);
  return settled;
}

const itemKey = (eshopId: number, type: string, externalId: string): string =>
  `${eshopId}:${type}:${externalId}`;

/** The items that live render jobs carry (waiting in a backlog, delayed for a retry, running). */
async function liveRenders(deps: SweepDeps): Promise<Set<string>> {
  const jobs = await deps.queues['render-content'].getJobs([...LIVE_STATES]);
  const keys = new Set<string>();
  for (const { data } of jobs) {
    for (const id of data.external_ids) keys.add(itemKey(data.eshop_id, data.entity_type, id));
  }
  return keys;
}

async function requeueStuckItems(deps: SweepDeps, idleSeconds: number): Promise<number> {
  const queue = deps.queues['render-content'];
  let live: Set<string> | undefined;
  let requeued = 0;
  for (const type of CATALOGUE_ENTITY_TYPES) {
    const stuckPages = pages(deps.sweep.batch, (afterId) =>
      stuckItemsRepository.waitingForRender(deps.db, type, idleSeconds, deps.sweep.batch, afterId),
    );
    for await (const stuck of stuckPages) {
      live ??= await liveRenders(deps);
      const lost = stuck.filter(
        (item) => !live!.has(itemKey(item.eshopId, item.entityType, item.externalId)),
      );
      // While a sweep's render job of an item is unfinished, later sweeps add none (the add is
      // deduplicated too, for sweeps that race).
      const pending = await Promise.all(
        lost.map((item) => queue.getDeduplicationJobId(sweepRenderDeduplicationId(item))),
      );
      const missing = lost.filter((_, index) => pending[index] === null);
      // One item per job: an item that cannot render must not hold back the others. Fair like
      // the imports' jobs, so one eshop's recovery does not hold back another's.
      await addFair(
        queue,
        'render-content',
        missing.map((item) => ({
          data: { eshop_id: item.eshopId, entity_type: item.entityType, external_ids: [item.externalId] },
          opts: { deduplication: { id: sweepRenderDeduplicationId(item) } },
        })),
      );
      requeued += missing.length;
    }
  }
  deps.sweepMetrics.swept.inc({ kind: 'catalogue_item' }, requeued);
  return requeued;
}

/** Listing rows whose enrichment job is gone (not merely waiting: a live job keeps its id). */
async function requeueStuckListingRows(deps: SweepDeps, idleSeconds: number): Promise<number> {
  const queue = deps.queues['listing-enrichment'];
  let requeued = 0;
  const rowPages = pages(deps.sweep.batch, (afterId) =>
    stuckItemsRepository.unfinishedListingRows(deps.db, idleSeconds, deps.sweep.batch, afterId),
  );
  for await (const rows of rowPages) {
    const states = await Promise.all(rows.map((row) => queue.getJobState(listingJobId(row.id))));
    // 'unknown': no job under the row's id any more. A finished job whose row is unfinished
    // failed to end it; it is not run again here.
    const lost = rows.filter((_, index) => states[index] === 'unknown');
    await addFair(
      queue,
      'listing-enrichment',
      lost.map((row) => ({
        data: { eshop_id: row.eshopId, batch_id: row.batchId, row_id: row.id },
        opts: { jobId: listingJobId(row.id) },
      })),
    );
    requeued += lost.length;
  }
  deps.sweepMetrics.swept.inc({ kind: 'listing_row' }, requeued);
  return requeued;
}

async function deleteExpiredIdempotencyKeys(deps: SweepDeps): Promise<number> {
  const deleted = await idempotencyRepository.deleteExpired(deps.db, deps.sweep.batch);
  deps.sweepMetrics.swept.inc({ kind: 'idempotency_key' }, deleted);
  return deleted;
}

/** Events deleted per statement: small enough to keep each delete short, to the end per sweep. */
const EVENT_DELETE_BATCH = 5_000;

async function deleteExpiredEvents(deps: SweepDeps): Promise<number> {
  let deleted = 0;
  for (;;) {
    const count = await eventsRepository.deleteOlderThan(
      deps.db,
      deps.sweep.eventRetentionDays,
      EVENT_DELETE_BATCH,
    );
    deleted += count;
    if (count < EVENT_DELETE_BATCH) break;
  }
  deps.sweepMetrics.swept.inc({ kind: 'event' }, deleted);
  return deleted;
}

/** Entities trimmed, and old revisions deleted, per statement: short statements, to the end per sweep. */
const REVISION_ENTITY_BATCH = 500;
const REVISION_DELETE_BATCH = 5_000;

async function deleteExpiredRevisions(deps: SweepDeps): Promise<number> {
  let deleted = 0;
  for (;;) {
    const trimmed = await contentRevisionsRepository.trimToCount(
      deps.db,
      deps.sweep.revisionsKeep,
      REVISION_ENTITY_BATCH,
    );
    deleted += trimmed.deleted;
    if (trimmed.entities < REVISION_ENTITY_BATCH) break;
  }
  for (;;) {
    const count = await contentRevisionsRepository.deleteOlderThan(
      deps.db,
      deps.sweep.revisionRetentionDays,
      REVISION_DELETE_BATCH,
    );
    deleted += count;
    if (count < REVISION_DELETE_BATCH) break;
  }
  deps.sweepMetrics.swept.inc({ kind: 'content_revision' }, deleted);
  return deleted;
}

/**
 * The eshops' lines (libs/queue fair.ts) of every fair queue in which nothing waits are
 * forgotten: what they still count is drift, which would otherwise hold an eshop back for good.
 */
async function resetFairLines(deps: SweepDeps): Promise<void> {
  for (const name of FAIR_QUEUES) await resetIdleLines(deps.queues[name], name);
}

/**
 * One sweep. `afterRedisLoss`: Redis was found emptied, so every idle deadline is zero (all
 * unfinished work without a live job was lost with it).
 */
export async function sweepStaleWork(
  deps: SweepDeps,
  { afterRedisLoss = false }: { afterRedisLoss?: boolean } = {},
): Promise<SweepResult> {
  const idle = (ms: number): number => (afterRedisLoss ? 0 : ms / 1000);
  const generations = await recoverGenerations(deps, idle(deps.sweep.jobDeadlineMs));
  const result = {
    generation_jobs_failed: generations.failed,
    generation_jobs_requeued: generations.requeued,
    settlements_recovered: await settleLostSettlements(deps, idle(deps.sweep.settlementGraceMs)),
    items_requeued: await requeueStuckItems(deps, idle(deps.sweep.itemDeadlineMs)),
    listing_rows_requeued: await requeueStuckListingRows(deps, idle(deps.sweep.jobDeadlineMs)),
    idempotency_keys_expired: await deleteExpiredIdempotencyKeys(deps),
    events_expired: await deleteExpiredEvents(deps),
    content_revisions_expired: await deleteExpiredRevisions(deps),
    batches_nudged: await nudgeIdleBatches(deps, idle(deps.sweep.settlementGraceMs)),
  };
  await resetFairLines(deps);
  // Expired keys, events and revisions are routine, not lost work: they alone do not warn.
  if (
    result.generation_jobs_failed > 0 ||
    result.generation_jobs_requeued > 0 ||
    result.settlements_recovered > 0 ||
    result.items_requeued > 0 ||
    result.listing_rows_requeued > 0
  ) {
    deps.logger.warn(result, 'stale work swept');
  }
  return result;
}
