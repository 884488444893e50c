/**
 * White-label generation jobs: start one for an entity (estimate, create the job and reserve its
 * credits in one transaction, then queue it), resume the running one, poll any of the eshop's.
 * The generation worker runs the job; credit-service settles it when it ends.
 */
import { isRecord } from '@catalogue/config';
import type { v3 } from '@catalogue/content';
import { reserveForJob, settleReservation } from '@catalogue/credits';
import {
  creditsRepository,
  generationJobsRepository,
  type Eshop,
  type GenerationJob,
  type Knex,
  type WlEntityType,
} from '@catalogue/db';
import { ConflictError, HttpError, NotFoundError, UnavailableError } from '@catalogue/http';
import { ENQUEUE_TIMEOUT_MS, enqueue, generateJobId, withTimeout } from '@catalogue/queue';
import type { Deps } from '../deps';
import type { GenerateBody } from '../schemas/generate.schema';
import { requireEntity } from './entities.service';
import { planGeneration } from '@catalogue/generation';

/** What starting a generation needs of the service (WEB_RESEARCH_MAX_URLS comes from config). */
export type GenerateDeps = Pick<Deps, 'db' | 'queues' | 'creditMetrics' | 'logger' | 'config'>;

/** A job as the v3 answers show it (widgets_skipped, research_sources and research_refused are beyond the specification). */
export function jobBody(job: GenerationJob): v3.GenerationJobView {
  return {
    id: job.id,
    status: job.status,
    design_id: job.designId,
    lang: job.lang,
    widgets_created: job.widgetsCreated,
    widgets_skipped: job.widgetsSkipped,
    research_sources: job.researchSources,
    research_refused: job.researchRefused,
    error_message: job.errorMessage,
    created_at: job.createdAt,
    updated_at: job.updatedAt,
  };
}

/** 422 with what the generation needs and what the eshop has (the body, not `{error}`). */
export class InsufficientCreditsError extends HttpError {
  constructor(required: number, remaining: number) {
    const message = `This generation needs ${required} credits; ${remaining} remain.`;
    // `error` too, so every error body has one; `message` stays as the issue gave it.
    super(422, 'credits_insufficient', { message, required, remaining, error: message });
  }
}

/** 503: the job could not be handed to the worker; it was ended and its credits released. */
class QueueUnavailableError extends UnavailableError {
  constructor() {
    super('The generation could not be queued; nothing was charged. Try again.');
  }
}

function alreadyRunning(job: GenerationJob): ConflictError {
  return new ConflictError('A generation is already running for this entity', 'generation_running', {
    data: jobBody(job),
  });
}

const ONE_RUNNING_INDEX = 'generation_jobs_one_running';

function isOneRunningViolation(err: unknown): boolean {
  return isRecord(err) && err.code === '23505' && err.constraint === ONE_RUNNING_INDEX;
}

/**
 * Ends a job that never reached the queue and gives its reservation back, in one transaction,
 * so the entity is not blocked by a job nobody runs. Should the add still land later, the
 * worker finds the job ended and its settlement finds the release: nothing runs or is charged.
 *
 * Only a job still `pending` is ended: one another process took up first (a worker's sweep after
 * Redis came back queues pending jobs) runs and is settled like any other, and is returned so the
 * start answers it rather than a refusal that would make its user start, and pay for, another.
 */
async function abandon(deps: GenerateDeps, job: GenerationJob): Promise<GenerationJob | undefined> {
  return deps.db.transaction(async (trx) => {
    const current = await generationJobsRepository.find(trx, job.eshopId, job.id, { lock: true });
    if (!current) return undefined;
    if (current.status !== 'pending') return current;
    await settleReservation(trx, job.eshopId, job.id, 0);
    // Ending the job appends its event (numbered as the transaction commits).
    await generationJobsRepository.finish(trx, job.eshopId, job.id, {
      status: 'failed',
      errorMessage: 'The job could not be queued.',
      provider: null,
      usage: null,
    });
    return undefined;
  });
}

export interface StartInput {
  eshop: Eshop;
  entityType: WlEntityType;
  entityId: string;
  body: GenerateBody;
  /**
   * Called inside the transaction that creates the job and its reservation, with the job as
   * answered (the route stores it as the Idempotency-Key's outcome).
   */
  recordOutcome?: (trx: Knex, job: v3.GenerationJobView) => Promise<void>;
}

/**
 * Every check a start makes before it writes: the entity, the body (`planGeneration`: what to
 * write from, in each language a replace writes again), no job running, enough credits. The
 * start and its pre-check (`checkGeneration`) answer the same refusals.
 */
