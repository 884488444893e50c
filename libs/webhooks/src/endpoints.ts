/**
 * Registering and managing an eshop's webhook endpoints: one home for the rules the API and the
 * admin CLI share (the URL check, the secret, tenancy, redelivery ranges).
 */
import { type Config, EVENT_TYPES, type EventType } from '@catalogue/config';
import { type Knex, type WebhookDelivery, type WebhookEndpoint, webhooksRepository } from '@catalogue/db';
import {
  checkOutboundUrl,
  EgressRefusal,
  policyFromList,
  type EgressPolicy,
  type Lookup,
} from '@catalogue/egress';
import { newSecret } from './message';

/**
 * How long the previous secret stays valid after a rotation: deliveries in this window are
 * signed with both, so a receiver can switch to the new secret any time within it.
 */
export const SECRET_OVERLAP_SECONDS = 24 * 60 * 60;

/** Events one redelivery may ask for at most. */
export const MAX_REDELIVERY_RANGE = 10_000;

export type WebhookProblem = 'not_found' | 'url_refused' | 'disabled' | 'range_invalid';

/** A request the rules refuse; the API and the CLI each say it their way. */
export class WebhookError extends Error {
  constructor(
    readonly problem: WebhookProblem,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookError';
  }
}

/** The egress policy of webhook URLs: public addresses, and what the operator allows. */
export function webhookEgressPolicy(config: Pick<Config, 'webhooks'>): EgressPolicy {
  return policyFromList(config.webhooks.allowPrivate);
}

export interface WebhookDeps {
  db: Knex;
  egress: EgressPolicy;
  /** DNS for the URL check (tests); dns.lookup by default. */
  lookup?: Lookup;
}

export interface NewWebhook {
  url: string;
  /** Omitted or empty: all of them. */
  eventTypes?: readonly EventType[];
}

/** The URL as the egress rules accept it (http(s), public or allowed hosts), or a WebhookError. */
export async function checkWebhookUrl(deps: Omit<WebhookDeps, 'db'>, url: string): Promise<string> {
  try {
    return (await checkOutboundUrl(url, deps.egress, deps.lookup)).href;
  } catch (err) {
    if (err instanceof EgressRefusal)
      throw new WebhookError('url_refused', `The URL is refused: ${err.message}.`);
    throw err;
  }
}

/** Registers an endpoint; the answer holds its secret, which is never shown again. */
/**
 * Called in the write's transaction with its result: an API stores the Idempotency-Key's outcome
 * there, so it commits with the write (a retry after a crash is answered, never run again).
 */
export type RecordOutcome<T> = (trx: Knex, result: T) => Promise<void>;

/** `write` in a transaction that also records its result, or alone when there is nothing to record. */
async function recorded<T>(db: Knex, write: (db: Knex) => Promise<T>, record?: RecordOutcome<T>): Promise<T> {
  if (!record) return write(db);
  return db.transaction(async (trx) => {
    const result = await write(trx);
    await record(trx, result);
    return result;
  });
}

export async function registerWebhook(
  deps: WebhookDeps,
  eshopId: number,
  input: NewWebhook,
  recordOutcome?: RecordOutcome<{ endpoint: WebhookEndpoint; secret: string }>,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const url = await checkWebhookUrl(deps, input.url);
  const wanted = new Set(input.eventTypes?.length ? input.eventTypes : EVENT_TYPES);
  const eventTypes = EVENT_TYPES.filter((type) => wanted.has(type));
  const secret = newSecret();
  return recorded(
    deps.db,
    async (db) => ({
      endpoint: await webhooksRepository.create(db, { eshopId, url, eventTypes, secret }),
      secret,
    }),
    recordOutcome,
  );
}

export function listWebhooks(db: Knex, eshopId: number): Promise<WebhookEndpoint[]> {
  return webhooksRepository.list(db, eshopId);
}

async function existing(db: Knex, eshopId: number, id: number): Promise<WebhookEndpoint> {
  const endpoint = await webhooksRepository.find(db, eshopId, id);
  // Another eshop's endpoint is unknown here, exactly like one that does not exist.
  if (!endpoint) throw new WebhookError('not_found', 'No such webhook endpoint.');
  return endpoint;
}

