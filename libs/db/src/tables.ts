/**
 * The tables' rows as knex sees them (`declare module 'knex/types/tables'`): `db('<table>')` is
 * typed by these, so a repository's reads come back typed, its inserts and updates are checked
 * column by column, and a column renamed in a migration breaks the build here, not a request.
 *
 * jsonb columns are written as JSON text (pg would send a JS array as a Postgres array), so
 * their insert/update type is `string`; timestamps are read through `isoOffset()` (strings) and
 * written by Postgres (`now()`), so any column also takes a knex raw. Add a table here when its
 * repository is written or touched.
 */
import type { GenerationJobStatus, WhiteLabelEntityType } from '@catalogue/config';
import type { Knex } from 'knex';
import type { GenerateJobContext } from './generate-context';
import type { LangMap } from './repositories/catalogue.repository';
import type { ListingField, ListingParameter, ListingRowStatus } from './repositories/listing.repository';

type Json = string;

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

export interface GenerationJobRow {
  id: number;
  eshop_id: number;
  entity_type: string;
  entity_id: string;
  design_id: number;
  design_owner: number;
  status: GenerationJobStatus;
  lang: string;
  context: GenerateJobContext;
  estimated_cost: number;
  charged_cost: number | null;
  widgets_created: number;
  error_message: string | null;
  provider: string | null;
  usage: Record<string, number> | null;
  widgets_skipped: SkippedWidgetRow[];
  research_sources: ResearchSourceRow[];
  /** A settlement charged or released the reservation (or found none): the sweeper skips it. */
  reservation_settled: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface WlEntityRow {
  id: number;
  eshop_id: number;
  entity_id: string;
  type: WhiteLabelEntityType;
  design_id: number | null;
  design_owner: number | null;
  old_description: LangMap;
  title: LangMap;
  created_at: Date;
  updated_at: Date;
}

export interface WidgetFavouriteRow {
  id: number;
  eshop_id: number;
  name: string;
  widget_id: number;
  children: unknown[];
  created_at: Date;
  updated_at: Date;
}

export interface ListingBatchRow {
  id: number;
  eshop_id: number;
  format: 'json' | 'csv';
  rows_total: number;
  created_at: Date;
}

export interface ListingRowRow {
  id: number;
  eshop_id: number;
  batch_id: number;
  external_id: string;
  status: ListingRowStatus;
  field: Record<string, ListingField>;
  parameter: ListingParameter[];
  error_message: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface EventRow {
  eshop_id: number;
  seq: number;
  type: string;
  entity_type: string;
  external_id: string;
  occurred_at: Date;
  data: Record<string, unknown>;
  /** The W3C traceparent of the span that wrote it (null while tracing is off). */
  traceparent: string | null;
}

export interface EventSequenceRow {
  eshop_id: number;
  last_seq: number;
}

export interface WebhookEndpointRow {
  id: number;
  eshop_id: number;
  url: string;
  event_types: string[];
  secret: string;
  /** The secret before the last rotation, valid until `previous_secret_expires_at`. */
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  last_seq: number;
  /** The cursor when delivery state began to be kept: events up to it have no pending row. */
  delivery_tracked_from: number;
  failing_since: Date | null;
  disabled_at: Date | null;
  disabled_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

/** An event relayed to an endpoint whose delivery has neither succeeded nor finally failed. */
export interface WebhookPendingDeliveryRow {
  eshop_id: number;
  endpoint_id: number;
  seq: number;
  queued_at: Date;
  claimed_at: Date | null;
}

export interface WebhookDeliveryRow {
  id: number;
  eshop_id: number;
  endpoint_id: number;
  seq: number;
  attempt: number;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
  response_excerpt: string | null;
  at: Date;
}

export interface WebhookRedeliveryRow {
  id: number;
  eshop_id: number;
  endpoint_id: number;
  next_seq: number;
  to_seq: number;
  created_at: Date;
}

export interface ContentRevisionRow {
  id: number;
  eshop_id: number;
  entity_type: string;
  external_id: string;
  version: number;
  source: 'editor' | 'fill' | 'generation' | 'import' | 'restore' | 'repair';
  generation_job_id: number | null;
  languages_changed: string[];
  tree: unknown[];
  created_at: Date;
}

/**
 * A parameter or value a product links (docs/decisions.md, "A product shows only its own
 * parameter values"): `value_id` null links the parameter as a whole. Keyed by
 * (eshop_id, product_id, position); every reference includes eshop_id.
 */
export interface ProductParameterValueRow {
  eshop_id: number;
  product_id: number;
  position: number;
  parameter_id: number;
  value_id: number | null;
}

/** A column's value, or SQL computing it (`now()`, a subquery). */
type Values<T> = { [K in keyof T]: T[K] | Knex.Raw };

/**
 * What a row accepts: on insert the `Required` columns and any others but the id; on update any
 * column but the id. jsonb columns take JSON text.
 */
type Writable<Row, JsonKeys extends keyof Row, Required extends keyof Row> = Knex.CompositeTableType<
  Row,
  Values<Pick<Row, Required>> &
    Partial<Values<Omit<Row, JsonKeys | Required | 'id'>>> & { [K in JsonKeys]?: Json | null },
  Partial<Values<Omit<Row, JsonKeys | 'id'>>> & { [K in JsonKeys]?: Json | null }
>;

declare module 'knex/types/tables' {
  interface Tables {
    generation_jobs: Writable<
      GenerationJobRow,
      'context' | 'usage' | 'widgets_skipped' | 'research_sources',
      'eshop_id' | 'entity_type' | 'entity_id' | 'design_id' | 'lang' | 'estimated_cost'
    >;
    wl_entities: Writable<WlEntityRow, 'old_description' | 'title', 'eshop_id' | 'entity_id' | 'type'>;
    widget_favourites: Writable<WidgetFavouriteRow, 'children', 'eshop_id' | 'name' | 'widget_id'>;
    listing_batches: Writable<ListingBatchRow, never, 'eshop_id' | 'format' | 'rows_total'>;
    listing_rows: Writable<ListingRowRow, 'field' | 'parameter', 'eshop_id' | 'batch_id' | 'external_id'>;
    events: Writable<EventRow, 'data', 'eshop_id' | 'seq' | 'type' | 'entity_type' | 'external_id'>;
    event_sequences: Writable<EventSequenceRow, never, 'eshop_id'>;
    webhook_endpoints: Writable<
      WebhookEndpointRow,
      'previous_secret' | 'previous_secret_expires_at',
      'eshop_id' | 'url' | 'event_types' | 'secret' | 'last_seq'
    >;
    webhook_pending_deliveries: Writable<
      WebhookPendingDeliveryRow,
      never,
      'eshop_id' | 'endpoint_id' | 'seq'
    >;
    webhook_deliveries: Writable<
      WebhookDeliveryRow,
      never,
      'eshop_id' | 'endpoint_id' | 'seq' | 'attempt' | 'latency_ms'
    >;
    content_revisions: Writable<
      ContentRevisionRow,
      'languages_changed' | 'tree',
      'eshop_id' | 'entity_type' | 'external_id' | 'version' | 'source'
    >;
    product_parameter_values: Writable<
      ProductParameterValueRow,
      never,
      'eshop_id' | 'product_id' | 'position' | 'parameter_id'
    >;
    webhook_redeliveries: Writable<
      WebhookRedeliveryRow,
      never,
      'eshop_id' | 'endpoint_id' | 'next_seq' | 'to_seq'
    >;
  }
}
