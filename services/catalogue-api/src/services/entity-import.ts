import { type CatalogueEntityType, isRecord } from '@catalogue/config';
import {
  catalogueRepository,
  ENTITY_TABLES,
  type EntityWrite,
  type Knex,
  type NewEvent,
  type ParameterLookup,
  parametersRepository,
  type ProductParameterLink,
  productRelationsRepository,
  type StoredEntity,
  type UpsertedRow,
  type Variant,
  variantsRepository,
} from '@catalogue/db';
import { withoutDuplicates, type CheckedItem, type ItemError } from './item-check';

/**
 * A validated v2 write item (v1 items are converted to this shape), holding only the fields of
 * its type's write contract (schemas/items.contract.ts): `variant` only on products.
 */
export interface WriteItem {
  id: string;
  is_visible?: boolean;
  images?: string[];
  brand_id?: string | null;
  categories_ids?: string[];
  parameters_ids?: number[];
  /** Explicit parameter values of a product (an extension of the v2 write contract). */
  parameter_values?: ParameterValuesPair[];
  variant?: { code: string; ean?: string | null }[];
  image_preview?: string | null;
  category?: string | null;
  [langField: string]: unknown;
}

/** The values a product chose of one parameter (external ids). */
export interface ParameterValuesPair {
  parameter_id: number;
  value_ids: number[];
}

export interface EntityImportOutcome {
  imported: number;
  updated: number;
  /** Of `updated`, the items sent with what is stored already: not written (a dry run's summary). */
  unchanged: number;
  errors: ItemError[];
  /** External ids whose content must be (re)composed: created, or source fields changed. */
  toRender: string[];
  /**
   * `item.created` or `item.updated` for each row this request wrote, to be appended in its
   * transaction; an item sent with what is stored already is not written and has none.
   */
  events: NewEvent[];
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
  if (!isRecord(a) || !isRecord(b)) return false;
  const aKeys = Object.keys(a);
  if (aKeys.length !== Object.keys(b).length) return false;
  return aKeys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
}

/**
 * The new stored fields of an item: a sent language map replaces the languages it names
 * (null removes one) and keeps the others; a sent data field replaces the stored one;
 * fields not sent keep their stored value.
 */
function mergedFields(
  type: CatalogueEntityType,
  stored: StoredEntity | undefined,
  item: WriteItem,
): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const field of ENTITY_TABLES[type].fields) {
    const kept = stored?.fields[field.column];
    const sent = item[field.column];
    if (field.kind === 'data') {
      fields[field.column] = sent !== undefined ? (sent === '' ? null : sent) : (kept ?? field.empty);
      continue;
    }
    const merged: Record<string, unknown> = { ...(isRecord(kept) ? kept : {}) };
    for (const [lang, value] of Object.entries(isRecord(sent) ? sent : {})) {
      if (value === null) delete merged[lang];
      else merged[lang] = value;
    }
    fields[field.column] = merged;
  }
  return fields;
}

/** Variants belong to products: no other type's item may write product_variants rows. */
function variantsOf(type: CatalogueEntityType, item: WriteItem): Variant[] | undefined {
  if (type !== 'product') return undefined;
  return item.variant?.map((v) => ({ code: v.code, ean: v.ean ? v.ean : null }));
}

/**
 * A parameter lookup and the numbers it was asked for: a number asked for and not in it names
 * nothing (parameters and values are never deleted, so that stays true in the transaction).
 */
interface KnownLookup {
  lookup: ParameterLookup;
  parameters: Set<number>;
  values: Set<number>;
}

/**
 * The parameters and values the numbers of some products' `parameters_ids` and pairs may name:
 * `known` as it is when it was asked for all of them (an import's links name what its reference
 * check looked up: no second lookup), else with the numbers it lacks looked up and added.
 */