export async function removeWebhook(db: Knex, eshopId: number, id: number): Promise<void> {
  if (!(await webhooksRepository.remove(db, eshopId, id))) {
    throw new WebhookError('not_found', 'No such webhook endpoint.');
  }
}

/**
 * Gives the endpoint a new secret (the answer is the only place it is shown). The secret it had
 * stays valid until `previousSecretExpiresAt`: deliveries until then carry a signature with each.
 * Rotating again within the window drops the older one for good.
 */
export async function rotateWebhookSecret(
  db: Knex,
  eshopId: number,
  id: number,
  overlapSeconds = SECRET_OVERLAP_SECONDS,
  recordOutcome?: RecordOutcome<{
    endpoint: WebhookEndpoint;
    secret: string;
    previousSecretExpiresAt: string;
  }>,
): Promise<{ endpoint: WebhookEndpoint; secret: string; previousSecretExpiresAt: string }> {
  const secret = newSecret();
  return recorded(
    db,
    async (trx) => {
      const rotated = await webhooksRepository.rotateSecret(trx, eshopId, id, secret, overlapSeconds);
      // Another eshop's endpoint is unknown here, exactly like one that does not exist.
      if (!rotated) throw new WebhookError('not_found', 'No such webhook endpoint.');
      return { ...rotated, secret };
    },
    recordOutcome,
  );
}

/** Enables a disabled endpoint: the relay resumes from its cursor (nothing committed meanwhile is lost). */
export async function enableWebhook(db: Knex, eshopId: number, id: number): Promise<WebhookEndpoint> {
  const endpoint = await webhooksRepository.enable(db, eshopId, id);
  if (!endpoint) throw new WebhookError('not_found', 'No such webhook endpoint.');
  return endpoint;
}

export async function webhookDeliveries(
  db: Knex,
  eshopId: number,
  id: number,
  limit: number,
): Promise<WebhookDelivery[]> {
  await existing(db, eshopId, id);
  return webhooksRepository.deliveries(db, eshopId, id, limit);
}

/**
 * Asks for the events `fromSeq`..`toSeq` (of the endpoint's types, already relayed to it) to be
 * sent again with their own webhook-id; the relay queues them within a second or so.
 */
export async function redeliver(
  db: Knex,
  eshopId: number,
  id: number,
  fromSeq: number,
  toSeq: number,
  recordOutcome?: RecordOutcome<{ redeliveryId: number; fromSeq: number; toSeq: number }>,
): Promise<{ redeliveryId: number; fromSeq: number; toSeq: number }> {
  const endpoint = await existing(db, eshopId, id);
  if (endpoint.disabledAt !== null) {
    throw new WebhookError('disabled', 'The endpoint is disabled; enable it first.');
  }
  if (fromSeq > toSeq || toSeq - fromSeq >= MAX_REDELIVERY_RANGE) {
    throw new WebhookError(
      'range_invalid',
      `from_seq must not exceed to_seq, and one redelivery covers at most ${MAX_REDELIVERY_RANGE} events.`,
    );
  }
  if (toSeq > endpoint.lastSeq) {
    throw new WebhookError(
      'range_invalid',
      `to_seq must not exceed ${endpoint.lastSeq}, the last event relayed to the endpoint (later ones are on their way).`,
    );
  }
  return recorded(
    db,
    async (trx) => ({
      redeliveryId: await webhooksRepository.requestRedelivery(trx, eshopId, id, fromSeq, toSeq),
      fromSeq,
      toSeq,
    }),
    recordOutcome,
  );
}

/** An endpoint as the API and the CLI answer it (snake_case, never the secret). */
export function presentWebhook(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    event_types: endpoint.eventTypes,
    last_seq: endpoint.lastSeq,
    failing_since: endpoint.failingSince,
    disabled_at: endpoint.disabledAt,
    disabled_reason: endpoint.disabledReason,
    created_at: endpoint.createdAt,
  };
}

export function presentDelivery(delivery: WebhookDelivery) {
  return {
    seq: delivery.seq,
    attempt: delivery.attempt,
    status_code: delivery.statusCode,
    error: delivery.error,
    latency_ms: delivery.latencyMs,
    response_excerpt: delivery.responseExcerpt,
    at: delivery.at,
  };
}
