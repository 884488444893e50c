/**
 * Bulk generation (beyond the specification): one home for its rules, used by catalogue-api
 * (start, dry run, read, pause, resume, cancel), white-label-api (the editor's host page reads
 * and acts), the generation worker (each step starts the next items), credit-service (an item's
 * settlement lets the batch go on) and the admin CLI.
 *
 * Each item (an entity in one language) becomes a single generation job, planned and priced
 * exactly as `POST …/generate` plans it (`planGeneration`), written by the same code and
 * recovered by the same sweeper, but started and settled set-based, a step at a time: a step
 * (`stepBatch`) plans up to `BATCH_WINDOW` items and makes their job rows, reservations and
 * budget share with one statement each; the worker that ran the step runs those jobs in its own
 * process, up to `BATCH_LANES_MAX` at once, for about `BATCH_STEP_MS`, settling the ended ones
 * in one transaction (`settleReservations`) and starting the next beside its lanes, then queues
 * the next step. The database holds `reserved + charged ≤ budget` (a CHECK on
 * `generation_batches`), one job per item and one charge per job, so no fault can spend more than
 * the shop allowed or charge an item twice. Steps go through the fair `generate` queue, and a
 * step's worker lets its other jobs run between items.
 */
import { isOneOf, isRecord } from '@catalogue/config';
import { CATALOGUE_TYPE_OF, generationMaterials } from '@catalogue/content-store';
import { settleReservation } from '@catalogue/credits';
import {
  creditsRepository,
  eshopsRepository,
  generationBatchesRepository as batches,
  generationJobsRepository,
  wlEntitiesRepository,
  type BatchCounts,
  type BatchItem,
  type BatchItemError,
  type BatchSelection,
  type Eshop,
  type GenerationBatch,
  type Knex,
  type WlEntity,
  type WlEntityType,
} from '@catalogue/db';
import { ConflictError, HttpError, NotFoundError, ValidationError } from '@catalogue/http';
import type { Logger } from '@catalogue/logger';
import { batchStepJobId, ENQUEUE_TIMEOUT_MS, enqueue, withTimeout, type Queues } from '@catalogue/queue';
import { registrationDesign, requireEntitiesOrItems } from './entity';
import {
  batchItemBody,
  estimateBatchItem,
  newPlanMemo,
  planGeneration,
  type PlannedGeneration,
} from './plan';

/** Catalogue items a batch may cover at most (entities; each is an item in every language). */
export const BATCH_MAX_ENTITIES = 10_000;
/** A batch's items one worker process writes at once, at most (`WORKER_CONCURRENCY` with a model, when lower). */
export const BATCH_LANES_MAX = 16;
/**
 * Items of one batch under way at most (each a generation job with its reservation, started
 * and not yet settled): four times a model's lanes, so a lane that ends finds its next item
 * started, and two chunks of the builtin provider's lanes (which store their items in chunks).
 */
export const BATCH_WINDOW = 4 * BATCH_LANES_MAX;
/** A step's worker takes no more of its items after this long (the next step runs the rest): pause and cancel act within seconds. */
export const BATCH_STEP_MS = 2_000;
/** Failed and left-out items a batch view names. */
export const BATCH_ERRORS_SHOWN = 20;
/** Batches a list answers (newest first). */
export const BATCH_LIST_LIMIT = 50;

export interface BatchDeps {
  db: Knex;
  queues: Queues;
  logger: Logger;
  /** WEB_RESEARCH_MAX_URLS: a prompt's research is priced and refused as a single generation's. */
  maxResearchUrls: number;
}

