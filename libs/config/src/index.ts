export { loadConfig, loadConfigOrExit, ConfigError, configSchema, hashTagOf } from './config';
export type { Config, RedisAddress, RedisTopology } from './config';
export { isRecord } from './guards';
export { CATALOGUE_API_LANGUAGES, CONTENT_LANGUAGES, V1_LANGUAGES, isLanguage } from './languages';
export type { LangMap, Language } from './languages';
export {
  CATALOGUE_ENTITY_TYPES,
  CONTENT_ENTITY_TYPES,
  CONTENT_FALLBACKS,
  ENTITY_STATUSES,
  EVENT_TYPES,
  GENERATION_BATCH_ITEM_STATUSES,
  GENERATION_BATCH_STATUSES,
  GENERATION_JOB_STATUSES,
  isOneOf,
  PUBLISH_MODES,
  REVISION_SOURCES,
  V1_ENTITY_TYPES,
  WHITE_LABEL_ENTITY_TYPES,
} from './vocabulary';
export type {
  CatalogueEntityType,
  ContentEntityType,
  ContentFallback,
  EntityStatus,
  EventType,
  GenerationBatchItemStatus,
  GenerationBatchStatus,
  GenerationJobStatus,
  PublishMode,
  RevisionSource,
  V1EntityType,
  WhiteLabelEntityType,
} from './vocabulary';
export { VARIABLES, SERVICES, TRACE_SAMPLERS } from './variables';
export type { Reader, TraceSampler, Variable, VariableName } from './variables';
export {
  CHART_COMPONENTS,
  chartConfigProperties,
  chartDefaultOf,
  chartReaders,
  chartVariables,
  defaultOf,
  renderConfigFiles,
  type ConfigFiles,
  type JsonProperty,
} from './document';
export { boundHeap, CATALOGUE_API_HEAP_FLAGS, IMAGE_HEAP_FLAGS, missingHeapFlags } from './heap-bounds';
export type { HeapFlags } from './heap-bounds';
