import {
  catalogueRepository,
  ENTITY_TABLES,
  parametersRepository,
  variantsRepository,
  type EntityType,
  type EntityWrite,
  type Knex,
  type StoredEntity,
  type Variant,
} from '@catalogue/db';
import { LANG_FIELDS } from '../schemas/items.schema';
import { withoutDuplicates, type CheckedItem, type ItemError } from './item-check';

/** A validated v2 write item (v1 items are converted to this shape). */
export interface WriteItem {
  id: string;
  is_visible?: boolean;
  images?: string[];
  brand_id?: string | null;
  categories_ids?: string[];
  parameters_ids?: number[];
  variant?: { code: string; ean?: string | null }[];
  image_preview?: string | null;
  category?: string | null;
  [langField: string]: unknown;
}

export interface EntityImportOutcome {
  imported: number;
  updated: number;
  errors: ItemError[];
  /** External ids whose content must be (re)composed: created, or source fields changed. */
  toRender: string[];
}

/** "The name.cs field is required when using language cs." for every language an item uses. */
export function missingNames(type: EntityType, item: WriteItem): string[] {
  const name = (item.name ?? {}) as Record<string, unknown>;
  const used = new Set<string>();
  for (const field of LANG_FIELDS[type]) {
    const map = (item[field] ?? {}) as Record<string, unknown>;
    for (const [lang, value] of Object.entries(map)) if (value !== null) used.add(lang);
  }
  return [...used]
    .filter((lang) => typeof name[lang] !== 'string')
    .map((lang) => `The name.${lang} field is required when using language ${lang}.`);
}

/**
 * Deep equality of JSON values where object key order does not matter (stored JSONB comes
 * back with its own key order). Cheaper than comparing canonical strings on every import.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a))
    return Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  if (Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  if (aKeys.length !== Object.keys(b).length) return false;
  return aKeys.every(
    (k) =>
      Object.hasOwn(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

const EMPTY_DATA: Record<string, unknown> = {
  images: [],
  brand_id: null,
  categories_ids: [],
  parameters_ids: [],
  image_preview: null,
  category: null,
};

/**
 * The new stored fields of an item: a sent language map replaces the languages it names
 * (null removes one) and keeps the others; a sent data field replaces the stored one;
 * fields not sent keep their stored value.
 */
function mergedFields(
  type: EntityType,
  stored: StoredEntity | undefined,
  item: WriteItem,
): Record<string, unknown> {
  const { langFields, dataFields } = ENTITY_TABLES[type];
  const fields: Record<string, unknown> = {};
  for (const field of langFields) {
    const merged = { ...((stored?.fields[field] as Record<string, string> | undefined) ?? {}) };
    for (const [lang, value] of Object.entries((item[field] ?? {}) as Record<string, string | null>)) {
      if (value === null) delete merged[lang];
      else merged[lang] = value;
    }
    fields[field] = merged;
  }
  for (const field of dataFields) {
    const sent = item[field];
    fields[field] =
      sent !== undefined ? (sent === '' ? null : sent) : (stored?.fields[field] ?? EMPTY_DATA[field]);
  }
  return fields;
}

function variantsOf(item: WriteItem): Variant[] | undefined {
  return item.variant?.map((v) => ({ code: v.code, ean: v.ean ? v.ean : null }));
}

/**
 * Checks brand_id, categories_ids and parameters_ids of products against what exists for
 * the eshop (soft-deleted items count: products keep pointing at them). Inside a
 * multi-import transaction, items written by earlier sections exist already.
 */
