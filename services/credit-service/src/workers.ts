import { createWorkers, type Worker } from '@catalogue/queue';
import type { Deps } from './deps';
import { creditSettlementHandler } from './handlers/credit-settlement.handler';

/** The credit service consumes the settlement queue. */
export function startWorkers(deps: Deps): Worker[] {
  return createWorkers({
    queues: ['credit-settlement'],
    handlers: { 'credit-settlement': creditSettlementHandler(deps) },
    connection: deps.redis,
    prefix: deps.config.redis.queuePrefix,
    concurrency: deps.config.worker.concurrency,
    logger: deps.logger,
    metrics: deps.queueMetrics,
  });
}