async function lookupOf(
  trx: Knex.Transaction,
  eshopId: number,
  products: { parameters_ids?: number[]; parameter_values?: ParameterValuesPair[] }[],
  known: KnownLookup = {
    lookup: { parameters: new Map(), values: new Map() },
    parameters: new Set(),
    values: new Set(),
  },
): Promise<KnownLookup> {
  const parameters = new Set<number>();
  const values = new Set<number>();
  const want = (id: number, into: Set<number>, asked: Set<number>) => {
    if (!asked.has(id)) into.add(id);
  };
  for (const product of products) {
    for (const id of product.parameters_ids ?? []) {
      want(id, parameters, known.parameters);
      want(id, values, known.values);
    }
    for (const pair of product.parameter_values ?? []) {
      want(pair.parameter_id, parameters, known.parameters);
      for (const id of pair.value_ids) want(id, values, known.values);
    }
  }
  if (!parameters.size && !values.size) return known;
  const found = await parametersRepository.lookup(trx, eshopId, [...parameters], [...values]);
  for (const [id, internal] of found.parameters) known.lookup.parameters.set(id, internal);
  for (const [id, list] of found.values) known.lookup.values.set(id, list);
  for (const id of parameters) known.parameters.add(id);
  for (const id of values) known.values.add(id);
  return known;
}

/**
 * What a product's parameter references link (docs/decisions/0032-a-product-shows-only-its-own.md, "A product shows only its own
 * parameter values"), in order, and the messages for those that link nothing:
 * - a number of `parameters_ids` that is a parameter's id links that parameter (a parameter id
 *   wins over a value id of the same number); else the one value of the eshop with that id links
 *   that value; a value id that several parameters' values have is ambiguous and links nothing;
 * - a pair `{parameter_id, value_ids}` links each named value of that parameter; a value id the
 *   parameter does not have links nothing.
 */
function linksOf(
  lookup: ParameterLookup,
  ids: readonly number[],
  pairs: readonly ParameterValuesPair[],
): { links: ProductParameterLink[]; errors: string[] } {
  const links: ProductParameterLink[] = [];
  const errors: string[] = [];
  ids.forEach((id, i) => {
    const parameter = lookup.parameters.get(id);
    const values = lookup.values.get(id) ?? [];
    if (parameter !== undefined) links.push({ parameterId: parameter, valueId: null });
    else if (values.length === 1) links.push({ parameterId: values[0]!.parameterId, valueId: values[0]!.id });
    else if (values.length > 1) errors.push(`The selected parameters_ids.${i} is ambiguous.`);
    else errors.push(`The selected parameters_ids.${i} is invalid.`);
  });
  pairs.forEach((pair, i) => {
    const parameter = lookup.parameters.get(pair.parameter_id);
    if (parameter === undefined) {
      errors.push(`The selected parameter_values.${i}.parameter_id is invalid.`);
      return;
    }
    pair.value_ids.forEach((valueId, j) => {
      const value = (lookup.values.get(valueId) ?? []).find((v) => v.parameterId === parameter);
      if (value) links.push({ parameterId: parameter, valueId: value.id });
      else errors.push(`The selected parameter_values.${i}.value_ids.${j} is invalid.`);
    });
  });
  return { links, errors };
}

/**
 * Checks brand_id, categories_ids, parameters_ids and parameter_values of products against what
 * exists for the eshop (soft-deleted items count: products keep pointing at them). Inside a
 * multi-import transaction, items written by earlier sections exist already.
 */
async function referenceErrors(
  trx: Knex.Transaction,
  eshopId: number,
  items: CheckedItem<WriteItem>[],
): Promise<{ errors: Map<number, string[]>; lookup: KnownLookup }> {
  const brands = new Set(items.flatMap(({ item }) => (item.brand_id ? [item.brand_id] : [])));
  const categories = new Set(items.flatMap(({ item }) => item.categories_ids ?? []));
  // One after another: the queries share the transaction's single connection.
  const knownBrands = await catalogueRepository.existingIds(trx, 'brand', eshopId, [...brands]);
  const knownCategories = await catalogueRepository.existingIds(trx, 'category', eshopId, [...categories]);
  const known = await lookupOf(
    trx,
    eshopId,
    items.map(({ item }) => item),
  );
  const { lookup } = known;
  const errors = new Map<number, string[]>();
  for (const { index, item } of items) {
    const messages: string[] = [];
    if (item.brand_id && !knownBrands.has(item.brand_id)) messages.push('The selected brand_id is invalid.');
    item.categories_ids?.forEach((id, i) => {
      if (!knownCategories.has(id)) messages.push(`The selected categories_ids.${i} is invalid.`);
    });
    messages.push(...linksOf(lookup, item.parameters_ids ?? [], item.parameter_values ?? []).errors);
    if (messages.length) errors.set(index, messages);
  }
  return { errors, lookup: known };
}

