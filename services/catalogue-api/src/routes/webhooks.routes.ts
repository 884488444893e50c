import { apiRouter, eshopOf, guard, idempotent, type AppContext, type RouterDeps } from '@catalogue/http';
import type { Deps } from '../deps';
import {
  deliveriesQuery,
  deliveriesResponse,
  redeliverBody,
  redeliveryResponse,
  webhookBody,
  webhookCreatedResponse,
  webhookParams,
  webhookRotatedResponse,
  webhookShape,
  webhooksResponse,
} from '../schemas/webhooks.schema';
import {
  createWebhook,
  deleteWebhook,
  enableWebhookEndpoint,
  redeliverEvents,
  rotateWebhookEndpointSecret,
  webhookDeliveryLog,
  webhookList,
  type RecordAnswer,
} from '../services/webhooks.service';

export const webhooksList = guard({ operationId: 'webhooksList', response: { 200: webhooksResponse } });
export const webhooksCreate = guard({
  operationId: 'webhooksCreate',
  statuses: { 409: 'IdempotencyConflict', 413: false, 422: true },
  body: webhookBody,
  response: { 201: webhookCreatedResponse },
});
export const webhooksDelete = guard({
  operationId: 'webhooksDelete',
  statuses: { 204: true, 404: 'WebhookNotFound' },
  params: webhookParams,
});
export const webhooksEnable = guard({
  operationId: 'webhooksEnable',
  statuses: { 404: 'WebhookNotFound' },
  params: webhookParams,
  response: { 200: webhookShape },
});
export const webhooksRotateSecret = guard({
  operationId: 'webhooksRotateSecret',
  statuses: { 400: 'BadRequest', 404: 'WebhookNotFound', 409: 'IdempotencyConflict' },
  params: webhookParams,
  response: { 200: webhookRotatedResponse },
});
export const webhooksDeliveries = guard({
  operationId: 'webhooksDeliveries',
  statuses: { 404: 'WebhookNotFound' },
  params: webhookParams,
  query: deliveriesQuery,
  response: { 200: deliveriesResponse },
});
export const webhooksRedeliver = guard({
  operationId: 'webhooksRedeliver',
  statuses: { 404: 'WebhookNotFound', 409: true, 413: false, 422: true },
  params: webhookParams,
  body: redeliverBody,
  response: { 202: redeliveryResponse },
});

/** Webhook endpoints of the eshop: register, list, remove, enable, rotate the secret, the delivery log, redelivery. */
export function webhooksRoutes(deps: RouterDeps & Pick<Deps, 'logger' | 'webhookEgress'>) {
  const router = apiRouter(deps, { prefix: '/api/v2/rest/webhooks' });
  const webhookDeps = { db: deps.db, egress: deps.webhookEgress };
  const once = idempotent(deps);
  // Behind `once` with a key: the answer, with the status it is sent with, commits with the write.
  const recordAs = (ctx: Pick<AppContext, 'state'>, status: number): RecordAnswer | undefined => {
    const recorder = ctx.state.idempotency;
    return recorder && ((trx, answer) => recorder.record(trx, status, answer));
  };
  router.get('/', webhooksList, async (ctx) => {
    ctx.body = await webhookList(deps, eshopOf(ctx).id);
  });
  router.post('/', once, webhooksCreate, async (ctx) => {
    ctx.status = 201;
    ctx.body = await createWebhook(webhookDeps, eshopOf(ctx).id, ctx.state.input.body, recordAs(ctx, 201));
  });
  router.delete('/:id', webhooksDelete, async (ctx) => {
    await deleteWebhook(deps, eshopOf(ctx).id, ctx.state.input.params.id);
    ctx.status = 204;
  });
  router.post('/:id/enable', webhooksEnable, async (ctx) => {
    ctx.body = await enableWebhookEndpoint(deps, eshopOf(ctx).id, ctx.state.input.params.id);
  });
  router.post('/:id/rotate-secret', once, webhooksRotateSecret, async (ctx) => {
    ctx.body = await rotateWebhookEndpointSecret(
      deps,
      eshopOf(ctx).id,
      ctx.state.input.params.id,
      recordAs(ctx, 200),
    );
  });
  router.get('/:id/deliveries', webhooksDeliveries, async (ctx) => {
    const { params, query } = ctx.state.input;
    ctx.body = await webhookDeliveryLog(deps, eshopOf(ctx).id, params.id, query.limit);
  });
  router.post('/:id/redeliver', once, webhooksRedeliver, async (ctx) => {
    ctx.status = 202;
    ctx.body = await redeliverEvents(
      deps,
      eshopOf(ctx).id,
      ctx.state.input.params.id,
      ctx.state.input.body,
      recordAs(ctx, 202),
    );
  });
  return router;
}
