/**
 * The webhook relay: moves committed events (the outbox, `events`) to delivery jobs. Per enabled
 * endpoint it reads the eshop's events after the endpoint's cursor (`last_seq`), queues one
 * `webhook-delivery` job per event of the endpoint's types under the deterministic id
 * `webhook-<endpoint>-<seq>`, and only then moves the cursor. Numbers have no gaps and commit in
 * order (docs/decisions.md, "Events"), so "after the cursor" never skips one; a relay that dies
 * after queueing and before moving the cursor queues the same ids again, which BullMQ ignores.
 * It also queues the events of redelivery requests, under ids of their own.
 */
import type { Config } from '@catalogue/config';
import { webhooksRepository, type Knex } from '@catalogue/db';
import type { Logger } from '@catalogue/logger';
import { webhookDeliveryJobId, webhookRedeliveryJobId, type Queues } from '@catalogue/queue';
import { deliveryJobOptions } from '@catalogue/webhooks';
import type { WebhookMetrics } from '../metrics';

export interface RelayDeps {
  db: Knex;
  queues: Queues;
  logger: Logger;
  config: Pick<Config, 'webhooks'>;
  webhookMetrics: WebhookMetrics;
}

/** Endpoints (and redelivery requests) handled per run at most; the next run takes the rest. */
const ENDPOINTS_PER_RUN = 500;

export interface RelayResult {
  relayed: number;
  redelivered: number;
}

interface Delivery {
  eshopId: number;
  endpointId: number;
  seq: number;
  jobId: string;
  redeliveryId?: number;
}

async function queueDeliveries(deps: RelayDeps, deliveries: Delivery[]): Promise<void> {
  if (!deliveries.length) return;
  await deps.queues['webhook-delivery'].addBulk(
    deliveries.map((d) => ({
      name: 'webhook-delivery' as const,
      data: {
        eshop_id: d.eshopId,
        endpoint_id: d.endpointId,
        seq: d.seq,
        ...(d.redeliveryId !== undefined && { redelivery_id: d.redeliveryId }),
      },
      opts: deliveryJobOptions(deps.config.webhooks, d.jobId),
    })),
  );
}

/** One run of the relay over every endpoint behind its eshop's newest event. */
export async function relayEvents(deps: RelayDeps): Promise<RelayResult> {
  const batch = deps.config.webhooks.relayBatch;
  let relayed = 0;
  for (const cursor of await webhooksRepository.cursorsBehind(deps.db, ENDPOINTS_PER_RUN)) {
    const events = await webhooksRepository.eventsAfter(deps.db, cursor.eshopId, cursor.lastSeq, batch);
    const last = events.at(-1);
    if (!last) continue;
    const wanted = events.filter((e) => cursor.eventTypes.includes(e.type));
    await queueDeliveries(
      deps,
      wanted.map((e) => ({
        eshopId: cursor.eshopId,
        endpointId: cursor.id,
        seq: e.seq,
        jobId: webhookDeliveryJobId(cursor.id, e.seq),
      })),
    );
    // After the jobs are in Redis, never before: a crash in between queues them again (same ids).
    // Counted by the run that moves the cursor: overlapping runs queue the same ids (BullMQ keeps
    // one job per id), and only one of them moves it.
    if (await webhooksRepository.advance(deps.db, cursor.eshopId, cursor.id, cursor.lastSeq, last.seq)) {
      relayed += wanted.length;
      deps.webhookMetrics.relayed.inc(wanted.length);
    }
  }

  let redelivered = 0;
  for (const request of await webhooksRepository.pendingRedeliveries(deps.db, ENDPOINTS_PER_RUN)) {
    const events = await webhooksRepository.eventsAfter(
      deps.db,
      request.eshopId,
      request.nextSeq - 1,
      batch,
      request.toSeq,
    );
    const wanted = events.filter((e) => request.eventTypes.includes(e.type));
    await queueDeliveries(
      deps,
      wanted.map((e) => ({
        eshopId: request.eshopId,
        endpointId: request.endpointId,
        seq: e.seq,
        jobId: webhookRedeliveryJobId(request.endpointId, e.seq, request.id),
        redeliveryId: request.id,
      })),
    );
    await webhooksRepository.redeliveryQueued(
      deps.db,
      request.eshopId,
      request.id,
      events.length < batch ? request.toSeq : events.at(-1)!.seq,
    );
    redelivered += wanted.length;
    deps.webhookMetrics.relayed.inc(wanted.length);
  }
  if (relayed || redelivered) deps.logger.debug({ relayed, redelivered }, 'webhook relay queued deliveries');
  return { relayed, redelivered };
}