/**
 * Every item keeps a name in some language. The contract checks what is sent; only here, with
 * the stored row, can a multi-import item whose names are all `null` be seen to leave a new
 * item nameless or remove an existing item's last name.
 */
const NAMELESS = ['The name field is required.'];

interface WriteRound {
  imported: number;
  updated: number;
  unchanged: number;
  /** Items refused on their merged fields (NAMELESS); nothing of them is written. */
  errors: ItemError[];
  toRender: string[];
  events: NewEvent[];
  /** Items written as new that a concurrent request created first: merge them again. */
  lost: CheckedItem<WriteItem>[];
}

/**
 * One locking read and one multi-row upsert of `items`. Counts come from what the upsert did
 * (`xmax = 0`), not from what the read saw: two requests creating the same new ids at once both
 * see nothing to lock, and the second one's write meets the first one's row. That write then
 * updates nothing (`updateOnly`) and the item comes back in `lost`, to be merged with the row
 * the other request stored, as if the requests had run one after the other.
 */
async function writeRound(
  trx: Knex.Transaction,
  eshopId: number,
  type: CatalogueEntityType,
  items: CheckedItem<WriteItem>[],
  known: KnownLookup | undefined,
): Promise<WriteRound> {
  const stored = await catalogueRepository.findForUpdate(
    trx,
    type,
    eshopId,
    items.map(({ item }) => item.id),
    { withVariants: items.some(({ item }) => variantsOf(type, item) !== undefined) },
  );

  const writes: EntityWrite[] = [];
  const newVariants = new Map<string, Variant[]>();
  const rendered = new Set<string>();
  const errors: ItemError[] = [];
  for (const { index, item } of items) {
    const before = stored.get(item.id);
    const fields = mergedFields(type, before, item);
    if (!isRecord(fields.name) || Object.keys(fields.name).length === 0) {
      errors.push({ index, id: item.id, errors: NAMELESS });
      continue;
    }
    const isVisible = item.is_visible ?? before?.isVisible ?? true;
    const variants = variantsOf(type, item);
    const variantsChanged = variants !== undefined && !sameJson(variants, before?.variants ?? []);
    if (variants !== undefined && variantsChanged) newVariants.set(item.id, variants);

    const sourceChanged = !before || variantsChanged || !sameJson(fields, before.fields);
    if (sourceChanged) {
      writes.push({ externalId: item.id, isVisible, fields, status: 'generate' });
      rendered.add(item.id);
    } else if (isVisible !== before.isVisible || before.isDelete) {
      writes.push({ externalId: item.id, isVisible, fields, status: before.status });
    }
  }

  // The same row order in every request keeps concurrent imports from deadlocking each other.
  writes.sort((a, b) => (a.externalId < b.externalId ? -1 : a.externalId > b.externalId ? 1 : 0));
  const written = await catalogueRepository.upsert(trx, type, eshopId, writes, {
    updateOnly: [...stored.values()].map((s) => s.id),
  });
  const refused = new Set(errors.map((e) => e.index));
  const lost = items.filter(
    ({ index, item }) => !refused.has(index) && !stored.has(item.id) && !written.has(item.id),
  );
  const lostIds = new Set(lost.map(({ item }) => item.id));
  for (const id of lostIds) newVariants.delete(id);
  if (type === 'product') await replaceParameterLinks(trx, eshopId, writes, written, known);
  if (newVariants.size) {
    await variantsRepository.replace(
      trx,
      eshopId,
      new Map([...newVariants].map(([externalId, list]) => [written.get(externalId)!.id, list])),
      new Set(
        [...newVariants.keys()].filter((id) => written.get(id)!.inserted).map((id) => written.get(id)!.id),
      ),
    );
  }
  // Items left unwritten (same data) existed; every written row says whether it was inserted.
  const imported = [...written.values()].filter((row) => row.inserted).length;
  return {
    imported,
    updated: items.length - lost.length - imported - errors.length,
    unchanged: items.length - lost.length - errors.length - written.size,
    errors,
    toRender: [...rendered].filter((id) => !lostIds.has(id)),
    // Told apart by what the upsert did (`xmax = 0`), like the counts.
    events: [...written].map(([externalId, row]) => ({
      type: row.inserted ? 'item.created' : 'item.updated',
      entityType: type,
      externalId,
    })),
    lost,
  };
}

