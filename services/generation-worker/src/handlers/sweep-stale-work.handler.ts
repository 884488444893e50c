import type { JobHandler } from '@catalogue/queue';
import { sweepStaleWork, type SweepDeps } from '../services/sweep.service';

/**
 * One sweep for lost work (see sweep.service.ts). A failure is not retried: the scheduler queues
 * the next sweep within a minute, and every sweep looks at everything again.
 */
export function sweepStaleWorkHandler(deps: SweepDeps): JobHandler<'sweep-stale-work'> {
  return async (job) => sweepStaleWork(deps, { afterRedisLoss: job.data.after_redis_loss === true });
}
