import { ConflictError, NotFoundError, ValidationError, fieldErrors } from '@catalogue/http';
import {
  enableWebhook,
  listWebhooks,
  presentDelivery,
  presentWebhook,
  redeliver,
  registerWebhook,
  removeWebhook,
  rotateWebhookSecret,
  webhookDeliveries,
  WebhookError,
  type WebhookDeps,
} from '@catalogue/webhooks';
import type { Knex } from '@catalogue/db';
import type { RedeliverBody, WebhookBody } from '../schemas/webhooks.schema';

/**
 * Stores a write's answer as its Idempotency-Key's outcome, in the write's transaction (the
 * route's `ctx.state.idempotency.record` with the answer's status).
 */
export type RecordAnswer = (trx: Knex, answer: object) => Promise<void>;

/** The rules' refusals (libs/webhooks) as this API's errors. */
async function answering<T>(work: () => Promise<T>, field = 'url'): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof WebhookError)) throw err;
    switch (err.problem) {
      case 'not_found':
        throw new NotFoundError(err.message);
      case 'disabled':
        throw new ConflictError(err.message, 'webhook_disabled');
      default: {
        const errors = fieldErrors();
        errors[field] = [err.message];
        throw new ValidationError(errors);
      }
    }
  }
}

/** Registers an endpoint; the only answer that shows its secret. */
export async function createWebhook(
  deps: WebhookDeps,
  eshopId: number,
  body: WebhookBody,
  recordAnswer?: RecordAnswer,
) {
  const present = ({
    endpoint,
    secret,
  }: {
    endpoint: Parameters<typeof presentWebhook>[0];
    secret: string;
  }) => ({
    ...presentWebhook(endpoint),
    secret,
  });
  const created = await answering(() =>
    registerWebhook(
      deps,
      eshopId,
      { url: body.url, eventTypes: body.event_types },
      recordAnswer && ((trx, result) => recordAnswer(trx, present(result))),
    ),
  );
  return present(created);
}

export async function webhookList(deps: Pick<WebhookDeps, 'db'>, eshopId: number) {
  return { data: (await listWebhooks(deps.db, eshopId)).map(presentWebhook) };
}

export async function deleteWebhook(
  deps: Pick<WebhookDeps, 'db'>,
  eshopId: number,
  id: number,
): Promise<void> {
  await answering(() => removeWebhook(deps.db, eshopId, id));
}

export async function enableWebhookEndpoint(deps: Pick<WebhookDeps, 'db'>, eshopId: number, id: number) {
  return presentWebhook(await answering(() => enableWebhook(deps.db, eshopId, id)));
}

/** A new secret for the endpoint, shown only in this answer; the old one stays valid for a window. */
export async function rotateWebhookEndpointSecret(
  deps: Pick<WebhookDeps, 'db'>,
  eshopId: number,
  id: number,
  recordAnswer?: RecordAnswer,
) {
  const present = (rotated: Awaited<ReturnType<typeof rotateWebhookSecret>>) => ({
    ...presentWebhook(rotated.endpoint),
    secret: rotated.secret,
    previous_secret_expires_at: rotated.previousSecretExpiresAt,
  });
  const rotated = await answering(() =>
    rotateWebhookSecret(
      deps.db,
      eshopId,
      id,
      undefined,
      recordAnswer && ((trx, result) => recordAnswer(trx, present(result))),
    ),
  );
  return present(rotated);
}

export async function webhookDeliveryLog(
  deps: Pick<WebhookDeps, 'db'>,
  eshopId: number,
  id: number,
  limit: number,
) {
  return {
    data: (await answering(() => webhookDeliveries(deps.db, eshopId, id, limit))).map(presentDelivery),
  };
}

export async function redeliverEvents(
  deps: Pick<WebhookDeps, 'db'>,
  eshopId: number,
  id: number,
  body: RedeliverBody,
  recordAnswer?: RecordAnswer,
) {
  const present = (queued: Awaited<ReturnType<typeof redeliver>>) => ({
    redelivery_id: queued.redeliveryId,
    from_seq: queued.fromSeq,
    to_seq: queued.toSeq,
  });
  const queued = await answering(
    () =>
      redeliver(
        deps.db,
        eshopId,
        id,
        body.from_seq,
        body.to_seq,
        recordAnswer && ((trx, result) => recordAnswer(trx, present(result))),
      ),
    'to_seq',
  );
  return present(queued);
}
