import type { Knex } from '@catalogue/db';
import type { Logger } from '@catalogue/logger';
import type { JobHandler } from '@catalogue/queue';
import { renderContent } from '../services/render.service';

export function renderContentHandler(deps: { db: Knex; logger: Logger }): JobHandler<'render-content'> {
  return async (job) => {
    const outcome = await renderContent(deps.db, job.data);
    deps.logger.debug({ ...job.data, outcome }, 'render-content');
    return { outcome };
  };
}
