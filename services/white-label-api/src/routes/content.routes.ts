import { eshopOf, idempotent, validate } from '@catalogue/http';
import { entityParams, type EntityPath } from '../schemas/common.schema';
import {
  contentPostBody,
  contentPutBody,
  contentQuery,
  contentWidgetParams,
  copyWidgetBody,
  elementCopyBody,
} from '../schemas/content.schema';
import { editValues, elementAction } from '../services/content-edit.service';
import {
  addOrReorder,
  contentDom,
  copyWidgetsBetween,
  deleteWidget,
  listContent,
  type ContentTarget,
} from '../services/content.service';
import { licensedRouter, type RouteDeps } from './licensed-router';

const ENTITY = '/:entity_id/type/:entity_type';

/** The editor's operations on an entity's content widgets and elements. */
export function contentRoutes(deps: RouteDeps) {
  const router = licensedRouter(deps);
  // POSTs that change content accept an Idempotency-Key (content/dom only reads).
  const once = idempotent(deps);
  const targetOf = (ctx: Parameters<typeof eshopOf>[0], params: EntityPath): ContentTarget => ({
    eshop: eshopOf(ctx),
    type: params.entity_type,
    entityId: params.entity_id,
  });

  router.get(`/content${ENTITY}`, validate({ params: entityParams, query: contentQuery }), async (ctx) => {
    const { params, query } = ctx.state.input;
    ctx.body = await listContent(deps.db, targetOf(ctx, params), query.lang);
  });

  router.post(
    `/content${ENTITY}`,
    once,
    validate({ params: entityParams, query: contentQuery, body: contentPostBody }),
    async (ctx) => {
      const { params, query, body } = ctx.state.input;
      ctx.body = await addOrReorder(deps.db, targetOf(ctx, params), body, query.lang);
    },
  );

  router.put(
    `/content${ENTITY}`,
    validate({ params: entityParams, query: contentQuery, body: contentPutBody }),
    async (ctx) => {
      const { params, query, body } = ctx.state.input;
      ctx.body = await editValues(deps.db, targetOf(ctx, params), body, query.lang);
    },
  );

  router.delete(
    `/content${ENTITY}/widget/:widget_id`,
    validate({ params: contentWidgetParams, query: contentQuery }),
    async (ctx) => {
      const { params, query } = ctx.state.input;
      ctx.body = await deleteWidget(deps.db, targetOf(ctx, params), params.widget_id, query.lang);
    },
  );

  router.post(
    `/content/element-copy${ENTITY}`,
    once,
    validate({ params: entityParams, query: contentQuery, body: elementCopyBody }),
    async (ctx) => {
      const { params, query, body } = ctx.state.input;
      ctx.body = await elementAction(deps.db, targetOf(ctx, params), body, query.lang);
    },
  );

  router.post(
    `/content/dom${ENTITY}`,
    validate({ params: entityParams, query: contentQuery }),
    async (ctx) => {
      const { params, query } = ctx.state.input;
      ctx.body = { data: await contentDom(deps.db, targetOf(ctx, params), query.lang) };
    },
  );

  router.post(
    '/content/copy-widget',
    once,
    validate({ query: contentQuery, body: copyWidgetBody }),
    async (ctx) => {
      const { query, body } = ctx.state.input;
      ctx.body = await copyWidgetsBetween(deps.db, eshopOf(ctx), body, query.lang);
    },
  );

  return router;
}
