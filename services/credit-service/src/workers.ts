import { createWorkers, queueConcurrency, queuesConsumedBy, type Worker } from '@catalogue/queue';
import type { Deps } from './deps';
import { creditSettlementHandler } from './handlers/credit-settlement.handler';

/** The credit service consumes the settlement queue (libs/queue's QUEUES). */
export function startWorkers(deps: Deps): Worker[] {
  return createWorkers({
    queues: queuesConsumedBy('credit-service'),
    handlers: { 'credit-settlement': creditSettlementHandler(deps) },
    connection: deps.redis,
    prefix: deps.config.redis.queuePrefix,
    concurrency: deps.config.worker.concurrency,
    concurrencyOf: queueConcurrency(deps.config),
    logger: deps.logger,
    metrics: deps.queueMetrics,
  });
}
