import type { Config } from '@catalogue/config';
import { buildBaseDeps, closeBaseDeps, type BaseDeps } from '@catalogue/http';
import { closeQueues, createQueues, type Queues } from '@catalogue/queue';
import { webhookEgressPolicy, type EgressPolicy } from '@catalogue/webhooks';

export interface Deps extends BaseDeps {
  queues: Queues;
  /** Where webhook endpoints may point (public addresses and what the operator allows). */
  webhookEgress: EgressPolicy;
}

export function buildDeps(config: Config): Deps {
  const base = buildBaseDeps(config, 'catalogue-api', { authenticates: true, readsReplica: true });
  const queues = createQueues(base.redis, config.redis.queuePrefix, (err) =>
    base.logger.debug({ err: err.message }, 'queue connection error'),
  );
  return { ...base, queues, webhookEgress: webhookEgressPolicy(config) };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await closeQueues(deps.queues);
  await closeBaseDeps(deps);
}