async function checkedPlan(deps: GenerateDeps, input: Omit<StartInput, 'recordOutcome'>) {
  const { eshop, entityType, entityId } = input;
  const entity = await requireEntity(deps.db, eshop.id, entityType, entityId);
  const plan = await planGeneration(deps.db, {
    eshop,
    entity,
    body: input.body,
    maxResearchUrls: deps.config.generation.research.maxUrls,
  });
  const running = await generationJobsRepository.running(deps.db, eshop.id, entityType, entityId);
  if (running) throw alreadyRunning(running);
  // Checked before anything is written so the common refusal costs no transaction; the
  // reservation of a start decides under concurrency.
  const account = await creditsRepository.getAccount(deps.db, eshop.id);
  if (plan.estimate > account.remaining) throw new InsufficientCreditsError(plan.estimate, account.remaining);
  return { plan, remaining: account.remaining };
}

/** What a start with this body would do, or its refusal, with nothing written (beyond the specification). */
export interface GenerationCheck {
  estimated_cost: number;
  remaining: number;
  lang: string;
  /** The languages the job would write: its own first, then each one a replace writes again. */
  languages: string[];
}

/**
 * The pre-check of a start (`POST …/generate/check`): the same checks in the same order, so an
 * editor learns a refusal before it asks its user to confirm deleting widgets. Writes nothing.
 */
export async function checkGeneration(
  deps: GenerateDeps,
  input: Omit<StartInput, 'recordOutcome'>,
): Promise<GenerationCheck> {
  const { plan, remaining } = await checkedPlan(deps, input);
  return {
    estimated_cost: plan.estimate,
    remaining,
    lang: plan.lang,
    languages: [plan.lang, ...Object.keys(plan.context.other_languages ?? {})],
  };
}

export async function startGeneration(deps: GenerateDeps, input: StartInput): Promise<v3.GenerationJobView> {
  const { eshop, entityType, entityId } = input;
  const { plan } = await checkedPlan(deps, input);

  let job: GenerationJob;
  try {
    job = await deps.db.transaction(async (trx) => {
      const created = await generationJobsRepository.create(trx, eshop.id, {
        entityType,
        entityId,
        designId: plan.designId,
        lang: plan.lang,
        context: plan.context,
        estimatedCost: plan.estimate,
      });
      const reserved = await reserveForJob(trx, eshop.id, created.id, plan.estimate);
      // Throwing rolls the job row back with the refusal.
      if (!reserved.ok) throw new InsufficientCreditsError(plan.estimate, reserved.remaining);
      // The Idempotency-Key's outcome commits with the job and its reservation: a retry after a
      // crash between this commit and the answer is answered this job, never charged again.
      await input.recordOutcome?.(trx, jobBody(created));
      return created;
    });
  } catch (err) {
    if (!isOneRunningViolation(err)) throw err;
    // Another request started a job for this entity between our check and our insert.
    const winner = await generationJobsRepository.running(deps.db, eshop.id, entityType, entityId);
    if (winner) throw alreadyRunning(winner);
    throw new ConflictError(
      'A generation for this entity was started at the same time; try again',
      'generation_running',
    );
  }

  // After the commit, so the worker never looks for a row that is not there yet.
  try {
    await withTimeout(
      enqueue(
        deps.queues,
        'generate',
        { eshop_id: eshop.id, job_id: job.id },
        { jobId: generateJobId(job.id) },
      ),
      ENQUEUE_TIMEOUT_MS,
    );
  } catch (err) {
    deps.logger.error({ err, eshop_id: eshop.id, job_id: job.id }, 'could not queue the generate job');
    const takenUp = await abandon(deps, job);
    if (!takenUp) throw new QueueUnavailableError();
    deps.logger.info(
      { eshop_id: eshop.id, job_id: job.id, status: takenUp.status },
      'another process took the job up',
    );
    job = takenUp;
  }
  deps.creditMetrics.reserved.inc(plan.estimate);
  return jobBody(job);
}

/** The entity's pending or running job (the editor resumes it on start), else 404. */
export async function runningGeneration(
  db: Knex,
  eshopId: number,
  entityType: WlEntityType,
  entityId: string,
): Promise<v3.GenerationJobView> {
  await requireEntity(db, eshopId, entityType, entityId);
  const job = await generationJobsRepository.running(db, eshopId, entityType, entityId);
  if (!job) throw new NotFoundError(`No generation is running for ${entityType} "${entityId}"`);
  return jobBody(job);
}

/** Any job of the eshop; another eshop's id is 404 like an unknown one. */
export async function findGeneration(
  db: Knex,
  eshopId: number,
  jobId: number,
): Promise<v3.GenerationJobView> {
  const job = await generationJobsRepository.find(db, eshopId, jobId);
  if (!job) throw new NotFoundError('Generation job not found');
  return jobBody(job);
}
