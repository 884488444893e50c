import { eshopOf } from '@catalogue/http';
import { listPrompts } from '../services/prompts.service';
import { licensedRouter, type RouteDeps } from './licensed-router';

export function promptsRoutes(deps: RouteDeps) {
  const router = licensedRouter(deps);
  router.get('/prompt', async (ctx) => {
    ctx.body = await listPrompts(deps.db, eshopOf(ctx).id);
  });
  return router;
}
