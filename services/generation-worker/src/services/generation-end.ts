/**
 * How a generation job row ends: `failed` with a message, or found already ended by a
 * redelivery, a retry or the stale-work sweeper. Either way the credit settlement is queued under
 * the deterministic BullMQ id `settle-<job_id>`, so however many of them reach this point the
 * reservation is settled once.
 */
import {
  generationJobsRepository,
  type GenerationJob,
  type Knex,
  type ResearchRefusalRow,
} from '@catalogue/db';
import type { Logger } from '@catalogue/logger';
import { enqueue, settlementJobId, type JobPayloads, type Queues } from '@catalogue/queue';
import type { ContentProvider, TokenUsage } from '../providers';
import type { ResearchOptions } from '../research';

export interface GenerationDeps {
  db: Knex;
  queues: Queues;
  logger: Logger;
  provider: ContentProvider;
  research: ResearchOptions;
  /**
   * Jobs a bulk generation's step runs at once with a remote provider (WORKER_CONCURRENCY; the
   * provider's limiter holds each request to its limits). The builtin provider runs a few.
   */
  batchInFlight?: number;
}

export type GenerationOutcome =
  /** Content written, job `done`. */
  | 'done'
  /** Job `failed` (provider failure, design unavailable, nothing to write); reservation released. */
  | 'failed'
  /** The job had ended before (a redelivery): nothing written again. */
  | 'already_finished';

export interface GenerationRunResult {
  outcome: GenerationOutcome;
  widgets_created: number;
  actual_cost: number;
}

/** What ending a job needs: no provider, so the sweeper can end jobs too. */
export type EndDeps = Pick<GenerationDeps, 'db' | 'queues' | 'logger'>;

const MAX_ERROR_MESSAGE = 1_000;

export const isFinished = (job: GenerationJob): boolean => job.status === 'done' || job.status === 'failed';

const clip = (text: string): string =>
  text.length <= MAX_ERROR_MESSAGE ? text : `${text.slice(0, MAX_ERROR_MESSAGE - 1)}…`;

export async function queueSettlement(
  deps: EndDeps,
  payload: JobPayloads['credit-settlement'],
): Promise<void> {
  await enqueue(deps.queues, 'credit-settlement', payload, { jobId: settlementJobId(payload.job_id) });
}

/**
 * Ends a job `failed` (unless it has ended already) and queues the release of its reservation.
 * Usage spent on failed provider attempts is recorded too.
 */
export async function failGeneration(
  deps: EndDeps,
  eshopId: number,
  jobId: number,
  failure: {
    message: string;
    provider: string | null;
    usage: TokenUsage | null;
    /** Research URLs the job did not read, and why (kept on the failed job too). */
    researchRefused?: ResearchRefusalRow[];
  },
  /** settle false: the caller settles (a bulk generation's step settles its items together). */
  opts: { settle: boolean } = { settle: true },
): Promise<GenerationRunResult> {
  const state = await deps.db.transaction(async (trx) => {
    const current = await generationJobsRepository.find(trx, eshopId, jobId, { lock: true });
    if (current === undefined) return 'missing';
    if (isFinished(current)) return 'finished';
    await generationJobsRepository.finish(trx, eshopId, jobId, {
      status: 'failed',
      errorMessage: clip(failure.message),
      provider: failure.provider,
      usage: failure.usage,
      researchRefused: failure.researchRefused,
    });
    return 'failed';
  });
  if (state === 'missing') return { outcome: 'already_finished', widgets_created: 0, actual_cost: 0 };
  if (state === 'finished') {
    return opts.settle
      ? settleFinished(deps, eshopId, jobId)
      : { outcome: 'already_finished', widgets_created: 0, actual_cost: 0 };
  }
  if (opts.settle) await queueSettlement(deps, { eshop_id: eshopId, job_id: jobId, actual_cost: 0 });
  deps.logger.info(
    { eshop_id: eshopId, job_id: jobId, provider: failure.provider, error: clip(failure.message) },
    'generation failed',
  );
  return { outcome: 'failed', widgets_created: 0, actual_cost: 0 };
}

/** A redelivered job that had ended: queue its settlement again (a no-op when it was queued). */
export async function settleFinished(
  deps: EndDeps,
  eshopId: number,
  jobId: number,
): Promise<GenerationRunResult> {
  const job = await generationJobsRepository.find(deps.db, eshopId, jobId);
  if (job === undefined) return { outcome: 'already_finished', widgets_created: 0, actual_cost: 0 };
  const actualCost = job.status === 'done' ? (job.chargedCost ?? 0) : 0;
  await queueSettlement(deps, { eshop_id: eshopId, job_id: jobId, actual_cost: actualCost });
  return { outcome: 'already_finished', widgets_created: job.widgetsCreated, actual_cost: actualCost };
}
