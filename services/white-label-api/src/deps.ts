import type { Config } from '@catalogue/config';
import { createCreditMetrics, type CreditMetrics } from '@catalogue/credits';
import { buildBaseDeps, closeBaseDeps, type BaseDeps } from '@catalogue/http';
import { closeQueues, createQueues, type Queues } from '@catalogue/queue';

export interface Deps extends BaseDeps {
  /** Producers only: generation jobs go to the worker through the `generate` queue. */
  queues: Queues;
  /** `credits_reserved_total`: reservations made when generation jobs start. */
  creditMetrics: CreditMetrics;
}

export function buildDeps(config: Config): Deps {
  const base = buildBaseDeps(config, 'white-label-api', { authenticates: true });
  const queues = createQueues(base.redis, config.redis.queuePrefix, (err) =>
    base.logger.debug({ err: err.message }, 'queue connection error'),
  );
  return { ...base, queues, creditMetrics: createCreditMetrics(base.registry) };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await closeQueues(deps.queues);
  await closeBaseDeps(deps);
}
