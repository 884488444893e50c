/**
 * The tables' rows as knex sees them (`declare module 'knex/types/tables'`): `db('<table>')` is
 * typed by them, so a repository's reads come back typed, its inserts and updates are checked
 * column by column, and a column renamed in a migration breaks the build here, not a request.
 *
 * The columns come from schema.generated.ts, written from the migrated schema by
 * `npm run gen:db-types` (a test fails when it is stale). What the catalog cannot say is said
 * here, in `ColumnTypes`: what a jsonb column holds, and which values a text column with a CHECK
 * takes. A narrowing must fit the column's SQL type and name a column that exists, or the build
 * fails (`narrowingsFit` below).
 *
 * jsonb columns are written as JSON text or an object (pg would send a JS array as a Postgres
 * array, so not an array); any column also takes a knex raw (`now()`, a subquery).
 */
import type {
  ContentEntityType,
  ContentFallback,
  EntityStatus,
  EventType,
  GenerationBatchItemStatus,
  GenerationBatchStatus,
  GenerationJobStatus,
  Language,
  PublishMode,
  RevisionSource,
  WhiteLabelEntityType,
} from '@catalogue/config';
import type { Knex } from 'knex';
import type { GenerateJobContext } from './generate-context';
import type { JsonDocument } from './json';
import type { LangMap } from './repositories/catalogue-tables';
import type { ContentOrigin, ContentOutputs } from './repositories/content.repository';
import type { LedgerKind } from './repositories/credits.repository';
import type { ListingField, ListingParameter, ListingRowStatus } from './repositories/listing.repository';
import type { SchemaGenerated, SchemaJson, SchemaOptionalOnInsert, SchemaRows } from './schema.generated';

/** created_at/updated_at as the repositories read them: ISO 8601 with a numeric offset. */
export interface TimestampsOut {
  created_at: string;
  updated_at: string;
}

/** A fillable widget a generation job left out, and why (the worker's reasons). */
export interface SkippedWidgetRow {
  design_widget_id: number;
  type: string;
  reason: string;
}

/** A research page a generation job's texts came from, and the widget that used it. */
export interface ResearchSourceRow {
  url: string;
  design_widget_id: number | null;
}

/** A research URL a generation job did not read, and why (short, no secrets). */
export interface ResearchRefusalRow {
  url: string;
  reason: string;
}

/** The state and language maps every catalogue entity has. */
interface EntityLangColumns {
  status: EntityStatus;
  name: LangMap;
  url: LangMap;
  description: LangMap;
  seo_title: LangMap;
  seo_description: LangMap;
}

/**
 * What the catalog cannot tell: the shape of jsonb columns and the values of text columns a
 * CHECK constraint (or the application) limits. Nullability stays the column's.
 */
export interface ColumnTypes {
  generation_jobs: {
    status: GenerationJobStatus;
    /** A registered entity's type (foreign key to wl_entities). */
    entity_type: WhiteLabelEntityType;
    context: GenerateJobContext;
    usage: Record<string, number>;
    widgets_skipped: SkippedWidgetRow[];
    research_sources: ResearchSourceRow[];
    research_refused: ResearchRefusalRow[];
  };
  generation_batches: {
    status: GenerationBatchStatus;
    entity_type: WhiteLabelEntityType;
    languages: string[];
  };
  generation_batch_items: { status: GenerationBatchItemStatus };
  wl_entities: { type: WhiteLabelEntityType; old_description: LangMap; title: LangMap };
  widget_favourites: { children: unknown[] };
  listing_batches: { format: 'json' | 'csv' };
  listing_rows: {
    status: ListingRowStatus;
    field: Record<string, ListingField>;
    parameter: ListingParameter[];
  };
  events: { type: EventType; data: Record<string, unknown> };
  webhook_endpoints: { event_types: EventType[] };
  content: {
    entity_type: ContentEntityType;
    origin: ContentOrigin;
    tree: unknown[];
    languages_complete: string[];
  } & Omit<ContentOutputs, 'languages_complete'>;
  content_revisions: {
    source: RevisionSource;
    languages_changed: string[];
    tree: unknown[];
  };
  parameters: { name_translations: Record<string, string> };
  prompts: { search_web: string[]; search_model: string[] };
  credit_ledger: { kind: LedgerKind };
  designs: {
    name_translation: Record<string, string>;
    category: WhiteLabelEntityType;
    type: 'public' | 'custom';
  };
  design_widgets: { overrides: JsonDocument };
  widgets: { definition: JsonDocument };
  eshops: {
    languages: Language[];
    content_fallback: ContentFallback;
    default_language: Exclude<Language, 'default'>;
    publish_mode: PublishMode;
  };
  content_drafts: {
    entity_type: ContentEntityType;
    tree: unknown[];
    html: Partial<Record<string, string>>;
  };
  products: EntityLangColumns & { short_description: LangMap };
  categories: EntityLangColumns;
  brands: EntityLangColumns;
  blogs: EntityLangColumns;
}

