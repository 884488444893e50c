import type { Config } from '@catalogue/config';
import { buildBaseDeps, closeBaseDeps, type BaseDeps } from '@catalogue/http';
import { closeQueues, createQueues, type Queues } from '@catalogue/queue';

export interface Deps extends BaseDeps {
  queues: Queues;
}

export function buildDeps(config: Config): Deps {
  const base = buildBaseDeps(config, 'catalogue-api', { authenticates: true });
  const queues = createQueues(base.redis, config.redis.queuePrefix, (err) =>
    base.logger.debug({ err: err.message }, 'queue connection error'),
  );
  return { ...base, queues };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await closeQueues(deps.queues);
  await closeBaseDeps(deps);
}