/**
 * Re-links the parameters of the products whose data this request changed (or created), from
 * their stored fields after the merge: `parameters_ids` and `parameter_values`. What the sent
 * fields name was checked before (referenceErrors) and is linked from that check's lookup; only
 * the numbers of kept fields it was not asked for are looked up here. A kept field's number that
 * names nothing any more links nothing.
 */
async function replaceParameterLinks(
  trx: Knex.Transaction,
  eshopId: number,
  writes: EntityWrite[],
  written: Map<string, UpsertedRow>,
  known: KnownLookup | undefined,
): Promise<void> {
  // A write that kept the item's status (visibility, undelete) kept its data and links too.
  const changed = writes.filter((w) => w.status === 'generate' && written.has(w.externalId));
  if (!changed.length) return;
  const fieldsOf = (w: EntityWrite) => ({
    parameters_ids: (w.fields.parameters_ids as number[] | null) ?? [],
    parameter_values: (w.fields.parameter_values as ParameterValuesPair[] | null) ?? [],
  });
  const { lookup } = await lookupOf(trx, eshopId, changed.map(fieldsOf), known);
  const rows = changed.map((w) => written.get(w.externalId)!);
  await productRelationsRepository.replaceLinks(
    trx,
    eshopId,
    new Map(
      changed.map((w, i) => {
        const f = fieldsOf(w);
        return [rows[i]!.id, linksOf(lookup, f.parameters_ids, f.parameter_values).links];
      }),
    ),
    new Set(rows.filter((row) => row.inserted).map((row) => row.id)),
  );
}

/**
 * Creates or updates validated items of one entity type inside the caller's transaction:
 * for products first the reference checks, then one locking read and one multi-row upsert (and
 * the variant replacement). An item whose source fields changed (or a new one) goes back to
 * `generate` and is returned in `toRender`; a change of is_visible alone, or bringing back a
 * soft-deleted item, keeps its status and content. `imported` and `updated` count what this
 * request inserted and updated. The caller appends the returned `events` last in its transaction.
 */
export async function importEntities(
  trx: Knex.Transaction,
  eshopId: number,
  type: CatalogueEntityType,
  checked: CheckedItem<WriteItem>[],
): Promise<EntityImportOutcome> {
  const errors: ItemError[] = [];
  let referenced = checked;
  let known: KnownLookup | undefined;
  if (type === 'product') {
    const refs = await referenceErrors(trx, eshopId, checked);
    known = refs.lookup;
    referenced = checked.filter(({ index, item }) => {
      const messages = refs.errors.get(index);
      if (messages) errors.push({ index, id: item.id, errors: messages });
      return !messages;
    });
  }
  const unique = withoutDuplicates(referenced);
  errors.push(...unique.errors);

  const outcome: EntityImportOutcome = {
    imported: 0,
    updated: 0,
    unchanged: 0,
    errors,
    toRender: [],
    events: [],
  };
  let pending = unique.accepted;
  // A lost item's row exists (and is locked by this transaction) once its round is over, so the
  // second round updates it; a third round would mean rows disappear, which imports never do.
  for (let round = 0; pending.length; round++) {
    if (round === 2) throw new Error(`${pending.length} ${type} items could be neither inserted nor updated`);
    const result = await writeRound(trx, eshopId, type, pending, known);
    outcome.imported += result.imported;
    outcome.updated += result.updated;
    outcome.unchanged += result.unchanged;
    outcome.errors.push(...result.errors);
    outcome.toRender.push(...result.toRender);
    outcome.events.push(...result.events);
    pending = result.lost;
  }
  return outcome;
}
