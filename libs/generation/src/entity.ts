/**
 * The white-label entity a generation targets, for a catalogue item too: an imported item never
 * opened in the editor is registered when something is first written for it (an editor's copy,
 * a bulk generation's item), with its name as the title and the eshop's default design of its
 * type. The white-label API and the bulk generation register entities the same way here.
 */
import { CATALOGUE_TYPE_OF, defaultDesign } from '@catalogue/content-store';
import type { Text } from '@catalogue/content';
import {
  catalogueRepository,
  wlEntitiesRepository,
  type Knex,
  type LangMap,
  type WlEntity,
  type WlEntityType,
} from '@catalogue/db';
import { NotFoundError } from '@catalogue/http';

/** A sent text as a language map without empty values; a string is the `default` language. */
export function toMap(text: Text | null, clean: (value: string) => string): LangMap {
  const map: Partial<Record<string, string>> = typeof text === 'string' ? { default: text } : (text ?? {});
  const out: LangMap = {};
  for (const [lang, value] of Object.entries(map)) {
    const cleaned = typeof value === 'string' ? clean(value) : '';
    if (cleaned !== '') out[lang] = cleaned;
  }
  return out;
}

/**
 * The design a registered entity starts with: the eshop's default design of its type
 * (libs/content-store `defaultDesign`, the one the worker composes the eshop's catalogue items
 * of that type with), or null when the eshop can use no design of that type.
 */
export async function registrationDesign(
  db: Knex | Knex.Transaction,
  eshopId: number,
  type: WlEntityType,
): Promise<number | null> {
  return (await defaultDesign(db, eshopId, type))?.design.id ?? null;
}

/**
 * The registered entity of the eshop; else, for an entity that is a catalogue item of the eshop
 * (same external id and type, not deleted) never opened in the editor, the entity registered for
 * it now, in the caller's transaction (rolled back with it), titled with the item's name and
 * with the default design of its type; else 404 as {@link requireEntity}. Another eshop's item
 * of that id is not looked at (the look-up is by this eshop), so nothing is registered for it.
 */
export async function requireEntityOrItem(
  trx: Knex.Transaction,
  eshopId: number,
  type: WlEntityType,
  entityId: string,
): Promise<WlEntity> {
  const entity = await wlEntitiesRepository.find(trx, eshopId, type, entityId);
  if (entity) return entity;
  const catalogueType = CATALOGUE_TYPE_OF[type];
  // A plain read, no lock: saveEditorContent takes the item's lock after the content key's.
  const fields =
    catalogueType && (await catalogueRepository.findFields(trx, catalogueType, eshopId, entityId));
  if (!fields) throw new NotFoundError(`Entity ${type} "${entityId}" is not registered`);
  return wlEntitiesRepository.registerIfAbsent(trx, eshopId, {
    entityId,
    type,
    title: toMap((fields.name as LangMap | undefined) ?? {}, (v) => v.trim()),
    oldDescription: {},
    designId: await registrationDesign(trx, eshopId, type),
  });
}

/**
 * `requireEntityOrItem` of many entities of one type at once (a bulk generation's step): the
 * registered ones read in one statement, the catalogue items among the rest registered in one
 * multi-row insert (titled with the item's name, with the default design of the type). An id
 * that is neither is absent from the answer.
 */
export async function requireEntitiesOrItems(
  trx: Knex.Transaction,
  eshopId: number,
  type: WlEntityType,
  entityIds: readonly string[],
): Promise<Map<string, WlEntity>> {
  const found = await wlEntitiesRepository.findMany(trx, eshopId, type, entityIds);
  const missing = entityIds.filter((id) => !found.has(id));
  const catalogueType = CATALOGUE_TYPE_OF[type];
  if (missing.length === 0 || !catalogueType) return found;
  const names = await catalogueRepository.namesOf(trx, catalogueType, eshopId, missing);
  if (names.size === 0) return found;
  const designId = await registrationDesign(trx, eshopId, type);
  const registered = await wlEntitiesRepository.registerManyIfAbsent(
    trx,
    eshopId,
    type,
    [...names].map(([entityId, name]) => ({
      entityId,
      title: toMap(name ?? {}, (v) => v.trim()),
      oldDescription: {},
      designId,
    })),
  );
  for (const [id, entity] of registered) found.set(id, entity);
  return found;
}
