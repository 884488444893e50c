import { NotFoundError } from '@catalogue/http';
import { wlEntitiesRepository, type Knex, type WlEntity, type WlEntityType } from '@catalogue/db';

/** The registered entity of the eshop, or 404: content operations need a registered entity. */
export async function requireEntity(
  db: Knex | Knex.Transaction,
  eshopId: number,
  type: WlEntityType,
  entityId: string,
): Promise<WlEntity> {
  const entity = await wlEntitiesRepository.find(db, eshopId, type, entityId);
  if (!entity) throw new NotFoundError(`Entity ${type} "${entityId}" is not registered`);
  return entity;
}