/** The batch as every endpoint, the admin CLI's `--json` and the event show it. */
export interface BatchView {
  id: number;
  status: GenerationBatch['status'];
  entity_type: string;
  languages: string[];
  design_id: number | null;
  prompt_id: number | null;
  counts: BatchCounts;
  credits: { budget: number; estimate: number; reserved: number; charged: number };
  errors: BatchItemError[];
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface BatchRequest {
  entity_type: WlEntityType;
  ids?: string[];
  filter?: { without_content?: boolean; category_id?: string; changed_since?: string };
  design_id?: number | null;
  prompt_id?: number | null;
  languages: string[];
  budget: number;
  dry_run?: boolean;
}

export interface DryRun {
  dry_run: true;
  items: number;
  estimate: { credits: number; per_item: number };
  within_budget: boolean;
}

function view(batch: GenerationBatch, counts: BatchCounts, errors: BatchItemError[]): BatchView {
  return {
    id: batch.id,
    status: batch.status,
    entity_type: batch.entityType,
    languages: batch.languages,
    design_id: batch.designId,
    prompt_id: batch.promptId,
    counts,
    credits: {
      budget: batch.budget,
      estimate: batch.estimate,
      reserved: batch.reserved,
      charged: batch.charged,
    },
    errors,
    created_at: batch.createdAt,
    updated_at: batch.updatedAt,
    finished_at: batch.finishedAt,
  };
}

async function viewOf(db: Knex | Knex.Transaction, batch: GenerationBatch): Promise<BatchView> {
  const counts = (await batches.counts(db, batch.eshopId, [batch.id])).get(batch.id)!;
  return view(batch, counts, await batches.errors(db, batch.eshopId, batch.id, BATCH_ERRORS_SHOWN));
}

/** A batch of the eshop, or 404 (another eshop's id is unknown here). */
export async function getBatch(db: Knex, eshopId: number, batchId: number): Promise<BatchView> {
  return inOneSnapshot(db, async (trx) => {
    const batch = await batches.find(trx, eshopId, batchId);
    if (!batch) throw new NotFoundError('Generation batch not found');
    return viewOf(trx, batch);
  });
}

/**
 * A view's reads as of one moment: the batch's credits and its items' counts come from several
 * statements, and a settlement committed between them would otherwise show an item ended beside
 * its credits still reserved (`running: 0` with `reserved` above 0).
 */
function inOneSnapshot<T>(db: Knex, read: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(read, { isolationLevel: 'repeatable read', readOnly: true });
}

/** The eshop's newest batches. */
export async function listBatches(db: Knex, eshopId: number): Promise<{ batches: BatchView[] }> {
  return inOneSnapshot(db, (trx) => listIn(trx, eshopId));
}

async function listIn(db: Knex.Transaction, eshopId: number): Promise<{ batches: BatchView[] }> {
  const found = await batches.list(db, eshopId, BATCH_LIST_LIMIT);
  const counts = await batches.counts(
    db,
    eshopId,
    found.map((b) => b.id),
  );
  const out: BatchView[] = [];
  for (const batch of found) {
    out.push(
      view(batch, counts.get(batch.id)!, await batches.errors(db, eshopId, batch.id, BATCH_ERRORS_SHOWN)),
    );
  }
  return { batches: out };
}

/** 422: the budget does not cover the cheapest item (nothing is written). */
class BudgetBelowEstimateError extends HttpError {
  constructor(budget: number, perItem: number) {
    const error = `The budget of ${budget} credits does not cover one item (${perItem} credits).`;
    super(422, 'budget_below_estimate', { error, budget, per_item: perItem });
  }
}

/** What a request covers, checked: its entity ids and what each item costs. */
interface PlannedBatch {
  entityIds: string[];
  /** Credits of every item (each entity in each language). */
  credits: number;
  cheapest: number;
  dearest: number;
}

function selectionOf(request: BatchRequest): BatchSelection {
  const { filter } = request;
  return {
    ...(request.ids && { ids: [...new Set(request.ids)] }),
    ...(filter?.without_content && { withoutContent: true }),
    ...(filter?.category_id !== undefined && { categoryId: filter.category_id }),
    ...(filter?.changed_since !== undefined && { changedSince: filter.changed_since }),
  };
}

/**
 * The request against the eshop: active languages, an accessible design and visible prompt
 * (`estimateBatchItem`), a selection of 1 to 10,000 existing items, and the estimate: each item
 * priced as its single generation would be, with its design (sent, else its entity's, else the
 * default design an item gets when it is registered).
 */
async function planBatch(deps: BatchDeps, eshop: Eshop, request: BatchRequest): Promise<PlannedBatch> {
  const errors: Record<string, string[]> = {};
  if (request.ids && request.filter) errors.ids = ['Send either ids or filter, not both.'];
  const inactive = request.languages.filter((lang) => !isOneOf(eshop.languages, lang));
  if (inactive.length > 0) {
    errors.languages = [`The languages ${inactive.join(', ')} are not active languages of this eshop.`];
  }
  const catalogueType = CATALOGUE_TYPE_OF[request.entity_type];
  if (!catalogueType) errors.entity_type = [`The entity_type ${request.entity_type} has no catalogue items.`];
  if (Object.keys(errors).length > 0 || !catalogueType) throw new ValidationError(errors);

  const selection = selectionOf(request);
  const entityIds = await batches.select(deps.db, eshop.id, catalogueType, selection, BATCH_MAX_ENTITIES + 1);
  if (selection.ids) {
    const found = new Set(entityIds);
    const unknown = selection.ids.filter((id) => !found.has(id));
    if (unknown.length > 0) {
      const named = unknown.slice(0, 20).join(', ');
      throw new ValidationError({
        ids: [`${unknown.length} ids are not ${request.entity_type}s of this eshop: ${named}.`],
      });
    }
  }
  if (entityIds.length === 0) {
    throw new HttpError(422, 'selection_empty', { error: 'The selection has no catalogue item.' });
  }
  if (entityIds.length > BATCH_MAX_ENTITIES) {
    throw new HttpError(422, 'selection_too_large', {
      error: `The selection has more than ${BATCH_MAX_ENTITIES} items; narrow it.`,
    });
  }

  // Items of one design cost the same: price each design once.
  const designs = new Map<number | null, number>();
  if (request.design_id != null) {
    designs.set(request.design_id, entityIds.length);
  } else {
    const registered = await wlEntitiesRepository.designsOf(
      deps.db,
      eshop.id,
      request.entity_type,
      entityIds,
    );
    const fallback = await registrationDesign(deps.db, eshop.id, request.entity_type);
    for (const id of entityIds) {
      const design = registered.has(id) ? registered.get(id)! : fallback;
      designs.set(design, (designs.get(design) ?? 0) + 1);
    }
  }
  let credits = 0;
  let cheapest = Number.POSITIVE_INFINITY;
  let dearest = 0;
  for (const [designId, entities] of designs) {
    const perItem = await estimateBatchItem(
      deps.db,
      { eshop, entityType: request.entity_type, designId, promptId: request.prompt_id ?? null },
      deps.maxResearchUrls,
    );
    credits += perItem * entities * request.languages.length;
    cheapest = Math.min(cheapest, perItem);
    dearest = Math.max(dearest, perItem);
  }
  return { entityIds, credits, cheapest, dearest };
}

/** A dry run: the selection's size and estimate, nothing written. */
export async function dryRunBatch(deps: BatchDeps, eshop: Eshop, request: BatchRequest): Promise<DryRun> {
  const planned = await planBatch(deps, eshop, request);
  return {
    dry_run: true,
    items: planned.entityIds.length * request.languages.length,
    estimate: { credits: planned.credits, per_item: planned.dearest },
    within_budget: planned.credits <= request.budget,
  };
}

/** Queues a step of the batch; a Redis that does not take it is left to the sweeper. */
async function letGoOn(
  deps: Pick<BatchDeps, 'queues' | 'logger'>,
  eshopId: number,
  batchId: number,
  reason: string,
) {
  try {
    await withTimeout(
      enqueue(
        deps.queues,
        'generate',
        { eshop_id: eshopId, batch_id: batchId },
        { jobId: batchStepJobId(batchId, reason) },
      ),
      ENQUEUE_TIMEOUT_MS,
    );
  } catch (err) {
    // Committed: the sweeper finds the batch idle and queues its step again.
    deps.logger.warn({ err, eshop_id: eshopId, batch_id: batchId }, 'could not queue the batch step');
  }
}

/**
 * Starts a batch: the batch row and its items in one transaction (with the Idempotency-Key's
 * outcome, so a retry is answered this batch), then its first step. Credits are reserved item
 * by item as the steps start them, never here.
 */
export async function startBatch(
  deps: BatchDeps,
  eshop: Eshop,
  request: BatchRequest,
  recordOutcome?: (trx: Knex.Transaction, batch: BatchView) => Promise<void>,
): Promise<BatchView> {
  const planned = await planBatch(deps, eshop, request);
  if (request.budget < planned.cheapest) throw new BudgetBelowEstimateError(request.budget, planned.cheapest);
  const answer = await deps.db.transaction(async (trx) => {
    const id = await batches.create(trx, eshop.id, {
      entityType: request.entity_type,
      languages: request.languages,
      designId: request.design_id ?? null,
      promptId: request.prompt_id ?? null,
      budget: request.budget,
      estimate: planned.credits,
    });
    await batches.addItems(trx, eshop.id, id, planned.entityIds, request.languages);
    const created = await viewOf(trx, (await batches.find(trx, eshop.id, id))!);
    await recordOutcome?.(trx, created);
    return created;
  });
  await letGoOn(deps, eshop.id, answer.id, 'start');
  return answer;
}

function finished(batch: GenerationBatch): ConflictError {
  return new ConflictError(`The generation batch is ${batch.status}`, 'batch_finished');
}

/** The batch locked for a change, or 404; 409 when it has ended. */
async function lockedOpen(trx: Knex.Transaction, eshopId: number, batchId: number): Promise<GenerationBatch> {
  const batch = await batches.find(trx, eshopId, batchId, { lock: true });
  if (!batch) throw new NotFoundError('Generation batch not found');
  if (batch.status === 'finished' || batch.status === 'cancelled') throw finished(batch);
  return batch;
}

/** Starts no more items (those under way end and are charged for what they wrote). */
export async function pauseBatch(deps: BatchDeps, eshopId: number, batchId: number): Promise<BatchView> {
  return deps.db.transaction(async (trx) => {
    await lockedOpen(trx, eshopId, batchId);
    await batches.setStatus(trx, eshopId, batchId, 'paused');
    return viewOf(trx, (await batches.find(trx, eshopId, batchId))!);
  });
}

/** Goes on starting items (a batch that is not paused is answered as it is). */
export async function resumeBatch(deps: BatchDeps, eshopId: number, batchId: number): Promise<BatchView> {
  const answer = await deps.db.transaction(async (trx) => {
    const batch = await lockedOpen(trx, eshopId, batchId);
    if (batch.status === 'paused') await batches.setStatus(trx, eshopId, batchId, 'running');
    return viewOf(trx, (await batches.find(trx, eshopId, batchId))!);
  });
  await letGoOn(deps, eshopId, batchId, `resume-${Date.now()}`);
  return answer;
}

const CANCELLED = 'The bulk generation was cancelled before this item started; nothing was charged.';

/**
 * Ends the batch: its queued items are left out, the jobs of items no worker has started are
 * ended and their reservations released (all in one transaction); items being written end and
 * are charged for what they wrote. The batch ends (its event) when the last of them settles.
 */
export async function cancelBatch(deps: BatchDeps, eshopId: number, batchId: number): Promise<BatchView> {
  return deps.db.transaction(async (trx) => {
    // The account before the batch, in the settlements' order (see stepBatch).
    await creditsRepository.lockAccount(trx, eshopId);
    await lockedOpen(trx, eshopId, batchId);
    await batches.setStatus(trx, eshopId, batchId, 'cancelled');
    await batches.leaveOutQueued(trx, eshopId, batchId, 'cancelled', CANCELLED);
    for (const jobId of await batches.pendingJobs(trx, eshopId, batchId)) {
      // The item first (left out, its share of the budget given back), then the job's own
      // reservation: the settlement then finds no item under way for the job.
      await batches.cancelItemOf(trx, eshopId, jobId, CANCELLED);
      await settleReservation(trx, eshopId, jobId, 0);
      await generationJobsRepository.finish(trx, eshopId, jobId, {
        status: 'failed',
        errorMessage: CANCELLED,
        provider: null,
        usage: null,
      });
    }
    await batches.finishIfComplete(trx, eshopId, batchId);
    return viewOf(trx, (await batches.find(trx, eshopId, batchId))!);
  });
}

/** Why an item was left out without charge, from the refusal a single generation would answer. */
function leftOutReason(err: unknown): { code: string; message: string } | undefined {
  if (isRecord(err) && err.code === '23505' && err.constraint === 'generation_jobs_one_running') {
    return { code: 'generation_running', message: 'A generation was already running for the entity.' };
  }
  if (err instanceof HttpError && err.status < 500) {
    const errors = err.body.errors;
    const detail = isRecord(errors) ? Object.values(errors).flat().join(' ') : '';
    return { code: err.code, message: detail || err.message };
  }
  return undefined;
}

/** The budget and the balance, in the items' order: which items they cover, and why the rest not. */
function coverage(
  planned: readonly { estimate: number }[],
  budgetLeft: number,
  balanceLeft: number,
): ({ code: string; message: string } | undefined)[] {
  let budget = budgetLeft;
  let balance = balanceLeft;
  return planned.map(({ estimate }) => {
    if (estimate > budget) {
      return { code: 'budget_exceeded', message: `The item (${estimate} credits) would exceed the budget.` };
    }
    if (estimate > balance) {
      return {
        code: 'credits_insufficient',
        message: `The item needs ${estimate} credits; ${balance} remain.`,
      };
    }
    budget -= estimate;
    balance -= estimate;
    return undefined;
  });
}

/**
 * The set-based start of a running batch's items (the first half of a step; the worker runs the
 * jobs it made, `services/generation-worker` `runBatchStep`). In one transaction, the account
 * locked first and the batch second (the settlements' order): the next queued items, up to
 * `BATCH_WINDOW` under way, are each planned as a single generation plans them
 * (`requireEntityOrItem`, `planGeneration` with the design, prompt and prices read once); the
 * budget and the balance, read under those locks, cover them in order; the covered items get
 * their job rows in one multi-row insert, their reservations in one account UPDATE and one
 * multi-row ledger insert, the batch's share in one conditional UPDATE, and are marked under
 * way in one UPDATE. An item a single generation would refuse, or the budget or balance does not
 * cover, is left out uncharged. Returns how many items it started.
 */
export async function stepBatch(deps: BatchDeps, eshopId: number, batchId: number): Promise<number> {
  const eshop = await eshopsRepository.findById(deps.db, eshopId);
  if (!eshop) return 0;
  return deps.db.transaction(async (trx) => {
    // The account before the batch, as a settlement locks them (settleReservations, then the
    // batch's items): the other order deadlocks a step with its items' settlements.
    await creditsRepository.lockAccount(trx, eshopId);
    const batch = await batches.find(trx, eshopId, batchId, { lock: true });
    if (!batch || (batch.status !== 'queued' && batch.status !== 'running')) return 0;
    if (batch.status === 'queued') await batches.setStatus(trx, eshopId, batchId, 'running');
    const { next } = await batches.dispatchable(trx, eshopId, batchId, BATCH_WINDOW);
    const memo = newPlanMemo();
    const type = batch.entityType;
    const ids = next.map((item) => item.entityId);
    // The items' entities (registered now when they were not) and their material, a few
    // statements for the whole step.
    const entities = await requireEntitiesOrItems(trx, eshopId, type, ids);
    const materials = await generationMaterials(trx, eshopId, type, ids);
    const planned: { item: BatchItem; plan: PlannedGeneration; entity: WlEntity }[] = [];
    for (const item of next) {
      try {
        const entity = entities.get(item.entityId);
        if (!entity) throw new NotFoundError(`Entity ${type} "${item.entityId}" is not registered`);
        const plan = await planGeneration(trx, {
          eshop,
          entity,
          body: batchItemBody({ design_id: batch.designId, prompt_id: batch.promptId }, item.lang),
          maxResearchUrls: deps.maxResearchUrls,
          memo,
          material: materials.get(item.entityId),
        });
        planned.push({ item, plan, entity });
      } catch (err) {
        const why = leftOutReason(err);
        if (!why) throw err;
        await batches.leaveOut(trx, eshopId, [item.id], why.code, why.message);
      }
    }
    const account = await creditsRepository.getAccount(trx, eshopId);
    const refused = coverage(
      planned.map((p) => p.plan),
      batch.budget - batch.reserved - batch.charged,
      account.remaining,
    );
    const covered = planned.filter((_, i) => refused[i] === undefined);
    for (const [i, why] of refused.entries()) {
      if (why) await batches.leaveOut(trx, eshopId, [planned[i]!.item.id], why.code, why.message);
    }
    const jobIds = await generationJobsRepository.createMany(
      trx,
      eshopId,
      covered.map(({ plan, entity }) => ({
        entityType: entity.type,
        entityId: entity.entityId,
        designId: plan.designId,
        lang: plan.lang,
        context: plan.context,
        estimatedCost: plan.estimate,
      })),
    );
    const started = covered.flatMap(({ item, plan, entity }) => {
      const jobId = jobIds.get(`${entity.type}:${entity.entityId}`);
      return jobId === undefined ? [] : [{ itemId: item.id, jobId, reserved: plan.estimate }];
    });
    const running = covered.filter(({ entity }) => !jobIds.has(`${entity.type}:${entity.entityId}`));
    if (running.length > 0) {
      await batches.leaveOut(
        trx,
        eshopId,
        running.map((r) => r.item.id),
        'generation_running',
        'A generation was already running for the entity.',
      );
    }
    const total = started.reduce((sum, s) => sum + s.reserved, 0);
    // Both were read under the locks held: they cover the sum (the CHECK and the conditional
    // UPDATEs refuse anything else, and the step is then rolled back whole).
    if (!(await batches.holdBudget(trx, eshopId, batchId, total)))
      throw new Error('batch budget moved under its lock');
    const reservations = started.map((s) => ({ jobId: s.jobId, amount: s.reserved }));
    if (!(await creditsRepository.reserveMany(trx, eshopId, reservations))) {
      throw new Error('account balance moved under its lock');
    }
    await batches.startItems(trx, eshopId, started);
    await batches.finishIfComplete(trx, eshopId, batchId);
    return started.length;
  });
}

/** After a step: its next (queued under `id`; a Redis that does not take it is left to the sweeper). */
export async function nextStep(
  deps: Pick<BatchDeps, 'queues' | 'logger'>,
  eshopId: number,
  batchId: number,
  id: string,
): Promise<void> {
  await letGoOn(deps, eshopId, batchId, id);
}

/** After an item's settlement committed: the batch's next step (once per settled job). */
export async function afterItemSettled(
  deps: Pick<BatchDeps, 'queues' | 'logger'>,
  eshopId: number,
  batchId: number,
  jobId: number,
): Promise<void> {
  await letGoOn(deps, eshopId, batchId, `after-${jobId}`);
}

/** The sweeper's part: batches that did not move for `idleSeconds` get a step (Redis may have lost theirs). */
export async function nudgeIdleBatches(
  deps: Pick<BatchDeps, 'db' | 'queues' | 'logger'>,
  idleSeconds: number,
  limit = 1_000,
): Promise<number> {
  const idle = await batches.idleMoving(deps.db, idleSeconds, limit);
  const stamp = Date.now();
  for (const batch of idle) await letGoOn(deps, batch.eshopId, batch.id, `sweep-${stamp}`);
  return idle.length;
}
