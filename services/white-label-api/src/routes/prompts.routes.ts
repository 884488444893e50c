import { eshopOf, guard } from '@catalogue/http';
import { promptsResponse } from '../schemas/prompts.schema';
import { listPrompts } from '../services/prompts.service';
import { licensedRouter, type RouteDeps } from './licensed-router';

export const listPromptsRoute = guard({ operationId: 'listPrompts', response: { 200: promptsResponse } });

export function promptsRoutes(deps: RouteDeps) {
  const router = licensedRouter(deps);
  router.get('/prompt', listPromptsRoute, async (ctx) => {
    ctx.body = await listPrompts(deps.db, eshopOf(ctx).id);
  });
  return router;
}
