// The catalogue entities' tables and the shapes their repository functions read and write.
import type { CatalogueEntityType, EntityStatus } from '@catalogue/config';

export type LangMap = Record<string, string>;

/**
 * How the v2 list shows a field, after the item's head (id, guid, is_visible, is_loaded) and in
 * the order of the type's fields: a language map shows the requested languages that have a
 * value; another field shows as the string `as`, from `value` of the column (the column itself
 * when absent), `""` when there is none (the specification types these `string`, never null).
 */
export interface ListedAs {
  as: string;
  value?: (stored: unknown) => unknown;
}

/**
 * A column of an entity row that imports write. The write columns, the list's stored pieces
 * (list-fragments.ts), the v2 list item (catalogue-api's list-item.ts) and its documented
 * schema (list-items.schema.ts) follow from each type's list of these.
 */
export type EntityField =
  /** A language map (`{"cs": "…"}`), listed. */
  | { column: string; kind: 'text' }
  /** Any other column: JSONB or plain; `empty` when no import has sent it; listed when `listed`. */
  | { column: string; kind: 'data'; json: boolean; empty: unknown; listed?: ListedAs };

const text = (column: string): EntityField => ({ column, kind: 'text' });
const data = (column: string, json: boolean, empty: unknown, listed?: ListedAs): EntityField => ({
  column,
  kind: 'data',
  json,
  empty,
  ...(listed && { listed }),
});

/** The texts of every entity, in the list's order; products add short_description after the name. */
const TEXTS = ['name', 'description', 'url', 'seo_title', 'seo_description'].map(text);
const IMAGES = data('images', true, []);

/** The tables of the catalogue entities (their common columns are typed through any of them). */
export type EntityTableName = 'products' | 'categories' | 'brands' | 'blogs';

interface EntityTable {
  table: EntityTableName;
  /** The columns imports write (besides is_visible), in the v2 list item's order. */
  fields: readonly EntityField[];
  /** Of `fields`: the language maps, and the other columns. */
  langFields: readonly string[];
  dataFields: readonly string[];
  /** Lists show only `ready` items, except brands, which have no status filter. */
  listedOnlyWhenReady: boolean;
}

function entityTable(
  table: EntityTableName,
  fields: EntityField[],
  listedOnlyWhenReady: boolean,
): EntityTable {
  const columns = (kind: EntityField['kind']) => fields.filter((f) => f.kind === kind).map((f) => f.column);
  return { table, fields, langFields: columns('text'), dataFields: columns('data'), listedOnlyWhenReady };
}

/** The first of a product's images (an array of URLs: the write contract validates it). */
const firstImage = (images: unknown): unknown => (Array.isArray(images) ? images[0] : undefined);

/** The one home of each entity type's fields: add a field here (and its column, its write contract). */
export const ENTITY_TABLES: Record<CatalogueEntityType, EntityTable> = {
  product: entityTable(
    'products',
    [
      TEXTS[0]!,
      text('short_description'),
      ...TEXTS.slice(1),
      data('images', true, [], { as: 'image_preview', value: firstImage }),
      data('brand_id', false, null),
      data('categories_ids', true, []),
      data('parameters_ids', true, []),
      data('parameter_values', true, []),
    ],
    true,
  ),
  category: entityTable('categories', [...TEXTS, IMAGES], true),
  brand: entityTable(
    'brands',
    [...TEXTS, data('image_preview', false, null, { as: 'image_preview' })],
    false,
  ),
  blog: entityTable('blogs', [...TEXTS, data('category', false, null, { as: 'category' }), IMAGES], true),
};

/** JSONB columns among the data fields (knex needs them serialised). */
export const JSON_FIELDS: ReadonlySet<string> = new Set(
  Object.values(ENTITY_TABLES).flatMap((t) =>
    t.fields.flatMap((f) => (f.kind === 'data' && f.json ? [f.column] : [])),
  ),
);

/**
 * A field of the v2 list item after its head, in the item's order: a language map (`listed`
 * absent) or a listed value, shown under `key`.
 */
export interface ListedField {
  key: string;
  column: string;
  listed?: ListedAs;
}