export type TableName = keyof SchemaRows;

type Narrowing<T extends TableName> = T extends keyof ColumnTypes ? ColumnTypes[T] : object;

/** A table's row as a read returns it: the generated column types, narrowed by `ColumnTypes`. */
export type Row<T extends TableName> = {
  [C in keyof SchemaRows[T]]: C extends keyof Narrowing<T>
    ? Narrowing<T>[C] | (null extends SchemaRows[T][C] ? null : never)
    : SchemaRows[T][C];
};

/** Columns of `ColumnTypes` that no table has, or whose narrowing does not fit the SQL type. */
type Misfits = {
  [T in keyof ColumnTypes]: {
    [C in keyof ColumnTypes[T]]: T extends TableName
      ? C extends keyof SchemaRows[T]
        ? ColumnTypes[T][C] extends NonNullable<SchemaRows[T][C]>
          ? never
          : `${T}.${C & string}`
        : `${T}.${C & string}`
      : T;
  }[keyof ColumnTypes[T]];
}[keyof ColumnTypes];
// A narrowing of a column that was renamed, dropped or retyped fails here, naming the column.
export const narrowingsFit: [Misfits] extends [never] ? true : Misfits = true;

/** A json value pg serialises itself: an object (it sends an array as a PostgreSQL array). */
type JsonObject<V> = V extends readonly unknown[] ? never : V;

/**
 * A written column: its value (JSON text for json/jsonb, or an object; a date or timestamp also
 * as ISO text),
 * or SQL computing it.
 */
type Written<T extends TableName, C extends keyof SchemaRows[T]> =
  | (C extends SchemaJson[T] ? string | JsonObject<Row<T>[C]> : Row<T>[C])
  | (Date extends SchemaRows[T][C] ? string : never)
  | Knex.Raw;

type Optional<T extends TableName> = SchemaOptionalOnInsert[T] & keyof SchemaRows[T];

/** What an insert takes: every column without a default or null, and any other. */
export type Insert<T extends TableName> = {
  [C in Exclude<keyof SchemaRows[T], Optional<T>>]: Written<T, C>;
} & { [C in Optional<T>]?: Written<T, C> | undefined };

/** What an update takes: any column but the generated ones. */
export type Update<T extends TableName> = {
  [C in Exclude<keyof SchemaRows[T], SchemaGenerated[T]>]?: Written<T, C> | undefined;
};

type KnexTables = { [T in TableName]: Knex.CompositeTableType<Row<T>, Insert<T>, Update<T>> };

export type GenerationJobRow = Row<'generation_jobs'>;
export type WlEntityRow = Row<'wl_entities'>;
export type WidgetFavouriteRow = Row<'widget_favourites'>;
export type ListingRowRow = Row<'listing_rows'>;

declare module 'knex/types/tables' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Tables extends KnexTables {}
}
