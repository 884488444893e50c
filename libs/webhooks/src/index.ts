export {
  checkWebhookUrl,
  enableWebhook,
  listWebhooks,
  MAX_REDELIVERY_RANGE,
  presentDelivery,
  presentWebhook,
  redeliver,
  registerWebhook,
  removeWebhook,
  rotateWebhookSecret,
  SECRET_OVERLAP_SECONDS,
  webhookDeliveries,
  webhookEgressPolicy,
  WebhookError,
  type NewWebhook,
  type RecordOutcome,
  type WebhookDeps,
  type WebhookProblem,
} from './endpoints';
export {
  cloudEvent,
  newSecret,
  SECRET_PREFIX,
  signedHeaders,
  webhookMessageId,
  type CloudEvent,
} from './message';
export { deliveryJobOptions, retrySchedule } from './schedule';
export type { EgressPolicy } from '@catalogue/egress';
