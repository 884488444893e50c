/**
 * One step of a bulk generation (a `generate` job with a batch id), set-based:
 * 1. `stepBatch` (libs/generation) starts the batch's next items in one transaction: their
 *    plans, job rows, reservations and budget share (up to `BATCH_WINDOW` under way);
 * 2. this worker runs the batch's jobs no worker has started (`claimPending`: those it just made,
 *    and those of a step that died after its commit) in a few lanes. With a model,
 *    `WORKER_CONCURRENCY` lanes up to `BATCH_LANES_MAX`, each writing its content as a single
 *    generation does and taking the next job as soon as its own is written; with the builtin
 *    provider (CPU-bound), `BUILTIN_IN_FLIGHT` lanes, each taking `BUILTIN_CHUNK` jobs at once
 *    and storing them in one set-based transaction. While fewer started jobs are left than the
 *    lanes take, the ended items are settled in one transaction (`settleReservations`) and the
 *    next ones started (`stepBatch` again, the window permitting) beside the lanes. The lanes
 *    take no more after `BATCH_STEP_MS`, so pause and cancel act within seconds and other work
 *    of the worker runs between its items;
 * 3. at its deadline it queues the next step and hands it the lanes still on an item (see
 *    `ProcessLanes`), then settles what ended.
 * A crash anywhere is recovered by what the single generation relies on: the next step (BullMQ
 * delivers a stalled step again; the sweeper nudges an idle batch) takes the pending jobs and
 * settles the ended ones; a job a dead worker held is the sweeper's, as any generation's; the
 * settlement is exactly once per job whoever settles it.
 */
import { setTimeout as wait } from 'node:timers/promises';
import { settleReservations } from '@catalogue/credits';
import { BATCH_LANES_MAX, BATCH_STEP_MS, BATCH_WINDOW, nextStep, stepBatch } from '@catalogue/generation';
import { generationBatchesRepository, generationJobsRepository } from '@catalogue/db';
import { newInputsMemo, runClaimedGenerations } from './generate.service';
import type { GenerationDeps } from './generation-end';

/** Lanes a step runs with the builtin provider: CPU-bound, so only enough to overlap one lane's database waits with another's work. */
export const BUILTIN_IN_FLIGHT = 2;

/**
 * Jobs a builtin lane takes at once, generates one after another and stores in one transaction
 * (set-based: about as many statements for all of them as for one): its share of the batch's
 * window.
 */
export const BUILTIN_CHUNK = BATCH_WINDOW / BUILTIN_IN_FLIGHT;

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

/** The lanes a step runs: a few with the builtin provider (CPU-bound), else the worker's concurrency up to the batch's lanes. */
const lanesOf = (deps: GenerationDeps): number =>
  deps.provider.name === 'builtin'
    ? BUILTIN_IN_FLIGHT
    : Math.min(deps.batchInFlight ?? BUILTIN_IN_FLIGHT, BATCH_LANES_MAX);

/**
 * The lanes of a batch in this process, shared by its steps. Each lane takes the batch's started
 * jobs one after another, the next as soon as its own is written, so lanes whose answers came
 * together drift apart instead of starting and answering together again (their writes would
 * queue behind each other every round). A step that reaches its deadline queues the next step at
 * once and lets its lanes finish their item under it; the next step takes over each lane as it
 * ends, so the lanes run on across steps instead of all draining at each step's end.
 */
interface ProcessLanes {
  running: Set<Promise<void>>;
  /** Steps of the batch under way in this process. */
  steps: number;
  /** How long an item takes in a lane here (a moving average; 0 before the first is written). */
  itemMs: number;
  /** When the next item may start (epoch ms): items start `itemMs / lanes` apart at least. */
  nextStartAt: number;
}

/** The weight of the latest item in `itemMs`. */
const ITEM_MS_WEIGHT = 0.2;

const lanesInProcess = new Map<string, ProcessLanes>();

function joinLanes(key: string): ProcessLanes {
  const lanes = lanesInProcess.get(key) ?? { running: new Set(), steps: 0, itemMs: 0, nextStartAt: 0 };
  lanes.steps += 1;
  lanesInProcess.set(key, lanes);
  return lanes;
}

/** A step leaves once its own lanes have ended; the last one takes the entry away. */
function leaveLanes(key: string, lanes: ProcessLanes): void {
  lanes.steps -= 1;
  if (lanes.steps === 0) lanesInProcess.delete(key);
}

/** Resolves after `ms` without keeping the process up. */
const after = (ms: number) => wait(Math.max(0, ms), undefined, { ref: false });

export async function runBatchStep(
  deps: GenerationDeps,
  eshopId: number,
  batchId: number,
): Promise<BatchStepResult> {
  const key = `${eshopId}:${batchId}`;
  const shared = joinLanes(key);
  try {
    return await stepWithLanes(deps, eshopId, batchId, shared);
  } finally {
    leaveLanes(key, shared);
  }
}

