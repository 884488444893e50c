/**
 * One step of a bulk generation (a `generate` job with a batch id), set-based:
 * 1. `stepBatch` (libs/generation) starts the batch's next items in one transaction: their
 *    plans, job rows, reservations and budget share;
 * 2. this worker takes the batch's jobs no worker has started (`claimPending`: those it just
 *    made, and those of a step that died after its commit) and runs them in this process, a few
 *    at a time (`inFlight`), each writing its content as a single generation does; it takes no
 *    more after `BATCH_STEP_MS`, so pause and cancel act within seconds and other work of the
 *    worker runs between its items;
 * 3. it settles every ended job of the batch's items under way in one transaction
 *    (`settleReservations`), then queues the next step.
 * A crash anywhere is recovered by what the single generation relies on: the next step (BullMQ
 * delivers a stalled step again; the sweeper nudges an idle batch) takes the pending jobs and
 * settles the ended ones; a job a dead worker held is the sweeper's, as any generation's; the
 * settlement is exactly once per job whoever settles it.
 */
import { settleReservations } from '@catalogue/credits';
import { BATCH_STEP_MS, nextStep, stepBatch } from '@catalogue/generation';
import { generationBatchesRepository, generationJobsRepository } from '@catalogue/db';
import { newInputsMemo, runClaimedGeneration } from './generate.service';
import type { GenerationDeps } from './generation-end';

/** Jobs a step runs at once with the builtin provider: CPU-bound, so only enough to overlap its database waits. */
export const BUILTIN_IN_FLIGHT = 4;

export interface BatchStepResult {
  outcome: 'batch_step';
  /** Items the step started (job rows made and reserved). */
  started: number;
  /** Jobs it ran. */
  ran: number;
  /** Jobs it settled. */
  settled: number;
}

const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs `jobs` with at most `limit` at once. */
async function pooled<T>(
  items: readonly T[],
  limit: number,
  run: (item: T) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await run(items[next++]!);
  });
  await Promise.all(lanes);
}

export async function runBatchStep(
  deps: GenerationDeps,
  eshopId: number,
  batchId: number,
): Promise<BatchStepResult> {
  const deadline = Date.now() + BATCH_STEP_MS;
  const started = await stepBatch({ ...deps, maxResearchUrls: deps.research.maxUrls }, eshopId, batchId);
  const inFlight =
    deps.provider.name === 'builtin' ? BUILTIN_IN_FLIGHT : (deps.batchInFlight ?? BUILTIN_IN_FLIGHT);
  const memo = newInputsMemo();
  let ran = 0;
  let last = 0;
  // One round at least, however long the start took: every step moves its batch on.
  for (let round = 0; round === 0 || Date.now() < deadline; round++) {
    const ids = await generationBatchesRepository.claimPending(deps.db, eshopId, batchId, inFlight);
    if (ids.length === 0) break;
    const jobs = await generationJobsRepository.findMany(deps.db, eshopId, ids);
    await pooled(jobs, inFlight, async (job) => {
      await runClaimedGeneration(deps, job, memo);
      // Between items, the worker's other jobs (another eshop's generation, renders) run.
      await yieldToOthers();
    });
    ran += ids.length;
    last = Math.max(last, ...ids);
  }
  const ended = await generationBatchesRepository.endedUnsettled(deps.db, eshopId, batchId);
  const settled =
    ended.length === 0
      ? 0
      : (await deps.db.transaction((trx) => settleReservations(trx, eshopId, ended))).settled;
  const batch = await generationBatchesRepository.find(deps.db, eshopId, batchId);
  if (batch && batch.finishedAt === null && started + ran + settled > 0) {
    // A name of its own (a completed step's id is kept a while, and BullMQ ignores an add under
    // it): a step delivered again may queue a second next step, which finds nothing and ends.
    await nextStep(deps, eshopId, batchId, `next-${Date.now()}-${last}`);
  }
  return { outcome: 'batch_step', started, ran, settled };
}
