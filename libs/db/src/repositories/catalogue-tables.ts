// The catalogue entities' tables and the shapes their repository functions read and write.
import type { CatalogueEntityType, EntityStatus } from '@catalogue/config';

export type LangMap = Record<string, string>;

/** Language-map columns of every entity; products add short_description. */
export const COMMON_LANG_FIELDS = ['name', 'url', 'description', 'seo_title', 'seo_description'] as const;

/** The tables of the catalogue entities (their common columns are typed through any of them). */
export type EntityTableName = 'products' | 'categories' | 'brands' | 'blogs';

interface EntityTable {
  table: EntityTableName;
  langFields: readonly string[];
  /** Non-language columns written by imports, besides is_visible. */
  dataFields: readonly string[];
  /** Lists show only `ready` items, except brands, which have no status filter. */
  listedOnlyWhenReady: boolean;
}

export const ENTITY_TABLES: Record<CatalogueEntityType, EntityTable> = {
  product: {
    table: 'products',
    langFields: [...COMMON_LANG_FIELDS, 'short_description'],
    dataFields: ['images', 'brand_id', 'categories_ids', 'parameters_ids', 'parameter_values'],
    listedOnlyWhenReady: true,
  },
  category: {
    table: 'categories',
    langFields: COMMON_LANG_FIELDS,
    dataFields: ['images'],
    listedOnlyWhenReady: true,
  },
  brand: {
    table: 'brands',
    langFields: COMMON_LANG_FIELDS,
    dataFields: ['image_preview'],
    listedOnlyWhenReady: false,
  },
  blog: {
    table: 'blogs',
    langFields: COMMON_LANG_FIELDS,
    dataFields: ['category', 'images'],
    listedOnlyWhenReady: true,
  },
};

/** JSONB columns among the data fields (knex needs them serialised). */
export const JSON_FIELDS = new Set(['images', 'categories_ids', 'parameters_ids', 'parameter_values']);

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
