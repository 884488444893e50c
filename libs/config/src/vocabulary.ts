/**
 * The domain's words, declared once at the bottom layer so that every package (the database's
 * repositories, the queues, the services, the renderers) says the same thing. Migrations keep
 * their own copies: a landed migration never changes, and its check constraints record what the
 * words were when it ran.
 */

/** What the catalogue API imports and lists (v2; v1 knows products and categories). */
export const CATALOGUE_ENTITY_TYPES = ['product', 'category', 'brand', 'blog'] as const;
export type CatalogueEntityType = (typeof CATALOGUE_ENTITY_TYPES)[number];

/** The catalogue API v1's two item types. */
export const V1_ENTITY_TYPES = ['product', 'category'] as const;
export type V1EntityType = (typeof V1_ENTITY_TYPES)[number];

/** What the white-label API (the editor) edits: catalogue brands have no editor; pages have no catalogue. */
export const WHITE_LABEL_ENTITY_TYPES = ['product', 'category', 'blog', 'page'] as const;
export type WhiteLabelEntityType = (typeof WHITE_LABEL_ENTITY_TYPES)[number];

/** Everything that has stored content: the catalogue's types and the editor's pages. */
export const CONTENT_ENTITY_TYPES = ['product', 'category', 'brand', 'blog', 'page'] as const;
export type ContentEntityType = (typeof CONTENT_ENTITY_TYPES)[number];

/**
 * Where a catalogue item is in its life (`status` of the catalogue tables): written by hand
 * without content (`draft`), waiting for its content (`generate`), held for a person (`review`),
 * served (`ready`).
 */
export const ENTITY_STATUSES = ['draft', 'generate', 'review', 'ready'] as const;
export type EntityStatus = (typeof ENTITY_STATUSES)[number];

/**
 * What a storefront sees of a widget not yet translated into the language asked
 * (`eshops.content_fallback`): `fallback` shows the `default` text marked with its `lang`;
 * `omit` leaves the widget out.
 */
export const CONTENT_FALLBACKS = ['fallback', 'omit'] as const;
export type ContentFallback = (typeof CONTENT_FALLBACKS)[number];

/** A generation job's life (`generation_jobs.status`). */
export const GENERATION_JOB_STATUSES = ['pending', 'running', 'done', 'failed'] as const;
export type GenerationJobStatus = (typeof GENERATION_JOB_STATUSES)[number];

/** A bulk generation's state (beyond the specification): `generation_batches_status_known` lists the same. */
export const GENERATION_BATCH_STATUSES = ['queued', 'running', 'paused', 'cancelled', 'finished'] as const;
export type GenerationBatchStatus = (typeof GENERATION_BATCH_STATUSES)[number];

/**
 * One item of a batch (an entity in one language): waiting, its generation job under way, done,
 * failed, or left out without charge (nothing to write from, the budget would be exceeded,
 * cancelled); `generation_batch_items_status_known` lists the same.
 */
export const GENERATION_BATCH_ITEM_STATUSES = ['queued', 'running', 'done', 'failed', 'left_out'] as const;
export type GenerationBatchItemStatus = (typeof GENERATION_BATCH_ITEM_STATUSES)[number];

/**
 * Who wrote a revision of an entity's content (`content_revisions.source`): people in the editor,
 * a fill, a generation job, an import's re-render, a restore, a one-off repair of stored
 * content run when the database is prepared, and (an eshop whose edits wait as drafts) the
 * publishing of a draft or its discarding.
 */
export const REVISION_SOURCES = [
  'editor',
  'fill',
  'generation',
  'import',
  'restore',
  'repair',
  'publish',
  'discard',
] as const;
export type RevisionSource = (typeof REVISION_SOURCES)[number];

/**
 * Whether the editor's writes reach the storefront at once (`immediate`, the specification's
 * behaviour) or wait as a draft until published (`draft`), per eshop (`eshops.publish_mode`).
 */
export const PUBLISH_MODES = ['immediate', 'draft'] as const;
export type PublishMode = (typeof PUBLISH_MODES)[number];

/** What happened, as the change feed and webhooks tell it (the `events_type_known` check lists the same). */
export const EVENT_TYPES = [
  'item.created',
  'item.updated',
  'item.deleted',
  'item.content_ready',
  'generation.succeeded',
  'generation.failed',
  'listing.batch_finished',
  'credits.low',
  'generation.batch_finished',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Whether `value` is one of the words of `list` (a vocabulary list above, a language list), as a
 * type guard: the one check of untyped text against a list, without a cast.
 */
export function isOneOf<T extends string>(list: readonly T[], value: unknown): value is T {
  return list.some((word) => word === value);
}
