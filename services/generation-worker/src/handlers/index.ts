import type { JobHandlers, QueueName } from '@catalogue/queue';
import type { Deps } from '../deps';

/**
 * The queues this worker consumes and their handlers (one file per job name in this
 * folder). render-content, generate and listing-enrichment join as their handlers land;
 * createWorkers() refuses to start when a listed queue has no handler.
 */
export const CONSUMED_QUEUES: readonly QueueName[] = [];

export function buildHandlers(_deps: Deps): Partial<JobHandlers> {
  return {};
}
