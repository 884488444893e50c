/**
 * The webhook relay: moves committed events (the outbox, `events`) to delivery jobs. Per enabled
 * endpoint it reads the eshop's events after the endpoint's cursor (`last_seq`), queues one
 * `webhook-delivery` job per event of the endpoint's types under the deterministic id
 * `webhook-<endpoint>-<seq>`. Numbers have no gaps and commit in order (docs/decisions/0027-events-the-outbox-and-the-change.md,
 * "Events"), so "after the cursor" never skips one.
 *
 * PostgreSQL, not Redis, knows what is still to deliver: the cursor moves in the same transaction
 * that records each relayed event as pending (`webhook_pending_deliveries`), before its job is
 * queued, and the pending row goes only when the delivery succeeded or finally failed. Each run
 * also looks at pending deliveries idle for longer than an attempt can take: one whose job Redis
 * no longer has (lost with its data, or never queued because Redis failed after the commit) is
 * queued again under the same id, in event order; a job that exists is left alone, so a delivery
 * is never queued twice, and the delivery job itself sends nothing whose row is gone.
 * It also queues the events of redelivery requests, under ids of their own.
 */
import type { Config } from '@catalogue/config';
import { webhooksRepository, type Knex } from '@catalogue/db';
import type { Logger } from '@catalogue/logger';
import { webhookDeliveryJobId, webhookRedeliveryJobId, type Queues } from '@catalogue/queue';
import { jobTraceContext } from '@catalogue/tracing';
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
  /** Pending deliveries whose job was gone and that were queued again. */
  requeued: number;
}

/** BullMQ states of a job that will still run, or is running. */
const LIVE_STATES = new Set(['active', 'waiting', 'delayed', 'prioritized', 'waiting-children']);

/**
 * How long a pending delivery may go without being queued, checked or attempted before the relay
 * asks Redis about its job: past two attempts' time limit, an attempt that started is over (so a
 * job queued again never overlaps one still sending), and a backlog is not polled every run.
 */
export function pendingIdleMs(webhooks: Pick<Config['webhooks'], 'timeoutMs'>): number {
  return 2 * webhooks.timeoutMs + 1_000;
}

interface Delivery {
  eshopId: number;
  endpointId: number;
  seq: number;
  jobId: string;
  redeliveryId?: number;
  /** The event's trace (who wrote it): the delivery continues it rather than the relay's run. */
  traceparent?: string | null;
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
      opts: { ...deliveryJobOptions(deps.config.webhooks, d.jobId), ...jobTraceContext(d.traceparent) },
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
    // Pending in PostgreSQL first, then queued: a Redis that fails or forgets in between leaves
    // pending rows that a later run queues again. Only the run that moves the cursor queues them
    // (overlapping runs would only queue the same ids, which BullMQ keeps once).
    const seqs = wanted.map((e) => e.seq);
    if (!(await webhooksRepository.relay(deps.db, cursor.eshopId, cursor.id, cursor.lastSeq, last.seq, seqs)))
      continue;
    await queueDeliveries(
      deps,
      wanted.map((e) => ({
        eshopId: cursor.eshopId,
        endpointId: cursor.id,
        seq: e.seq,
        jobId: webhookDeliveryJobId(cursor.id, e.seq),
        traceparent: e.traceparent,
      })),
    );
    relayed += wanted.length;
    deps.webhookMetrics.relayed.inc(wanted.length);
  }

  const requeued = await requeueLostDeliveries(deps);

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
  if (requeued) deps.logger.warn({ requeued }, 'webhook deliveries lost by the queue queued again');
  return { relayed, redelivered, requeued };
}

/**
 * Pending deliveries idle past `pendingIdleMs` whose job Redis does not have are queued again
 * under their id. A job that will still run is left alone; one that completed or failed for good
 * while its pending row stayed (its end was not recorded) is not sent again: its row goes.
 */
async function requeueLostDeliveries(deps: RelayDeps): Promise<number> {
  const queue = deps.queues['webhook-delivery'];
  const idle = await webhooksRepository.idlePendingDeliveries(
    deps.db,
    pendingIdleMs(deps.config.webhooks) / 1000,
    deps.config.webhooks.relayBatch,
  );
  if (!idle.length) return 0;
  const states = await Promise.all(
    idle.map((d) => queue.getJobState(webhookDeliveryJobId(d.endpointId, d.seq))),
  );
  const lost = idle.filter((_, i) => states[i] === 'unknown');
  const ended = idle.filter((_, i) => states[i] === 'completed' || states[i] === 'failed');
  const alive = idle.filter((_, i) => LIVE_STATES.has(states[i]!));
  await queueDeliveries(
    deps,
    lost.map((d) => ({ ...d, jobId: webhookDeliveryJobId(d.endpointId, d.seq) })),
  );
  for (const d of ended) await webhooksRepository.deliveryEnded(deps.db, d.eshopId, d.endpointId, d.seq);
  await webhooksRepository.deliveriesChecked(deps.db, [...lost, ...alive]);
  if (lost.length) deps.webhookMetrics.relayed.inc(lost.length);
  return lost.length;
}
