import type { JobHandler } from '@catalogue/queue';
import { relayEvents, type RelayDeps } from '../services/webhook-relay.service';

/**
 * One run of the webhook relay (see webhook-relay.service.ts). Not retried: its scheduler queues
 * the next run within WEBHOOK_RELAY_EVERY_MS, and every run starts from the stored cursors.
 */
export function webhookRelayHandler(deps: RelayDeps): JobHandler<'webhook-relay'> {
  return async () => relayEvents(deps);
}
