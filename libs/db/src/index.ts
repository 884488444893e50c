export { createKnex, isDatabaseUnavailable, pingDatabase, poolSaturated, poolState } from './knex';
export { PoolQueueFullError } from './pool';
export type { DatabaseOptions } from './knex';
export {
  migrateLatest,
  migrateDownOne,
  migrateUpTo,
  rollbackAll,
  ensureDatabase,
  dropDatabase,
  databaseName,
  withDatabase,
  withMigrationLock,
  MIGRATION_LOCK_KEY,
} from './migrate';
export { issueToken, hashToken, TOKEN_PREFIX_LENGTH } from './tokens';
export type { TokenKind, IssuedToken } from './tokens';
export { eshopsRepository } from './repositories/eshops.repository';
export type { Eshop, EshopInput } from './repositories/eshops.repository';
export { tokensRepository } from './repositories/tokens.repository';
export type { TokenInfo } from './repositories/tokens.repository';
export { originsRepository } from './repositories/origins.repository';
export { creditsRepository } from './repositories/credits.repository';
export type {
  CreditAccount,
  CreditPrice,
  JobCredits,
  LedgerEntry,
  LedgerKind,
  ReservationResult,
} from './repositories/credits.repository';
export type { Knex } from 'knex';
export { normaliseOrigin } from './origins';
export {
  catalogueRepository,
  ENTITY_TABLES,
  type EntityField,
  LISTED_FIELDS,
  type ListedAs,
  type ListedField,
  listedValue,
} from './repositories/catalogue.repository';
export { isoMicros, isoOffset } from './timestamps';
export {
  contentListJson,
  decodeFragments,
  entityListJson,
  jsonbJson,
  LANGUAGE_FIELDS,
  langSlot,
  LIST_JSON_LAYOUT,
  entityPiecesSql,
  contentPiecesSql,
  SLOTS as LIST_JSON_SLOTS,
  valueSlot,
  type PiecesWanted,
  wantedSlots,
  type ListedOutputs,
  type ListFragments,
} from './list-fragments';
export type {
  EntityRecord,
  EntityWrite,
  UpsertedRow,
  StoredEntity,
  ListedEntity,
  ListedPieces,
  ListFilter,
  ListOptions,
  LangMap,
} from './repositories/catalogue.repository';
export {
  productRelationsRepository,
  type ProductParameterLink,
  type ProductRef,
  type ProductRelations,
} from './repositories/product-relations.repository';
export { variantsRepository } from './repositories/variants.repository';
export type { Variant } from './repositories/variants.repository';
export { parametersRepository, type StoredParameter } from './repositories/parameters.repository';
export type {
  ParameterWrite,
  ParameterValueWrite,
  UpsertCounts,
  WrittenParameter,
} from './repositories/parameters.repository';
export { listingRepository } from './repositories/listing.repository';
export type {
  ListingBatch,
  ListingField,
  ListingParameter,
  ListingRow,
  ListingRowInput,
  ListingRowStatus,
  ListingSource,
} from './repositories/listing.repository';
export { CONTENT_WRITE_ROWS, contentColumns, contentRepository } from './repositories/content.repository';
export { contentRevisionsRepository } from './repositories/content-revisions.repository';
export { contentDraftsRepository } from './repositories/content-drafts.repository';
export type { DraftState, EditorView, PublishMode } from './repositories/content-drafts.repository';
export type {
  ImportRevision,
  RevisionSource,
  RevisionSummary,
  RevisionWrite,
  RevisionWriteOf,
} from './repositories/content-revisions.repository';
export type {
  ContentColumns,
  ContentKey,
  ContentOrigin,
  ContentOutputs,
  EditableContent,
  StoredContent,
} from './repositories/content.repository';
export type { ParameterLookup, ParameterWithValues } from './repositories/parameters.repository';
export { designsRepository } from './repositories/designs.repository';
export { catalogueSeedRepository } from './repositories/catalogue-seed.repository';
export type {
  CountedDesign,
  DesignRow,
  StoredDesign,
  StoredDesignCategory,
  StoredDesignWidget,
  StoredWidget,
} from './repositories/designs.repository';
export type { JsonDocument } from './json';
export { generationJobsRepository } from './repositories/generation-jobs.repository';
export { stuckItemsRepository } from './repositories/stuck-items.repository';
export type { StuckItem, StuckListingRow } from './repositories/stuck-items.repository';
export type { GenerateJobContext, OtherLanguageSource } from './generate-context';
export type {
  GenerationJob,
  JobOutcome,
  GenerationJobStatus,
  NewGenerationJob,
} from './repositories/generation-jobs.repository';
export { promptsRepository } from './repositories/prompts.repository';
export type { Prompt } from './repositories/prompts.repository';
export { wlEntitiesRepository } from './repositories/wl-entities.repository';
export type { WlEntity, WlEntityType, WlEntityWrite } from './repositories/wl-entities.repository';
export { favouritesRepository } from './repositories/favourites.repository';
export type { WidgetFavourite, WidgetFavouriteWrite } from './repositories/favourites.repository';
export { widgetCatalogueRepository } from './repositories/widget-catalogue.repository';
export type { CatalogueWidget } from './repositories/widget-catalogue.repository';
export { idempotencyRepository } from './repositories/idempotency.repository';
export type { IdempotencyClaim, IdempotencyRecord } from './repositories/idempotency.repository';
export type { ResearchRefusalRow, ResearchSourceRow, SkippedWidgetRow } from './tables';
export { eventsRepository } from './repositories/events.repository';
export type { NewEvent, StoredEvent } from './repositories/events.repository';
export { webhooksRepository, DELIVERY_LOG_SIZE } from './repositories/webhooks.repository';
export type {
  NewWebhookDelivery,
  OutboxLag,
  PendingRedelivery,
  RelayCursor,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookTarget,
} from './repositories/webhooks.repository';
export { copyRows, parseBinaryCopy, type CopiedRow } from './copy-rows';
export { generationBatchesRepository } from './repositories/generation-batches.repository';
export type {
  BatchCounts,
  BatchItem,
  BatchItemError,
  BatchSelection,
  GenerationBatch,
  NewGenerationBatch,
} from './repositories/generation-batches.repository';
