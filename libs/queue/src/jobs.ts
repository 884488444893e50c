import type { CatalogueEntityType } from '@catalogue/config';

/**
 * Every queue of the system and the payload of its jobs. One queue per job kind, so each
 * kind scales, retries and is watched on its own; the job name equals the queue name.
 * Payloads are plain JSON with snake_case keys (they are stored in Redis and read by
 * other services).
 */
export interface JobPayloads {
  /**
   * Compose and render imported catalogue items of one type, as one import wrote them (up to
   * 100; catalogue-api -> generation-worker). One job per import keeps the queue cost of a
   * 100-item request at one Redis round trip.
   */
  'render-content': {
    eshop_id: number;
    entity_type: CatalogueEntityType;
    external_ids: string[];
  };
  /**
   * Run a white-label generation job row (white-label-api -> generation-worker), or let a bulk
   * generation start its next items as such rows (catalogue-api, white-label-api, credit-service
   * -> generation-worker): in the same fair queue, so a batch's steps take their turn like any
   * eshop's generations.
   */
  generate: GeneratePayload | GenerateBatchPayload;
  /** Enrich one uploaded listing row (catalogue-api -> generation-worker). */
  'listing-enrichment': { eshop_id: number; batch_id: number; row_id: number };
  /** Charge what a finished generation cost and release the rest (worker -> credit-service). */
  'credit-settlement': { eshop_id: number; job_id: number; actual_cost: number };
  /**
   * Find work that was lost (generation jobs abandoned by BullMQ, items whose render job was
   * never queued) and end or re-queue it. Queued only by its job scheduler, one job per period
   * however many workers run (generation-worker -> generation-worker).
   */
  'sweep-stale-work': {
    /**
     * Queued by a worker that found Redis emptied (its marker key gone): every unfinished row
     * without a live job is lost work, re-queued at once instead of after the idle deadlines.
     */
    after_redis_loss?: boolean;
  };
  /**
   * Move committed events to delivery jobs, one per (endpoint, event), and advance each
   * endpoint's cursor; queue requested redeliveries. Queued only by its job scheduler, every
   * WEBHOOK_RELAY_EVERY_MS (generation-worker -> generation-worker).
   */
  'webhook-relay': Record<string, never>;
  /**
   * Send one event to one endpoint, signed; retried with exponential backoff over ~24 h.
   * `redelivery_id` when a client asked for it again (generation-worker -> generation-worker).
   */
  'webhook-delivery': { eshop_id: number; endpoint_id: number; seq: number; redelivery_id?: number };
}

/** A `generate` job that runs one generation job row. */
export interface GeneratePayload {
  eshop_id: number;
  job_id: number;
}

/** A `generate` job that starts a bulk generation's next items (libs/generation `dispatchBatch`). */
export interface GenerateBatchPayload {
  eshop_id: number;
  batch_id: number;
}

export const isBatchStep = (payload: JobPayloads['generate']): payload is GenerateBatchPayload =>
  'batch_id' in payload;

export type QueueName = keyof JobPayloads;

export const QUEUE_NAMES: readonly QueueName[] = [
  'render-content',
  'generate',
  'listing-enrichment',
  'credit-settlement',
  'sweep-stale-work',
  'webhook-relay',
  'webhook-delivery',
];

/** The one service that consumes a queue (runs its workers). */
export type QueueConsumer = 'generation-worker' | 'credit-service';

/**
 * What a failing job of a queue means, and so who acts on it: `work` (a job someone waits for:
 * content, a generation, a listing row), `settlement` (credits stay reserved), `housekeeping`
 * (the sweeper and the webhook relay: nothing visible at once, everything late), `webhook` (one
 * eshop's receiver: the eshop's to fix, not an operator's page).
 */
export type QueueClass = 'work' | 'settlement' | 'housekeeping' | 'webhook';

/**
 * Who consumes each queue and its class: the workers each service starts, and what the Helm
 * chart scales each Deployment on and alerts on (tests/deploy compares the chart with this).
 */
