import type { Knex } from '@catalogue/db';
import type { Logger } from '@catalogue/logger';
import type { JobHandler } from '@catalogue/queue';
import { createDesignCache, renderContents, type RenderOutcome } from '@catalogue/content-store';

/**
 * Renders the items of one import together, in one transaction (renderContents). A failure
 * rolls the whole job back and BullMQ retries it; rendering again stores the same thing.
 */
export function renderContentHandler(deps: { db: Knex; logger: Logger }): JobHandler<'render-content'> {
  const designs = createDesignCache();
  return async (job) => {
    const { eshop_id, entity_type, external_ids } = job.data;
    const outcomes: Partial<Record<RenderOutcome, number>> = {};
    for (const outcome of (await renderContents(deps.db, job.data, designs)).values()) {
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    deps.logger.debug({ eshop_id, entity_type, items: external_ids.length, outcomes }, 'render-content');
    return outcomes;
  };
}
