import Joi from 'joi';
import { EVENT_TYPES, type EventType } from '@catalogue/db';

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
  url: Joi.string().max(2048).required(),
  event_types: Joi.array()
    .items(Joi.string().valid(...EVENT_TYPES))
    .unique()
    .min(1)
    .max(EVENT_TYPES.length),
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
