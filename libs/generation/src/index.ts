export {
  batchItemBody,
  estimateBatchItem,
  knownIn,
  newPlanMemo,
  languageInWords,
  NothingToWriteFromError,
  planGeneration,
  sourceLanguages,
  writingTexts,
} from './plan';
export type { BatchItemRequest, GenerateBody, PlanInput, PlanMemo, PlannedGeneration } from './plan';
export { registrationDesign, requireEntityOrItem, toMap } from './entity';
export {
  afterItemSettled,
  BATCH_ERRORS_SHOWN,
  BATCH_LANES_MAX,
  BATCH_LIST_LIMIT,
  BATCH_MAX_ENTITIES,
  BATCH_STEP_MS,
  BATCH_WINDOW,
  cancelBatch,
  dryRunBatch,
  getBatch,
  listBatches,
  nextStep,
  nudgeIdleBatches,
  pauseBatch,
  resumeBatch,
  startBatch,
  stepBatch,
} from './batches';
export type { BatchDeps, BatchRequest, BatchView, DryRun } from './batches';
export {
  batchDryRun,
  batchIdParams,
  batchList,
  batchStartBody,
  batchView,
  BATCH_BUDGET_MAX,
} from './batch.schema';
