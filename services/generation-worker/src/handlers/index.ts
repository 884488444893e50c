import type { JobHandlers, QueueName } from '@catalogue/queue';
import type { Deps } from '../deps';
import { generateHandler } from './generate.handler';
import { listingEnrichmentHandler } from './listing-enrichment.handler';
import { renderContentHandler } from './render-content.handler';

/**
 * The queues this worker consumes and their handlers (one file per job name in this
 * folder). createWorkers() refuses to start when a listed queue has no handler.
 */
export const CONSUMED_QUEUES: readonly QueueName[] = ['render-content', 'generate', 'listing-enrichment'];

export function buildHandlers(deps: Deps): Partial<JobHandlers> {
  return {
    'render-content': renderContentHandler(deps),
    generate: generateHandler(deps),
    'listing-enrichment': listingEnrichmentHandler(deps),
  };
}
