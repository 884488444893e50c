import { apiRouter, eshopOf } from '@catalogue/http';
import type { Deps } from '../deps';

/** GET /api/v2/rest/whoami: which eshop the bearer token belongs to (a client's smoke test). */
export function whoamiRoutes(deps: Pick<Deps, 'db' | 'config'>) {
  const router = apiRouter(deps.db, { bodyLimit: deps.config.http.bodyLimit });
  router.get('/api/v2/rest/whoami', (ctx) => {
    ctx.body = { data: { eshop_id: eshopOf(ctx).id } };
  });
  return router;
}
