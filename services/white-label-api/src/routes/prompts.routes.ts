import { eshopOf } from '@catalogue/http';
import type { Deps } from '../deps';
import { listPrompts } from '../services/prompts.service';
import { licensedRouter } from './licensed-router';

export function promptsRoutes(deps: Pick<Deps, 'db' | 'config'>) {
  const router = licensedRouter(deps);
  router.get('/prompt', async (ctx) => {
    ctx.body = await listPrompts(deps.db, eshopOf(ctx).id);
  });
  return router;
}
