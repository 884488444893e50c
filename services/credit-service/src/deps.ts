import type { Config } from '@catalogue/config';
import { createCreditMetrics, type CreditMetrics } from '@catalogue/credits';
import { buildBaseDeps, closeBaseDeps, type BaseDeps } from '@catalogue/http';
import { closeQueues, createQueueMetrics, createQueues, type QueueMetrics, type Queues } from '@catalogue/queue';

export interface Deps extends BaseDeps {
  creditMetrics: CreditMetrics;
  queueMetrics: QueueMetrics;
  /** A settled item of a bulk generation lets its batch go on (a `generate` step). */
  queues: Queues;
}

export function buildDeps(config: Config): Deps {
  const base = buildBaseDeps(config, 'credit-service');
  return {
    ...base,
    creditMetrics: createCreditMetrics(base.registry),
    queueMetrics: createQueueMetrics(base.registry),
    queues: createQueues(base.redis, config.redis.queuePrefix, (err) =>
      base.logger.debug({ err: err.message }, 'queue connection error'),
    ),
  };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await closeQueues(deps.queues);
  await closeBaseDeps(deps);
}