function listedFieldsOf({ fields }: EntityTable): readonly ListedField[] {
  return fields.flatMap((f): ListedField[] => {
    if (f.kind === 'text') return [{ key: f.column, column: f.column }];
    return f.listed ? [{ key: f.listed.as, column: f.column, listed: f.listed }] : [];
  });
}

/** Each entity type's listed fields (ENTITY_TABLES). */
export const LISTED_FIELDS: Record<CatalogueEntityType, readonly ListedField[]> = {
  product: listedFieldsOf(ENTITY_TABLES.product),
  category: listedFieldsOf(ENTITY_TABLES.category),
  brand: listedFieldsOf(ENTITY_TABLES.brand),
  blog: listedFieldsOf(ENTITY_TABLES.blog),
};

/** What the list shows of a listed column's stored value: `""` when there is none. */
export function listedValue(listed: ListedAs, stored: unknown): unknown {
  return (listed.value ? listed.value(stored) : stored) ?? '';
}

/** The stored, importable state of an entity: what an import compares and writes. */
export interface EntityRecord {
  externalId: string;
  isVisible: boolean;
  /** Language maps and data fields by column name. */
  fields: Record<string, unknown>;
}

export interface StoredVariant {
  code: string;
  ean: string | null;
}

export interface StoredEntity extends EntityRecord {
  id: number;
  status: EntityStatus;
  isDelete: boolean;
  /** A product's variants in internal-id order, when asked for (`withVariants`). */
  variants?: StoredVariant[];
}

export interface EntityWrite extends EntityRecord {
  status: EntityStatus;
}

/** A row an upsert wrote: its internal id, and whether the statement inserted it. */
export interface UpsertedRow {
  id: number;
  inserted: boolean;
}

export interface ListFilter {
  isLoaded?: boolean;
  /** Only items updated strictly after this instant (ISO string, UTC). */
  updatedAfter?: string;
}

export interface ListOptions extends ListFilter {
  page: number;
  perPage: number;
  /** Rendered outputs to read besides content.html. */
  outputs: {
    marketplace?: boolean;
    nested?: boolean;
    siteLink?: boolean;
    richSnippet?: boolean;
    languagesComplete?: boolean;
  };
  withVariants?: boolean;
  /**
   * Read each row's stored list pieces (`listJson`) instead of its JSONB columns, which are read
   * only for rows without pieces (docs/decisions/0070-pre-serialised-list-items.md, "Pre-serialised list items").
   */
  listJson?: boolean;
  /**
   * With `listJson`: the languages the request sends; only their pieces (and only the pieces
   * of `outputs`) are read. Absent: every language's.
   */
  languages?: readonly string[];
  /**
   * With `listJson`: the languages the rows hold pieces in (the eshop's). A request for every
   * piece of these reads the stored pieces as they are. Absent: every language the lists show.
   */
  storedLanguages?: readonly string[];
}

/** A listed item as stored, with its rendered content (missing content reads as empty). */
export interface ListedEntity {
  id: number;
  externalId: string;
  guid: string;
  isVisible: boolean;
  isLoaded: boolean;
  fields: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  content: {
    html: LangMap;
    marketplace?: LangMap;
    nested?: unknown[];
    siteLink?: { html: LangMap; list: Record<string, { heading: string; slug: string }[]> };
    richSnippet?: { html: LangMap; json: Record<string, unknown> };
    /** Stored at render time; null for content rendered before it was computed (or none yet). */
    languagesComplete?: string[] | null;
  };
  variants?: { code: string; ean: string | null }[];
  /**
   * With `ListOptions.listJson`: the stored pieces (libs/db/src/list-fragments.ts) of the entity
   * row and of its content row (null: it has none, empty content), or null when the row must be
   * served from `fields` and `content` (then filled).
   */
  listJson?: { entity: string; content: string | null } | null;
}

/** The importable columns of an entity type: its language maps, then its data fields. */
export function columnsOf(type: CatalogueEntityType): string[] {
  const t = ENTITY_TABLES[type];
  return [...t.langFields, ...t.dataFields];
}
