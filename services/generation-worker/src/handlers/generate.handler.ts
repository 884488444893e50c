import { isRecord } from '@catalogue/config';
import { isBatchStep, type JobHandler } from '@catalogue/queue';
import { runBatchStep } from '../services/batch-step.service';
import { failGeneration, runGeneration, type GenerationDeps } from '../services/generate.service';

/**
 * Runs one white-label generation job row, or one step of a bulk generation (a payload with a
 * batch id: `runBatchStep` starts its next items as such rows, runs them and settles them). Provider failures
 * end the row `failed` and the BullMQ job completes (the provider has retried already); other
 * errors (database, Redis) are thrown so BullMQ retries with backoff. When the last attempt fails
 * too, the row is ended `failed` (and its reservation released) if the database lets us, so it
 * does not stay `running` forever. A step that fails changes nothing (one transaction); the
 * sweeper gives an idle batch another.
 */
export function generateHandler(deps: GenerationDeps): JobHandler<'generate'> {
  return async (job) => {
    const { data } = job;
    if (isBatchStep(data)) return runBatchStep(deps, data.eshop_id, data.batch_id);
    try {
      return await runGeneration(deps, data);
    } catch (err) {
      const unrecoverable = isRecord(err) && err.name === 'UnrecoverableError';
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (!unrecoverable && lastAttempt) {
        await failGeneration(deps, data.eshop_id, data.job_id, {
          message: 'Content generation failed because of an internal error; no credits were charged.',
          provider: null,
          usage: null,
        }).catch((cleanup: unknown) =>
          deps.logger.error({ err: cleanup, job_id: data.job_id }, 'could not end the generation job'),
        );
      }
      throw err;
    }
  };
}
