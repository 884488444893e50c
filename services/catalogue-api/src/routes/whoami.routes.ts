import Joi from 'joi';
import { apiRouter, eshopOf, guard, responseObject, type RouterDeps } from '@catalogue/http';

export const whoami = guard({
  operationId: 'whoami',
  statuses: { 500: false, 503: false },
  response: { 200: responseObject({ data: responseObject({ eshop_id: Joi.number().integer() }) }) },
});

/** GET /api/v2/rest/whoami: which eshop the bearer token belongs to (a client's smoke test). */
export function whoamiRoutes(deps: RouterDeps) {
  const router = apiRouter(deps);
  router.get('/api/v2/rest/whoami', whoami, (ctx) => {
    ctx.body = { data: { eshop_id: eshopOf(ctx).id } };
  });
  return router;
}