async function referenceErrors(
  trx: Knex.Transaction,
  eshopId: number,
  items: CheckedItem<WriteItem>[],
): Promise<Map<number, string[]>> {
  const brands = new Set(items.flatMap(({ item }) => (item.brand_id ? [item.brand_id] : [])));
  const categories = new Set(items.flatMap(({ item }) => item.categories_ids ?? []));
  const parameters = new Set(items.flatMap(({ item }) => item.parameters_ids ?? []));
  // One after another: the queries share the transaction's single connection.
  const knownBrands = await catalogueRepository.existingIds(trx, 'brand', eshopId, [...brands]);
  const knownCategories = await catalogueRepository.existingIds(trx, 'category', eshopId, [...categories]);
  const knownParameters = await parametersRepository.existingIds(trx, eshopId, [...parameters]);
  const errors = new Map<number, string[]>();
  for (const { index, item } of items) {
    const messages: string[] = [];
    if (item.brand_id && !knownBrands.has(item.brand_id)) messages.push('The selected brand_id is invalid.');
    item.categories_ids?.forEach((id, i) => {
      if (!knownCategories.has(id)) messages.push(`The selected categories_ids.${i} is invalid.`);
    });
    item.parameters_ids?.forEach((id, i) => {
      if (!knownParameters.has(id)) messages.push(`The selected parameters_ids.${i} is invalid.`);
    });
    if (messages.length) errors.set(index, messages);
  }
  return errors;
}

/**
 * Creates or updates validated items of one entity type inside the caller's transaction:
 * one locking read, one multi-row upsert, and for products the reference checks and the
 * variant replacement. An item whose source fields changed (or a new one) goes back to
 * `generate` and is returned in `toRender`; a change of is_visible alone, or bringing back a
 * soft-deleted item, keeps its status and content.
 */
export async function importEntities(
  trx: Knex.Transaction,
  eshopId: number,
  type: EntityType,
  checked: CheckedItem<WriteItem>[],
): Promise<EntityImportOutcome> {
  const errors: ItemError[] = [];
  let referenced = checked;
  if (type === 'product') {
    const refErrors = await referenceErrors(trx, eshopId, checked);
    referenced = checked.filter(({ index, item }) => {
      const messages = refErrors.get(index);
      if (messages) errors.push({ index, id: item.id, errors: messages });
      return !messages;
    });
  }
  const unique = withoutDuplicates(referenced);
  errors.push(...unique.errors);
  const items = unique.accepted;

  const stored = await catalogueRepository.findForUpdate(
    trx,
    type,
    eshopId,
    items.map(({ item }) => item.id),
    { withVariants: type === 'product' && items.some(({ item }) => item.variant !== undefined) },
  );

  const writes: EntityWrite[] = [];
  const newVariants = new Map<string, Variant[]>();
  const toRender: string[] = [];
  for (const { item } of items) {
    const before = stored.get(item.id);
    const fields = mergedFields(type, before, item);
    const isVisible = item.is_visible ?? before?.isVisible ?? true;
    const variants = variantsOf(item);
    const variantsChanged = variants !== undefined && !sameJson(variants, before?.variants ?? []);
    if (variants !== undefined && variantsChanged) newVariants.set(item.id, variants);

    const sourceChanged = !before || variantsChanged || !sameJson(fields, before.fields);
    if (sourceChanged) {
      writes.push({ externalId: item.id, isVisible, fields, status: 'generate' });
      toRender.push(item.id);
    } else if (isVisible !== before.isVisible || before.isDelete) {
      writes.push({ externalId: item.id, isVisible, fields, status: before.status });
    }
  }

  // The same row order in every request keeps concurrent imports from deadlocking each other.
  writes.sort((a, b) => (a.externalId < b.externalId ? -1 : a.externalId > b.externalId ? 1 : 0));
  const ids = await catalogueRepository.upsert(trx, type, eshopId, writes);
  if (newVariants.size) {
    await variantsRepository.replace(
      trx,
      eshopId,
      new Map([...newVariants].map(([externalId, list]) => [ids.get(externalId)!, list])),
      new Set(
        [...newVariants.keys()].filter((externalId) => !stored.has(externalId)).map((id) => ids.get(id)!),
      ),
    );
  }
  const imported = items.filter(({ item }) => !stored.has(item.id)).length;
  return { imported, updated: items.length - imported, errors, toRender };
}
