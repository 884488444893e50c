import type { JobHandlers, QueueName } from '@catalogue/queue';
import type { Deps } from '../deps';
import { renderContentHandler } from './render-content.handler';

/**
 * The queues this worker consumes and their handlers (one file per job name in this
 * folder). createWorkers() refuses to start when a listed queue has no handler.
 */
export const CONSUMED_QUEUES: readonly QueueName[] = ['render-content'];

export function buildHandlers(deps: Deps): Partial<JobHandlers> {
  return { 'render-content': renderContentHandler(deps) };
}
