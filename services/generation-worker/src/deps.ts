import type { Config } from '@catalogue/config';
import { buildBaseDeps, closeBaseDeps, type BaseDeps } from '@catalogue/http';
import {
  closeQueues,
  createQueueMetrics,
  createQueues,
  registerQueueDepth,
  type QueueMetrics,
  type Queues,
} from '@catalogue/queue';

export interface Deps extends BaseDeps {
  queues: Queues;
  queueMetrics: QueueMetrics;
}

export function buildDeps(config: Config): Deps {
  const base = buildBaseDeps(config, 'generation-worker');
  const queues = createQueues(base.redis, config.redis.queuePrefix, (err) =>
    base.logger.debug({ err: err.message }, 'queue connection error'),
  );
  // The worker reports the depth of every queue, so one dashboard panel shows the backlog
  // whichever service consumes it.
  registerQueueDepth(base.registry, Object.values(queues), base.redis);
  return { ...base, queues, queueMetrics: createQueueMetrics(base.registry) };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await closeQueues(deps.queues);
  await closeBaseDeps(deps);
}
