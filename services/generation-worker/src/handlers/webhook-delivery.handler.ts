import type { JobHandler } from '@catalogue/queue';
import { deliverWebhook, type DeliveryDeps } from '../services/webhook-delivery.service';

/** One attempt of one webhook delivery; a failure throws, so BullMQ retries it with its backoff. */
export function webhookDeliveryHandler(deps: DeliveryDeps): JobHandler<'webhook-delivery'> {
  return async (job) => deliverWebhook(deps, job.data, job.attemptsMade + 1);
}
