export {
  QUEUE_NAMES,
  QUEUES,
  queuesConsumedBy,
  DEFAULT_JOB_OPTIONS,
  ENQUEUE_TIMEOUT_MS,
  batchStepJobId,
  generateJobId,
  isBatchStep,
  listingJobId,
  recoverySweepJobId,
  redisMarkerKey,
  settlementJobId,
  SWEEP_SCHEDULER_ID,
  sweepRenderDeduplicationId,
  WEBHOOK_RELAY_SCHEDULER_ID,
  webhookDeliveryJobId,
  webhookRedeliveryJobId,
} from './jobs';
export type {
  GenerateBatchPayload,
  GeneratePayload,
  JobPayloads,
  QueueClass,
  QueueConsumer,
  QueueName,
} from './jobs';
export { createRedis, describeRedis, pingRedis, withTimeout } from './connection';
export type { RedisClient, RedisTarget } from './connection';
export { authChangesChannel, publish, subscribe } from './invalidations';
export type { InvalidationHandlers, Subscription } from './invalidations';
export { createQueues, enqueue, enqueueMany, closeQueues } from './producers';
export type { Queues } from './producers';
export { createWorkers, closeWorkers } from './worker';
export type { JobHandler, JobHandlers, WorkerOptions } from './worker';
export { createQueueMetrics, registerQueueDepth } from './metrics';
export type { QueueMetrics } from './metrics';
export type { Job, Worker, Queue } from 'bullmq';
export { addFair, fairIdsKey, fairKey, FAIR_QUEUES, resetIdleLines } from './fair';
export type { FairJob, FairQueueName } from './fair';
