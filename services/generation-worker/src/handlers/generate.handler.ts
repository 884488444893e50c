import type { JobHandler } from '@catalogue/queue';
import { failGeneration, runGeneration, type GenerationDeps } from '../services/generate.service';

/**
 * Runs one white-label generation job row. Provider failures end the row `failed` and the BullMQ
 * job completes (the provider has retried already); other errors (database, Redis) are thrown so
 * BullMQ retries with backoff. When the last attempt fails too, the row is ended `failed` (and
 * its reservation released) if the database lets us, so it does not stay `running` forever.
 */
export function generateHandler(deps: GenerationDeps): JobHandler<'generate'> {
  return async (job) => {
    try {
      return await runGeneration(deps, job.data);
    } catch (err) {
      const unrecoverable = (err as Error | undefined)?.name === 'UnrecoverableError';
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (!unrecoverable && lastAttempt) {
        await failGeneration(deps, job.data.eshop_id, job.data.job_id, {
          message: 'Content generation failed because of an internal error; no credits were charged.',
          provider: null,
          usage: null,
        }).catch((cleanup: unknown) =>
          deps.logger.error({ err: cleanup, job_id: job.data.job_id }, 'could not end the generation job'),
        );
      }
      throw err;
    }
  };
}
