import type { JobsOptions, Queue } from 'bullmq';
import type { CatalogueEntityType, Config } from '@catalogue/config';

/**
 * The type of a queue's job payload, carried by its entry in QUEUES (never read at run time).
 * Payloads are plain JSON with snake_case keys (they are stored in Redis and read by other
 * services).
 */
export interface Payload<P extends object> {
  readonly payloadType?: (payload: P) => P;
}

/** The payload type `P` of a queue's entry (see QUEUES). */
export function payload<P extends object>(): Payload<P> {
  return {};
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

export const isBatchStep = (
  payload: GeneratePayload | GenerateBatchPayload,
): payload is GenerateBatchPayload => 'batch_id' in payload;

/** The one service that consumes a queue (runs its workers). */
export type QueueConsumer = 'generation-worker' | 'credit-service';

/**
 * What a failing job of a queue means, and so who acts on it: `work` (a job someone waits for:
 * content, a generation, a listing row), `settlement` (credits stay reserved), `housekeeping`
 * (the sweeper and the webhook relay: nothing visible at once, everything late), `webhook` (one
 * eshop's receiver: the eshop's to fix, not an operator's page).
 */
export type QueueClass = 'work' | 'settlement' | 'housekeeping' | 'webhook';

/** What every entry of QUEUES says about its queue. */
export interface QueueSpec<P extends object = object> {
  /** The payload's type: `payload<{ ... }>()`. */
  readonly payload: Payload<P>;
  readonly consumer: QueueConsumer;
  readonly class: QueueClass;
  /**
   * Shared fairly between eshops (fair.ts), by the eshop this gives for a job: every job is
   * added through `addFair`, its priority its place in that eshop's line. Absent: not fair.
   */
  readonly fairBy?: (data: P) => number;
  /** What a job does (the README's queue table). */
  readonly does: string;
  /**
   * The job's BullMQ id from its payload, for a job that must not be queued twice: `enqueue`
   * and `addFair` add it under this id unless given one (BullMQ ignores an add whose id exists).
   */
  readonly jobId?: (data: P) => string;
  /**
   * Queued only by a job scheduler (id: the queue's name) every `every(config)` ms, declared
   * by every replica and again every `redeclareEveryMs` (a Redis that lost it). Its completed
   * runs log at debug (a routine queue).
   */
  readonly schedule?: {
    readonly every: (config: Config) => number;
    readonly redeclareEveryMs: number;
    /** The payload of every scheduled run. */
    readonly data: P;
  };
  /** Jobs a worker process runs at once, when not WORKER_CONCURRENCY. */
  readonly concurrency?: (config: Config) => number;
}

/** How often the stale-work sweeper runs (one sweep per period across all replicas). */
export const SWEEP_EVERY_MS = 60_000;

/**
 * A queue's entry: `queue<Payload>()({ ... })` (curried so that the payload type is given and
 * the rest, `jobId`'s argument included, is checked against it).
 */
export function queue<P extends object>() {
  return <const S extends Omit<QueueSpec<P>, 'payload'>>(spec: S): S & { readonly payload: Payload<P> } => ({
    ...spec,
    payload: payload<P>(),
  });
}

/**
 * Every queue of the system: its payload, consumer, class, fairness, schedule, concurrency and
 * job id, in one entry per queue. One queue per job kind, so each kind scales, retries and is
 * watched on its own; the job name equals the queue name. Everything else is derived from this
 * table: the workers each service starts, `FAIR_QUEUES`, the schedules the worker declares, and
 * (`npm run gen:queues`, checked by `npm run lint`) the Helm chart's queue lists (KEDA triggers,
 * alert classes) and the README's queue table.
 */
const TABLE = {
  /**
   * Compose and render imported catalogue items of one type, as one import wrote them (up to
   * 100). One job per import keeps the queue cost of a 100-item request at one Redis round trip.
   */
  'render-content': queue<{ eshop_id: number; entity_type: CatalogueEntityType; external_ids: string[] }>()({
    consumer: 'generation-worker',
    class: 'work',
    fairBy: (data) => data.eshop_id,
    does: "composes and renders imported items: the eshop's default design filled with the item's own data, every active language, then `ready`",
  }),
  /**
   * Run a white-label generation job row (queued by white-label-api), or let a bulk generation
   * start its next items as such rows (a step, queued by catalogue-api, white-label-api and
   * credit-service): in the same fair queue, so a batch's steps take their turn like any eshop's
   * generations.
   */
  generate: queue<GeneratePayload | GenerateBatchPayload>()({
    consumer: 'generation-worker',
    class: 'work',
    fairBy: (data) => data.eshop_id,
    does: "a white-label generation job: provider call, widgets written in the job's language, settlement queued; or a bulk generation's step, which starts up to 64 of its items as such jobs in one transaction and runs them in lanes for about 2 s, settling the ended ones and starting the next beside the lanes, then hands the lanes still on an item over to the next step",
    jobId: (data) => (isBatchStep(data) ? batchStepJobId(data.batch_id, 'step') : generateJobId(data.job_id)),
  }),
  /** Enrich one uploaded listing row (queued by catalogue-api). */
  'listing-enrichment': queue<{ eshop_id: number; batch_id: number; row_id: number }>()({
    consumer: 'generation-worker',
    class: 'work',
    fairBy: (data) => data.eshop_id,
    does: 'enriches the rows of an uploaded listing batch (optional web research)',
    jobId: (data) => listingJobId(data.row_id),
  }),
  /** Charge what a finished generation cost and release the rest (queued by the worker). */
  'credit-settlement': queue<{ eshop_id: number; job_id: number; actual_cost: number }>()({
    consumer: 'credit-service',
    class: 'settlement',
    fairBy: (data) => data.eshop_id,
    does: 'charges a finished generation and releases the rest of its reservation, exactly once',
    jobId: (data) => settlementJobId(data.job_id),
  }),
  /**
   * Find work that was lost (generation jobs abandoned by BullMQ, items whose render job was
   * never queued) and end or re-queue it: one job per period however many workers run.
   * `after_redis_loss`: queued by a worker that found Redis emptied (its marker key gone): every
   * unfinished row without a live job is lost work, re-queued at once instead of after the idle
   * deadlines.
   */
  'sweep-stale-work': queue<{ after_redis_loss?: boolean }>()({
    consumer: 'generation-worker',
    class: 'housekeeping',
    does: 'the periodic sweeper: ends or re-queues committed work that Redis lost, settles forgotten reservations, trims idempotency keys, old events and revisions',
    schedule: { every: () => SWEEP_EVERY_MS, redeclareEveryMs: SWEEP_EVERY_MS, data: {} },
  }),
  /**
   * Move committed events to delivery jobs, one per (endpoint, event), and advance each
   * endpoint's cursor; queue requested redeliveries.
   */
  'webhook-relay': queue<Record<string, never>>()({
    consumer: 'generation-worker',
    class: 'housekeeping',
    does: 'moves committed events to delivery jobs, per endpoint in order',
    schedule: { every: (config) => config.webhooks.relayEveryMs, redeclareEveryMs: 30_000, data: {} },
  }),
  /**
   * Send one event to one endpoint, signed; retried with exponential backoff over ~24 h.
   * `redelivery_id` when a client asked for it again. Not fair: a place in line would reorder
   * an endpoint's events while its backlog drains (fair.ts).
   */
  'webhook-delivery': queue<{ eshop_id: number; endpoint_id: number; seq: number; redelivery_id?: number }>()(
    {
      consumer: 'generation-worker',
      class: 'webhook',
      does: 'signs and posts one event to one endpoint, with the retry schedule',
      jobId: (data) =>
        data.redelivery_id === undefined
          ? webhookDeliveryJobId(data.endpoint_id, data.seq)
          : webhookRedeliveryJobId(data.endpoint_id, data.seq, data.redelivery_id),
      // Deliveries wait on receivers, not on the CPU: a few slow ones must not hold them all.
      concurrency: (config) => config.webhooks.concurrency,
    },
  ),
};

export type QueueName = keyof typeof TABLE;

/** The payload of each queue's jobs. */
export type JobPayloads = {
  [Q in QueueName]: (typeof TABLE)[Q]['payload'] extends Payload<infer P> ? P : never;
};

/** Each queue's entry, typed so that `QUEUES[name]` of a generic `name` is its QueueSpec. */
export const QUEUES: { readonly [Q in QueueName]: QueueSpec<JobPayloads[Q]> & (typeof TABLE)[Q] } = TABLE;

/**
 * The BullMQ Queue of queue `Q`: its jobs' data is `JobPayloads[Q]` and their name is `Q` (given
 * in full: BullMQ derives both from its first parameter with a conditional type, which stays
 * unresolved for a generic `Q`).
 */
export type QueueOf<Q extends QueueName> = Queue<JobPayloads[Q], unknown, Q, JobPayloads[Q], unknown, Q>;

/** A job's options: its id from its payload (the entry's `jobId`) unless `opts` gives one. */
export function jobOptions<P extends object>(
  spec: QueueSpec<P>,
  data: P,
  opts: JobsOptions = {},
): JobsOptions {
  return spec.jobId && opts.jobId === undefined ? { ...opts, jobId: spec.jobId(data) } : opts;
}

const isQueueName = (name: string): name is QueueName => Object.hasOwn(QUEUES, name);

/** Every queue, in QUEUES order. */
export const QUEUE_NAMES: readonly QueueName[] = Object.keys(QUEUES).filter(isQueueName);

/** The queues a service consumes, in QUEUES order. */
export const queuesConsumedBy = (consumer: QueueConsumer): QueueName[] =>
  QUEUE_NAMES.filter((name) => QUEUES[name].consumer === consumer);

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

/** The key whose absence tells a worker that Redis lost its data (restarted empty, flushed). */
export function redisMarkerKey(queuePrefix: string): string {
  return `${queuePrefix}:redis-marker`;
}

/** The recovery sweep queued when the marker `marker` was found missing: once per loss, whoever finds it. */
export function recoverySweepJobId(marker: string): string {
  return `recover-${marker}`;
}

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
