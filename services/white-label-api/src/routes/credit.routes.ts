import { eshopOf } from '@catalogue/http';
import type { Deps } from '../deps';
import { remainingCredits } from '../services/credit.service';
import { licensedRouter } from './licensed-router';

export function creditRoutes(deps: Pick<Deps, 'db' | 'config'>) {
  const router = licensedRouter(deps);
  router.get('/credit', async (ctx) => {
    ctx.body = await remainingCredits(deps.db, eshopOf(ctx).id);
  });
  return router;
}
