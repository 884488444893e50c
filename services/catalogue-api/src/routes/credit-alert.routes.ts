import { apiRouter, eshopOf, guard, type RouterDeps } from '@catalogue/http';
import { creditAlertBody, creditAlertResponse } from '../schemas/credit-alert.schema';
import { creditAlert, setCreditAlert } from '../services/credit-alert.service';

export const v2CreditAlertGet = guard({
  operationId: 'v2CreditAlertGet',
  response: { 200: creditAlertResponse },
});
export const v2CreditAlertPut = guard({
  operationId: 'v2CreditAlertPut',
  statuses: { 400: false, 413: false, 415: false },
  body: creditAlertBody,
  response: { 200: creditAlertResponse },
});

/** GET/PUT /api/v2/rest/credit-alert: the balance below which the eshop hears `credits.low`. */
export function creditAlertRoutes(deps: RouterDeps) {
  const router = apiRouter(deps, { prefix: '/api/v2/rest/credit-alert' });
  router.get('/', v2CreditAlertGet, async (ctx) => {
    ctx.body = await creditAlert(deps.db, eshopOf(ctx).id);
  });
  router.put('/', v2CreditAlertPut, async (ctx) => {
    ctx.body = await setCreditAlert(deps.db, eshopOf(ctx).id, ctx.state.input.body);
  });
  return router;
}
