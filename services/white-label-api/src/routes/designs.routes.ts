import { eshopOf, guard } from '@catalogue/http';
import {
  designParams,
  designPreviewResponse,
  designsResponse,
  designStructureResponse,
  listDesignsQuery,
} from '../schemas/designs.schema';
import { designLister, designPreview, designStructureOf } from '../services/designs.service';
import { licensedRouter, type RouteDeps } from './licensed-router';

export const listDesignsRoute = guard({
  operationId: 'listDesigns',
  query: listDesignsQuery,
  response: { 200: designsResponse },
});
export const getDesignPreview = guard({
  operationId: 'getDesignPreview',
  statuses: { 404: 'WlDesignNotFound' },
  params: designParams,
  response: { 200: designPreviewResponse },
});
export const getDesignStructure = guard({
  operationId: 'getDesignStructure',
  statuses: { 404: 'WlDesignNotFound' },
  params: designParams,
  response: { 200: designStructureResponse },
});

export function designsRoutes(deps: RouteDeps) {
  const router = licensedRouter(deps);
  const listDesigns = designLister(deps.db);

  router.get('/design', listDesignsRoute, async (ctx) => {
    const { query } = ctx.state.input;
    // The preview URLs point back at this API as the browser reached it (behind the ingress too:
    // app.proxy trusts X-Forwarded-Proto/Host).
    ctx.body = await listDesigns(eshopOf(ctx).id, query.type, `${ctx.protocol}://${ctx.host}`);
  });

  router.get('/design/:design_id/preview', getDesignPreview, async (ctx) => {
    const { params } = ctx.state.input;
    ctx.body = await designPreview(deps.db, eshopOf(ctx).id, params.design_id);
  });

  router.get('/design/:design_id/structure', getDesignStructure, async (ctx) => {
    const { params } = ctx.state.input;
    ctx.body = await designStructureOf(deps.db, eshopOf(ctx).id, params.design_id);
  });

  return router;
}
