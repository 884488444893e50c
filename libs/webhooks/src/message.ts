/**
 * What a delivery sends: a CloudEvents 1.0 JSON body signed as Standard Webhooks say
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of
 * "id.timestamp.body" with the secret's decoded bytes>`), signed by the `standardwebhooks` package.
 */
import { randomBytes } from 'node:crypto';
import type { StoredEvent } from '@catalogue/db';
import { Webhook } from 'standardwebhooks';

/** The prefix Standard Webhooks gives secrets. */
export const SECRET_PREFIX = 'whsec_';

/** A new endpoint secret: `whsec_` and base64 of 24 random bytes (192 bits). */
export function newSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

/**
 * The `webhook-id` of an event: the same for every attempt and every redelivery of it (and for
 * every endpoint of the eshop), so a receiver can tell a repeat.
 */
export function webhookMessageId(eshopId: number, seq: number): string {
  return `evt_${eshopId}_${seq}`;
}

/** The CloudEvents 1.0 envelope of an event; `data` is the event as the change feed shows it. */
export interface CloudEvent {
  specversion: '1.0';
  id: string;
  source: string;
  type: StoredEvent['type'];
  time: string;
  subject: string;
  datacontenttype: 'application/json';
  data: {
    id: number;
    type: StoredEvent['type'];
    entity_type: string;
    external_id: string;
    occurred_at: string;
    data: Record<string, unknown>;
  };
}

export function cloudEvent(eshopId: number, event: StoredEvent): CloudEvent {
  return {
    specversion: '1.0',
    id: webhookMessageId(eshopId, event.seq),
    source: `/eshops/${eshopId}`,
    type: event.type,
    time: event.occurredAt,
    subject: `${event.entityType}/${event.externalId}`,
    datacontenttype: 'application/json',
    data: {
      id: event.seq,
      type: event.type,
      entity_type: event.entityType,
      external_id: event.externalId,
      occurred_at: event.occurredAt,
      data: event.data,
    },
  };
}

/**
 * The three Standard Webhooks headers of one attempt sending `body`, signed with every secret
 * given (the current one, and the previous one during a rotation's overlap window): the
 * signatures are space-separated, and a receiver accepts the message when any of them verifies.
 */
export function signedHeaders(
  secrets: string | readonly string[],
  messageId: string,
  body: string,
  at: Date,
): Record<string, string> {
  const all = typeof secrets === 'string' ? [secrets] : secrets;
  if (all.length === 0) throw new Error('signedHeaders needs at least one secret');
  const signature = all.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(' ');
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}
