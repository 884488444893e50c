import Joi from 'joi';
import { EVENT_TYPES, type EventType } from '@catalogue/config';
import { responseObject } from '@catalogue/http';

export interface WebhookBody {
  url: string;
  event_types?: EventType[];
}

export interface RedeliverBody {
  from_seq: number;
  to_seq: number;
}

const seq = Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER);

/** A new endpoint: its URL (checked against the egress rules by the service) and event types. */
export const webhookBody = Joi.object<WebhookBody, true>({
  // Documented as a URI (meta, not a rule): the service judges the URL, with its own wording.
  url: Joi.string().max(2048).required().meta({ format: 'uri' }),
  event_types: Joi.array()
    .items(Joi.string().valid(...EVENT_TYPES))
    .unique()
    .min(1)
    .max(EVENT_TYPES.length)
    .description('The types to receive; omitted, all of them.'),
});

export const webhookParams = Joi.object<{ id: number }, true>({
  id: Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER).required(),
});

export const deliveriesQuery = Joi.object<{ limit: number }, true>({
  limit: Joi.number().integer().min(1).max(1_000).default(100),
}).unknown(true);

/** One event (`from_seq` = `to_seq`) or a range of the eshop's event numbers. */
export const redeliverBody = Joi.object<RedeliverBody, true>({
  from_seq: seq.required(),
  to_seq: seq.required(),
});

const nullableDateTime = Joi.string().isoDate().allow(null);
const secret = Joi.string().pattern(/^whsec_[A-Za-z0-9+/]+=*$/);

const webhookKeys = {
  id: Joi.number().integer().min(1),
  url: Joi.string(),
  event_types: Joi.array().items(Joi.string().valid(...EVENT_TYPES)),
  last_seq: Joi.number()
    .integer()
    .min(0)
    .description('The id of the last event relayed to the endpoint (queued for delivery).'),
  failing_since: nullableDateTime.description(
    'When the current run of failed deliveries began; null after a success.',
  ),
  disabled_at: nullableDateTime.description(
    'When the endpoint was disabled after failing for the whole failure window (24 h); null while enabled.',
  ),
  disabled_reason: Joi.string().allow(null),
  created_at: Joi.string().isoDate(),
};

/** A webhook endpoint as answered (never its secret). */
export const webhookShape = responseObject(webhookKeys)
  .unknown(true)
  .id('Webhook')
  .description('A webhook endpoint of the eshop (never its secret).');

/** GET /webhooks 200. */
export const webhooksResponse = responseObject({ data: Joi.array().items(webhookShape) });

/** POST /webhooks 201: the endpoint and its secret, shown this once. */
export const webhookCreatedResponse = responseObject({
  ...webhookKeys,
  secret: secret.description('`whsec_` and base64 of 24 random bytes.'),
});

/** POST /webhooks/{id}/rotate-secret 200. */
export const webhookRotatedResponse = responseObject({
  ...webhookKeys,
  secret: secret.description('The new secret: `whsec_` and base64 of 24 random bytes.'),
  previous_secret_expires_at: Joi.string().description(
    'Until when deliveries are signed with the previous secret too.',
  ),
});

/** GET /webhooks/{id}/deliveries 200. */
export const deliveriesResponse = responseObject({
  data: Joi.array().items(
    responseObject({
      seq: Joi.number().integer().description("The event's id."),
      attempt: Joi.number().integer().min(1).description('1 for the first attempt of a delivery.'),
      status_code: Joi.number()
        .integer()
        .allow(null)
        .description('The HTTP status the endpoint answered; null when it did not answer.'),
      error: Joi.string()
        .allow(null)
        .description(
          "Why there was no answer (a timeout, a refused address, a connection error) or why nothing was sent. A connection the network stops names the host, port and likely cause, e.g. `connection refused by hooks.example.com:8443 (ECONNREFUSED): the service's network policy may not allow port 8443 (ask the operator), or nothing listens there`, or `could not connect to … within 5000 ms: …` when nothing answers the connection (half of the attempt's time limit).",
        ),
      latency_ms: Joi.number().integer().min(0),
      response_excerpt: Joi.string()
        .allow(null)
        .description(
          'The first 256 characters of the answer at most; always null when the endpoint is on a private address the operator allows (nothing such a target answers is kept).',
        ),
      at: Joi.string().isoDate(),
    })
      .id('WebhookDelivery')
      .description('One delivery attempt.'),
  ),
});

/** POST /webhooks/{id}/redeliver 202. */
export const redeliveryResponse = responseObject({
  redelivery_id: Joi.number().integer(),
  from_seq: Joi.number().integer(),
  to_seq: Joi.number().integer(),
});
