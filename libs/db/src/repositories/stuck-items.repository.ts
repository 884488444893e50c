import type { Knex } from 'knex';
import { ENTITY_TABLES, type EntityType } from './catalogue-tables';

export interface StuckItem {
  eshopId: number;
  entityType: EntityType;
  externalId: string;
}

export const stuckItemsRepository = {
  /**
   * Catalogue items of every eshop still waiting for their first render (`generate`, not
   * deleted) that have not changed for `idleSeconds`: an import committed them but its
   * render-content job never reached Redis. Oldest first, at most `limit` per entity type.
   */
  async waitingForRender(
    db: Knex | Knex.Transaction,
    idleSeconds: number,
    limit: number,
  ): Promise<StuckItem[]> {
    const found: StuckItem[] = [];
    for (const [entityType, { table }] of Object.entries(ENTITY_TABLES) as [
      EntityType,
      { table: string },
    ][]) {
      const rows = await db(table)
        .select<{ eshop_id: number; external_id: string }[]>('eshop_id', 'external_id')
        .where({ status: 'generate', is_delete: false })
        .where('updated_at', '<', db.raw('now() - make_interval(secs => ?)', [idleSeconds]))
        .orderBy([{ column: 'updated_at' }, { column: 'id' }])
        .limit(limit);
      for (const row of rows) found.push({ eshopId: row.eshop_id, entityType, externalId: row.external_id });
    }
    return found;
  },
};
