import { eshopOf, guard } from '@catalogue/http';
import { remainingCreditsResponse } from '../schemas/credit.schema';
import { remainingCredits } from '../services/credit.service';
import { licensedRouter, type RouteDeps } from './licensed-router';

export const getRemainingCredits = guard({
  operationId: 'getRemainingCredits',
  response: { 200: remainingCreditsResponse },
});

export function creditRoutes(deps: RouteDeps) {
  const router = licensedRouter(deps);
  router.get('/credit', getRemainingCredits, async (ctx) => {
    ctx.body = await remainingCredits(deps.db, eshopOf(ctx).id);
  });
  return router;
}
