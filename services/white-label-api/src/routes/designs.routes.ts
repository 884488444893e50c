import { eshopOf, validate } from '@catalogue/http';
import { designParams, listDesignsQuery } from '../schemas/designs.schema';
import { designPreview, designStructureOf, listDesigns } from '../services/designs.service';
import { licensedRouter, type RouteDeps } from './licensed-router';

export function designsRoutes(deps: RouteDeps) {
  const router = licensedRouter(deps);

  router.get('/design', validate({ query: listDesignsQuery }), async (ctx) => {
    const { query } = ctx.state.input;
    // The preview URLs point back at this API as the browser reached it (behind the ingress too:
    // app.proxy trusts X-Forwarded-Proto/Host).
    ctx.body = await listDesigns(deps.db, eshopOf(ctx).id, query.type, `${ctx.protocol}://${ctx.host}`);
  });

  router.get('/design/:design_id/preview', validate({ params: designParams }), async (ctx) => {
    const { params } = ctx.state.input;
    ctx.body = await designPreview(deps.db, eshopOf(ctx).id, params.design_id);
  });

  router.get('/design/:design_id/structure', validate({ params: designParams }), async (ctx) => {
    const { params } = ctx.state.input;
    ctx.body = await designStructureOf(deps.db, eshopOf(ctx).id, params.design_id);
  });

  return router;
}
