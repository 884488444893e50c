import type { CatalogueEntityType } from '@catalogue/config';
import type { Knex } from 'knex';
import { ENTITY_TABLES } from './catalogue-tables';

export interface StuckItem {
  /** Internal id: the sweeper's page cursor. */
  id: number;
  eshopId: number;
  entityType: CatalogueEntityType;
  externalId: string;
}

/** A listing row nothing has finished: its enrichment job may be lost. */
export interface StuckListingRow {
  id: number;
  eshopId: number;
  batchId: number;
}

export const stuckItemsRepository = {
  /**
   * Catalogue items of one type, of every eshop, still waiting for their first render
   * (`generate`, not deleted) that have not changed for `idleSeconds`: an import committed
   * them but its render-content job never reached Redis, or Redis lost it. In id order after
   * `afterId`, at most `limit` (a sweep pages through all of them, on a partial index).
   */
  async waitingForRender(
    db: Knex | Knex.Transaction,
    entityType: CatalogueEntityType,
    idleSeconds: number,
    limit: number,
    afterId = 0,
  ): Promise<StuckItem[]> {
    const rows = await db(ENTITY_TABLES[entityType].table)
      .select('id', 'eshop_id', 'external_id')
      .where({ status: 'generate', is_delete: false })
      .where('updated_at', '<', db.raw('now() - make_interval(secs => ?)', [idleSeconds]))
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit);
    return rows.map((row) => ({
      id: row.id,
      eshopId: row.eshop_id,
      entityType,
      externalId: row.external_id,
    }));
  },

  /**
   * Listing rows of every eshop still `pending` or `processing` that have not changed for
   * `idleSeconds`, in id order after `afterId`, at most `limit` (on a partial index).
   */
  async unfinishedListingRows(
    db: Knex | Knex.Transaction,
    idleSeconds: number,
    limit: number,
    afterId = 0,
  ): Promise<StuckListingRow[]> {
    const rows = await db('listing_rows')
      .select('id', 'eshop_id', 'batch_id')
      .whereIn('status', ['pending', 'processing'])
      .where('updated_at', '<', db.raw('now() - make_interval(secs => ?)', [idleSeconds]))
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit);
    return rows.map((row) => ({ id: row.id, eshopId: row.eshop_id, batchId: row.batch_id }));
  },
};
