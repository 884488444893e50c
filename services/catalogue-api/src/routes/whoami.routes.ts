import { apiRouter, eshopOf, type RouterDeps } from '@catalogue/http';

/** GET /api/v2/rest/whoami: which eshop the bearer token belongs to (a client's smoke test). */
export function whoamiRoutes(deps: RouterDeps) {
  const router = apiRouter(deps);
  router.get('/api/v2/rest/whoami', (ctx) => {
    ctx.body = { data: { eshop_id: eshopOf(ctx).id } };
  });
  return router;
}
