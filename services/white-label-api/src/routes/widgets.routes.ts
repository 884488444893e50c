import { validate } from '@catalogue/http';
import { listWidgetsQuery } from '../schemas/widgets.schema';
import { listWidgets } from '../services/widgets.service';
import { licensedRouter, type RouteDeps } from './licensed-router';

export function widgetsRoutes(deps: RouteDeps) {
  const router = licensedRouter(deps);
  router.get('/widget', validate({ query: listWidgetsQuery }), async (ctx) => {
    const { query } = ctx.state.input;
    ctx.body = await listWidgets(deps.db, query.category_id);
  });
  return router;
}
