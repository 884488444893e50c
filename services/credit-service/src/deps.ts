import type { Config } from '@catalogue/config';
import { createCreditMetrics, type CreditMetrics } from '@catalogue/credits';
import { buildBaseDeps, closeBaseDeps, type BaseDeps } from '@catalogue/http';
import { createQueueMetrics, type QueueMetrics } from '@catalogue/queue';

export interface Deps extends BaseDeps {
  creditMetrics: CreditMetrics;
  queueMetrics: QueueMetrics;
}

export function buildDeps(config: Config): Deps {
  const base = buildBaseDeps(config, 'credit-service');
  return {
    ...base,
    creditMetrics: createCreditMetrics(base.registry),
    queueMetrics: createQueueMetrics(base.registry),
  };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await closeBaseDeps(deps);
}
