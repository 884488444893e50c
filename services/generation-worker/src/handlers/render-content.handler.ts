import type { Knex } from '@catalogue/db';
import type { Logger } from '@catalogue/logger';
import type { JobHandler } from '@catalogue/queue';
import { createDesignCache, renderContent, type RenderOutcome } from '@catalogue/content-store';

/**
 * Renders the items of one import, each in its own transaction. A failure stops the job and
 * BullMQ retries it; items already rendered are rendered again, which stores the same thing.
 */
export function renderContentHandler(deps: { db: Knex; logger: Logger }): JobHandler<'render-content'> {
  const designs = createDesignCache();
  return async (job) => {
    const { eshop_id, entity_type, external_ids } = job.data;
    const outcomes: Partial<Record<RenderOutcome, number>> = {};
    for (const external_id of external_ids) {
      const outcome = await renderContent(deps.db, { eshop_id, entity_type, external_id }, designs);
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    deps.logger.debug({ eshop_id, entity_type, items: external_ids.length, outcomes }, 'render-content');
    return outcomes;
  };
}
