/**
 * One step of a bulk generation (a `generate` job with a batch id), set-based:
 * 1. `stepBatch` (libs/generation) starts the batch's next items in one transaction: their
 *    plans, job rows, reservations and budget share;
 * 2. this worker takes the batch's jobs no worker has started (`claimPending`: those it just
 *    made, and those of a step that died after its commit) and runs them in this process in a
 *    few lanes (`WORKER_CONCURRENCY` with a model, `BUILTIN_IN_FLIGHT` with the builtin
 *    provider), each writing its content as a single generation does. A lane that ends takes
 *    the next pending job; when none is left, the ended items are settled in one transaction
 *    (`settleReservations`) and the next ones started (`stepBatch` again, the window
 *    permitting). It takes no more after `BATCH_STEP_MS`, so pause and cancel act within
 *    seconds and other work of the worker runs between its items;
 * 3. it settles what ended last, then queues the next step.
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

/** Settles the batch's ended, unsettled items in one transaction; returns how many. */
async function settleEnded(deps: GenerationDeps, eshopId: number, batchId: number): Promise<number> {
  const ended = await generationBatchesRepository.endedUnsettled(deps.db, eshopId, batchId);
  if (ended.length === 0) return 0;
  return (await deps.db.transaction((trx) => settleReservations(trx, eshopId, ended))).settled;
}

export async function runBatchStep(
  deps: GenerationDeps,
  eshopId: number,
  batchId: number,
): Promise<BatchStepResult> {
  const deadline = Date.now() + BATCH_STEP_MS;
  const stepDeps = { ...deps, maxResearchUrls: deps.research.maxUrls };
  const lanes =
    deps.provider.name === 'builtin' ? BUILTIN_IN_FLIGHT : (deps.batchInFlight ?? BUILTIN_IN_FLIGHT);
  const memo = newInputsMemo();
  let started = await stepBatch(stepDeps, eshopId, batchId);
  let ran = 0;
  let settled = 0;
  let last = 0;
  const running = new Set<Promise<void>>();
  let failure: unknown;

  /**
   * Pending jobs of the batch for `free` lanes; when there are fewer, the ended items are
   * settled and the next ones started first (as many as the window then allows).
   */
  const claim = async (free: number): Promise<number[]> => {
    const ids = await generationBatchesRepository.claimPending(deps.db, eshopId, batchId, free);
    if (ids.length === free) return ids;
    settled += await settleEnded(deps, eshopId, batchId);
    const more = await stepBatch(stepDeps, eshopId, batchId);
    started += more;
    if (more === 0) return ids;
    return [
      ...ids,
      ...(await generationBatchesRepository.claimPending(deps.db, eshopId, batchId, free - ids.length)),
    ];
  };

  // Lanes kept busy until the deadline: each job that ends frees its lane for the next (settled
  // and started as the batch goes), so the model's answers overlap instead of each round
  // waiting for its slowest. One round at least, however long the start took: every step
  // moves its batch on.
  for (let round = 0; failure === undefined && (round === 0 || Date.now() < deadline); round++) {
    const free = lanes - running.size;
    const ids = free > 0 ? await claim(free) : [];
    for (const job of await generationJobsRepository.findMany(deps.db, eshopId, ids)) {
      const lane: Promise<void> = runClaimedGeneration(deps, job, memo)
        .then(
          () => void (ran += 1),
          (err: unknown) => void (failure ??= err),
        )
        .finally(() => running.delete(lane));
      running.add(lane);
    }
    last = Math.max(last, ...ids);
    if (running.size === 0) break;
    // Lanes that ended while this claim ran are refilled before waiting on the others: a claim
    // that settles and starts takes long enough for most of a round's lanes to end meanwhile.
    if (ids.length > 0 && running.size < lanes) continue;
    await Promise.race(running);
    // Between items, the worker's other jobs (another eshop's generation, renders) run, and the
    // lanes that ended meanwhile are refilled together.
    await yieldToOthers();
  }
  await Promise.all(running);
  // A job that threw fails the step (BullMQ delivers it again) once the others have ended.
  if (failure !== undefined) throw failure;
  settled += await settleEnded(deps, eshopId, batchId);
  const batch = await generationBatchesRepository.find(deps.db, eshopId, batchId);
  if (batch && batch.finishedAt === null && started + ran + settled > 0) {
    // A name of its own (a completed step's id is kept a while, and BullMQ ignores an add under
    // it): a step delivered again may queue a second next step, which finds nothing and ends.
    await nextStep(deps, eshopId, batchId, `next-${Date.now()}-${last}`);
  }
  return { outcome: 'batch_step', started, ran, settled };
}
