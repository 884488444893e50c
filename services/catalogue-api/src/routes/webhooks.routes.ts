import { apiRouter, eshopOf, idempotent, validate, type AppContext, type RouterDeps } from '@catalogue/http';
import type { Deps } from '../deps';
import { deliveriesQuery, redeliverBody, webhookBody, webhookParams } from '../schemas/webhooks.schema';
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
  router.get('/', async (ctx) => {
    ctx.body = await webhookList(deps, eshopOf(ctx).id);
  });
  router.post('/', once, validate({ body: webhookBody }), async (ctx) => {
    ctx.status = 201;
    ctx.body = await createWebhook(webhookDeps, eshopOf(ctx).id, ctx.state.input.body, recordAs(ctx, 201));
  });
  router.delete('/:id', validate({ params: webhookParams }), async (ctx) => {
    await deleteWebhook(deps, eshopOf(ctx).id, ctx.state.input.params.id);
    ctx.status = 204;
  });
  router.post('/:id/enable', validate({ params: webhookParams }), async (ctx) => {
    ctx.body = await enableWebhookEndpoint(deps, eshopOf(ctx).id, ctx.state.input.params.id);
  });
  router.post('/:id/rotate-secret', once, validate({ params: webhookParams }), async (ctx) => {
    ctx.body = await rotateWebhookEndpointSecret(
      deps,
      eshopOf(ctx).id,
      ctx.state.input.params.id,
      recordAs(ctx, 200),
    );
  });
  router.get('/:id/deliveries', validate({ params: webhookParams, query: deliveriesQuery }), async (ctx) => {
    const { params, query } = ctx.state.input;
    ctx.body = await webhookDeliveryLog(deps, eshopOf(ctx).id, params.id, query.limit);
  });
  router.post(
    '/:id/redeliver',
    once,
    validate({ params: webhookParams, body: redeliverBody }),
    async (ctx) => {
      ctx.status = 202;
      ctx.body = await redeliverEvents(
        deps,
        eshopOf(ctx).id,
        ctx.state.input.params.id,
        ctx.state.input.body,
        recordAs(ctx, 202),
      );
    },
  );
  return router;
}
