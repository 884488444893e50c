import { eshopOf } from '@catalogue/http';
import { remainingCredits } from '../services/credit.service';
import { licensedRouter, type RouteDeps } from './licensed-router';

export function creditRoutes(deps: RouteDeps) {
  const router = licensedRouter(deps);
  router.get('/credit', async (ctx) => {
    ctx.body = await remainingCredits(deps.db, eshopOf(ctx).id);
  });
  return router;
}