export const QUEUES: Readonly<Record<QueueName, { consumer: QueueConsumer; class: QueueClass }>> = {
  'render-content': { consumer: 'generation-worker', class: 'work' },
  generate: { consumer: 'generation-worker', class: 'work' },
  'listing-enrichment': { consumer: 'generation-worker', class: 'work' },
  'credit-settlement': { consumer: 'credit-service', class: 'settlement' },
  'sweep-stale-work': { consumer: 'generation-worker', class: 'housekeeping' },
  'webhook-relay': { consumer: 'generation-worker', class: 'housekeeping' },
  'webhook-delivery': { consumer: 'generation-worker', class: 'webhook' },
};

/** The queues a service consumes, in QUEUE_NAMES order. */
export const queuesConsumedBy = (consumer: QueueConsumer): QueueName[] =>
  QUEUE_NAMES.filter((queue) => QUEUES[queue].consumer === consumer);

/** Retries with exponential backoff and bounded history, for every job unless overridden. */
export const DEFAULT_JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 2_000 },
  removeOnComplete: { age: 24 * 3600, count: 1_000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 10_000 },
} as const;

/*
 * Deterministic BullMQ ids: a job that must not run twice is added under an id derived from what
 * it works on, so a retried add, a redelivery or a second sweep finds it there instead of queueing
 * a copy. Every producer builds its ids here.
 */

/** The `generate` job of a generation job row (white-label API; a retried add never queues it twice). */
export function generateJobId(jobId: number): string {
  return `generate-${jobId}`;
}

/**
 * A bulk generation's step (`generate` with a batch id): `reason` says what let it go on (its
 * start, a resume, an item's settlement `after-<job id>`, a sweep), so a retried add of the same
 * reason queues it once, and steps of different reasons each run (each is harmless: a step
 * changes nothing when there is nothing to start).
 */
export function batchStepJobId(batchId: number, reason: string): string {
  return `generate-batch-${batchId}-${reason}`;
}

/** The `credit-settlement` job of a generation job row: however many paths end the job, it settles once. */
export function settlementJobId(jobId: number): string {
  return `settle-${jobId}`;
}

/** The id of the one job scheduler that queues `sweep-stale-work` (every replica declares the same one). */
export const SWEEP_SCHEDULER_ID = 'sweep-stale-work';

/** The key whose absence tells a worker that Redis lost its data (restarted empty, flushed). */
export function redisMarkerKey(queuePrefix: string): string {
  return `${queuePrefix}:redis-marker`;
}

/** The recovery sweep queued when the marker `marker` was found missing: once per loss, whoever finds it. */
export function recoverySweepJobId(marker: string): string {
  return `recover-${marker}`;
}

/** The id of the one job scheduler that queues `webhook-relay` (every replica declares the same one). */
export const WEBHOOK_RELAY_SCHEDULER_ID = 'webhook-relay';

/**
 * The `webhook-delivery` job of one event for one endpoint: a relay that dies after queueing and
 * before moving its cursor queues the same ids again, which BullMQ ignores.
 */
export function webhookDeliveryJobId(endpointId: number, seq: number): string {
  return `webhook-${endpointId}-${seq}`;
}

/** The job of one event sent again by redelivery request `redeliveryId` (queued once per request). */
export function webhookRedeliveryJobId(endpointId: number, seq: number, redeliveryId: number): string {
  return `webhook-${endpointId}-${seq}-redelivery-${redeliveryId}`;
}

/** Deduplication id of the sweeper's `render-content` job for one stuck item: at most one in flight. */
export function sweepRenderDeduplicationId(item: {
  eshopId: number;
  entityType: string;
  externalId: string;
}): string {
  return `sweep-render-${item.eshopId}-${item.entityType}-${item.externalId}`;
}

/**
 * The BullMQ id of a listing row's enrichment job: at most one job per row, and the sweeper can
 * tell a row whose job is waiting from one whose job is gone.
 */
export function listingJobId(rowId: number): string {
  return `listing-${rowId}`;
}

/**
 * How long a request waits for Redis to take its jobs after its data is committed. Past it the
 * request answers as if queued (the sweeper queues the committed work again) or, for a generate
 * start, ends its job: an outage must not hold requests for its whole length.
 */
export const ENQUEUE_TIMEOUT_MS = 5_000;
