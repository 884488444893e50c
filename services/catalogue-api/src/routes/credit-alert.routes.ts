import { apiRouter, eshopOf, validate, type RouterDeps } from '@catalogue/http';
import { creditAlertBody } from '../schemas/credit-alert.schema';
import { creditAlert, setCreditAlert } from '../services/credit-alert.service';

/** GET/PUT /api/v2/rest/credit-alert: the balance below which the eshop hears `credits.low`. */
export function creditAlertRoutes(deps: RouterDeps) {
  const router = apiRouter(deps, { prefix: '/api/v2/rest/credit-alert' });
  router.get('/', async (ctx) => {
    ctx.body = await creditAlert(deps.db, eshopOf(ctx).id);
  });
  router.put('/', validate({ body: creditAlertBody }), async (ctx) => {
    ctx.body = await setCreditAlert(deps.db, eshopOf(ctx).id, ctx.state.input.body);
  });
  return router;
}
