import { apiTokenAuth, eshopOf, Router, type AppContext, type AppState } from '@catalogue/http';
import type { Deps } from '../deps';

/** GET /api/v2/rest/whoami: which eshop the bearer token belongs to (a client's smoke test). */
export function whoamiRoutes(deps: Pick<Deps, 'db'>) {
  const router = new Router<AppState, AppContext>();
  router.get('/api/v2/rest/whoami', apiTokenAuth(deps.db), (ctx) => {
    ctx.body = { data: { eshop_id: eshopOf(ctx).id } };
  });
  return router;
}