async function stepWithLanes(
  deps: GenerationDeps,
  eshopId: number,
  batchId: number,
  shared: ProcessLanes,
): Promise<BatchStepResult> {
  const deadline = Date.now() + BATCH_STEP_MS;
  const stepDeps = { ...deps, maxResearchUrls: deps.research.maxUrls };
  const lanes = lanesOf(deps);
  const memo = newInputsMemo();
  let started = await stepBatch(stepDeps, eshopId, batchId);
  // Started jobs this step expects to find pending (a dead step's are found too, uncounted).
  let stock = started;
  let ran = 0;
  let settled = 0;
  let last = 0;
  let failure: unknown;
  const fail = (err: unknown) => void (failure ??= err);
  let refilling: Promise<number> | undefined;

  /** Settles the ended items and starts the next ones (as many as the window allows), one refill at a time; how many it started. */
  const refill = (): Promise<number> =>
    (refilling ??= (async () => {
      settled += await settleEnded(deps, eshopId, batchId);
      const more = await stepBatch(stepDeps, eshopId, batchId);
      started += more;
      stock += more;
      return more;
    })().finally(() => (refilling = undefined)));

  // With a model, items start spread over an item's time: lanes started together would answer
  // together and their writes queue behind each other on this thread every round. (A builtin
  // item is this thread's work from start to end: nothing to spread; its lanes take a chunk.)
  const builtin = deps.provider.name === 'builtin';
  const spread = !builtin;
  const perLane = builtin ? BUILTIN_CHUNK : 1;

  /** Started jobs of the batch (up to `perLane`), taken; when none is left, those the next refill starts. */
  const claim = async (): Promise<number[]> => {
    const take = () => generationBatchesRepository.claimPending(deps.db, eshopId, batchId, perLane);
    let ids = await take();
    // After a refill, this step's or another's, the jobs it started are taken.
    if (ids.length === 0) {
      await refill();
      ids = await take();
    }
    stock = Math.max(0, stock - ids.length);
    return ids;
  };

  /**
   * One lane: jobs one after another until the deadline (one at least, however long the start
   * took: every step moves its batch on). While fewer started jobs are left than lanes, the
   * ended items are settled and the next started beside the lanes (`refill`), so that a lane
   * seldom waits for that bookkeeping.
   */
  const lane = async (): Promise<void> => {
    for (let first = true; failure === undefined && (first || Date.now() < deadline); first = false) {
      const now = Date.now();
      const startAt = Math.max(now, shared.nextStartAt);
      shared.nextStartAt = startAt + (spread ? shared.itemMs / lanes : 0);
      if (startAt > now) {
        await after(startAt - now);
        if (!first && Date.now() >= deadline) return;
      }
      const ids = await claim();
      if (ids.length === 0) return;
      last = Math.max(last, ...ids);
      const jobs = await generationJobsRepository.findMany(deps.db, eshopId, ids);
      const began = Date.now();
      await runClaimedGenerations(deps, jobs, memo);
      const took = (Date.now() - began) / Math.max(1, jobs.length);
      shared.itemMs = shared.itemMs === 0 ? took : shared.itemMs + ITEM_MS_WEIGHT * (took - shared.itemMs);
      ran += jobs.length;
      if (stock < lanes * perLane && refilling === undefined) refill().catch(fail);
      // Between items, the worker's other jobs (another eshop's generation, renders) run.
      await yieldToOthers();
    }
  };

  /** This step's lanes (each also in `shared.running`). */
  const own = new Set<Promise<void>>();
  const fill = () => {
    for (let free = lanes - shared.running.size; free > 0; free--) {
      const running: Promise<void> = lane()
        .catch(fail)
        .finally(() => {
          own.delete(running);
          shared.running.delete(running);
        });
      own.add(running);
      shared.running.add(running);
    }
  };
  fill();
  // Lanes of the step before still finishing their item here: each is taken over as it ends.
  for (;;) {
    const theirs = [...shared.running].filter((running) => !own.has(running));
    if (theirs.length === 0 || failure !== undefined || Date.now() >= deadline) break;
    await Promise.race([...theirs, after(deadline - Date.now())]);
    fill();
  }
  await Promise.race([Promise.all(own), after(deadline - Date.now())]);
  // A name of its own (a completed step's id is kept a while, and BullMQ ignores an add under
  // it): a step delivered again may queue a second next step, which finds nothing and ends.
  const next = () => nextStep(deps, eshopId, batchId, `next-${Date.now()}-${last}`);
  // Lanes still on their item at the deadline are handed over: the next step is queued now and
  // takes each lane as it ends. (A failure is not handed on: the step fails and is delivered again.)
  const handedOver = own.size > 0 && failure === undefined;
  if (handedOver) await next();
  await Promise.all(own);
  await refilling?.catch(() => undefined);
  // A job or refill that threw fails the step (BullMQ delivers it again) once the others have ended.
  if (failure !== undefined) throw failure;
  settled += await settleEnded(deps, eshopId, batchId);
  // Each step queues one next step at most, so a batch has one line of steps.
  if (handedOver) return { outcome: 'batch_step', started, ran, settled };
  const batch = await generationBatchesRepository.find(deps.db, eshopId, batchId);
  if (!batch || batch.finishedAt !== null) return { outcome: 'batch_step', started, ran, settled };
  const moved = started + ran + settled > 0;
  // Items under way that this step did not take (lanes handed to it by a step in another worker
  // process, a slow model's answer): it waits out its time, then the line goes on.
  const underWay = batch.reserved > 0;
  if (!moved && underWay) await after(deadline - Date.now());
  if (moved || underWay) await next();
  return { outcome: 'batch_step', started, ran, settled };
}
