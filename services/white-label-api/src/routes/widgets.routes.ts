import { guard } from '@catalogue/http';
import { listWidgetsQuery, widgetsResponse } from '../schemas/widgets.schema';
import { listWidgets } from '../services/widgets.service';
import { licensedRouter, type RouteDeps } from './licensed-router';

export const listWidgetsRoute = guard({
  operationId: 'listWidgets',
  query: listWidgetsQuery,
  response: { 200: widgetsResponse },
});

export function widgetsRoutes(deps: RouteDeps) {
  const router = licensedRouter(deps);
  router.get('/widget', listWidgetsRoute, async (ctx) => {
    const { query } = ctx.state.input;
    ctx.body = await listWidgets(deps.db, query.category_id);
  });
  return router;
}
