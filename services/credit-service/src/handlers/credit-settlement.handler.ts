import { UnrecoverableError } from 'bullmq';
import type { CreditMetrics } from '@catalogue/credits';
import type { Knex } from '@catalogue/db';
import { afterItemSettled } from '@catalogue/generation';
import type { Logger } from '@catalogue/logger';
import type { JobHandler, Queues } from '@catalogue/queue';
import { inSpan } from '@catalogue/tracing';
import { InvalidSettlementError, settleJob } from '../services/settlement.service';

export function creditSettlementHandler(deps: {
  db: Knex;
  logger: Logger;
  creditMetrics: CreditMetrics;
  queues: Queues;
}): JobHandler<'credit-settlement'> {
  return async (job) => {
    let result;
    try {
      result = await inSpan(
        'credit settle',
        {
          'app.eshop_id': job.data.eshop_id,
          'app.generation_job_id': job.data.job_id,
          'app.credits.actual_cost': job.data.actual_cost,
        },
        async (span) => {
          const settled = await settleJob(deps.db, job.data);
          span.setAttribute('app.credits.outcome', settled.outcome);
          return settled;
        },
      );
    } catch (err) {
      // A malformed payload fails the same way on every attempt: fail it at once.
      if (err instanceof InvalidSettlementError) throw new UnrecoverableError(err.message);
      throw err;
    }
    // A bulk generation's item: its batch starts its next items now that this one is counted.
    if (result.batchId !== undefined) {
      await afterItemSettled(deps, job.data.eshop_id, result.batchId, job.data.job_id);
    }
    const { creditMetrics: m } = deps;
    m.settlements.inc({ outcome: result.outcome });
    if (result.outcome === 'settled') {
      m.charged.inc(result.charged);
      m.released.inc(result.released);
      m.settlementLag.observe(Math.max(0, (Date.now() - job.timestamp) / 1000));
    }
    deps.logger.info(
      { eshop_id: job.data.eshop_id, job_id: job.data.job_id, ...result },
      'credit settlement',
    );
    return result;
  };
}
