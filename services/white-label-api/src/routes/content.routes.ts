import { eshopOf, guard, idempotent, type AppContext } from '@catalogue/http';
import { entityParams, type EntityPath } from '../schemas/common.schema';
import {
  contentDomResponse,
  contentPostBody,
  contentPutBody,
  contentQuery,
  contentWidgetParams,
  contentWidgetsResponse,
  copyWidgetBody,
  elementCopyBody,
  revisionsResponse,
} from '../schemas/content.schema';
import { revisionParams, revisionsQuery } from '../schemas/revisions.schema';
import { editValues, elementAction } from '../services/content-edit.service';
import { etagOf, ifMatchVersions } from '../services/content-version';
import { listRevisions, restoreRevision } from '../services/revisions.service';
import {
  addOrReorder,
  contentDom,
  copyWidgetsBetween,
  deleteWidget,
  listContent,
  type ContentTarget,
  type VersionedContent,
} from '../services/content.service';
import { licensedRouter, type RouteDeps } from './licensed-router';

const ENTITY = '/:entity_id/type/:entity_type';
/** Every content read and write answers the entity's content widgets. */
const widgets = { 200: contentWidgetsResponse };

export const listContentWidgets = guard({
  operationId: 'listContentWidgets',
  statuses: { 200: 'WlContentWidgets', 404: 'WlEntityNotFound' },
  params: entityParams,
  query: contentQuery,
  response: widgets,
});
export const addOrReorderContentWidgets = guard({
  operationId: 'addOrReorderContentWidgets',
  statuses: {
    200: 'WlContentWidgets',
    404: 'WlEntityNotFound',
    409: 'IdempotencyConflict',
    412: 'ContentVersionMismatch',
    422: true,
  },
  params: entityParams,
  query: contentQuery,
  body: contentPostBody,
  response: widgets,
});
export const editContentWidgets = guard({
  operationId: 'editContentWidgets',
  statuses: { 200: 'WlContentWidgets', 404: 'WlEntityNotFound', 412: 'ContentVersionMismatch', 422: true },
  params: entityParams,
  query: contentQuery,
  body: contentPutBody,
  response: widgets,
});
export const deleteContentWidget = guard({
  operationId: 'deleteContentWidget',
  statuses: { 200: 'WlContentWidgets', 404: true, 412: 'ContentVersionMismatch' },
  params: contentWidgetParams,
  query: contentQuery,
  response: widgets,
});
export const copyOrRemoveContentElement = guard({
  operationId: 'copyOrRemoveContentElement',
  statuses: {
    200: 'WlContentWidgets',
    404: 'WlEntityNotFound',
    409: 'IdempotencyConflict',
    412: 'ContentVersionMismatch',
    413: false,
    422: true,
  },
  params: entityParams,
  query: contentQuery,
  body: elementCopyBody,
  response: widgets,
});
export const contentDomRoute = guard({
  operationId: 'contentDom',
  statuses: { 400: 'BadRequest', 404: 'WlEntityNotFound' },
  params: entityParams,
  query: contentQuery,
  response: { 200: contentDomResponse },
});
export const copyContentWidgets = guard({
  operationId: 'copyContentWidgets',
  statuses: {
    200: 'WlContentWidgets',
    404: 'WlEntityNotFound',
    409: 'IdempotencyConflict',
    412: 'ContentVersionMismatch',
    413: false,
    422: true,
  },
  query: contentQuery,
  body: copyWidgetBody,
  response: widgets,
});
export const listContentRevisions = guard({
  operationId: 'listContentRevisions',
  statuses: { 404: 'WlEntityNotFound' },
  params: entityParams,
  query: revisionsQuery,
  response: { 200: revisionsResponse },
});
export const restoreContentRevision = guard({
  operationId: 'restoreContentRevision',
  statuses: { 200: 'WlContentWidgets', 404: true, 409: 'IdempotencyConflict', 412: 'ContentVersionMismatch' },
  params: revisionParams,
  query: contentQuery,
  response: widgets,
});

/** The editor's operations on an entity's content widgets and elements. */
export function contentRoutes(deps: RouteDeps) {
  const router = licensedRouter(deps);
  // POSTs that change content accept an Idempotency-Key (content/dom only reads).
  const once = idempotent(deps);
  type Ctx = Pick<AppContext, 'state' | 'get' | 'set' | 'body'>;
  // Writes carry the request's If-Match (the version of the content it was made from).
  // Behind `once` with a key: the answer (as answer() writes it) commits with the edit.
  const recordOf = (ctx: Ctx): ContentTarget['recordOutcome'] =>
    ctx.state.idempotency && ((trx, content) => ctx.state.idempotency!.record(trx, 200, content.widgets));
  const targetOf = (ctx: Ctx, params: EntityPath): ContentTarget => ({
    eshop: eshopOf(ctx),
    type: params.entity_type,
    entityId: params.entity_id,
    ifMatch: ifMatchVersions(ctx.get('If-Match')),
    recordOutcome: recordOf(ctx),
  });
  /** Content widgets answered with the version they are as their ETag. */
  const answer = (ctx: Ctx, content: VersionedContent) => {
    ctx.set('ETag', etagOf(content.version));
    ctx.body = content.widgets;
  };

  router.get(`/content${ENTITY}`, listContentWidgets, async (ctx) => {
    const { params, query } = ctx.state.input;
    answer(ctx, await listContent(deps.db, targetOf(ctx, params), query.lang));
  });

  router.post(`/content${ENTITY}`, once, addOrReorderContentWidgets, async (ctx) => {
    const { params, query, body } = ctx.state.input;
    answer(ctx, await addOrReorder(deps.db, targetOf(ctx, params), body, query.lang));
  });

  router.put(`/content${ENTITY}`, editContentWidgets, async (ctx) => {
    const { params, query, body } = ctx.state.input;
    answer(ctx, await editValues(deps.db, targetOf(ctx, params), body, query.lang));
  });

  router.delete(`/content${ENTITY}/widget/:widget_id`, deleteContentWidget, async (ctx) => {
    const { params, query } = ctx.state.input;
    answer(ctx, await deleteWidget(deps.db, targetOf(ctx, params), params.widget_id, query.lang));
  });

  router.post(`/content/element-copy${ENTITY}`, once, copyOrRemoveContentElement, async (ctx) => {
    const { params, query, body } = ctx.state.input;
    answer(ctx, await elementAction(deps.db, targetOf(ctx, params), body, query.lang));
  });

  router.post(`/content/dom${ENTITY}`, contentDomRoute, async (ctx) => {
    const { params, query } = ctx.state.input;
    ctx.body = { data: await contentDom(deps.db, targetOf(ctx, params), query.lang) };
  });

  router.post('/content/copy-widget', once, copyContentWidgets, async (ctx) => {
    const { query, body } = ctx.state.input;
    const ifMatch = ifMatchVersions(ctx.get('If-Match'));
    answer(ctx, await copyWidgetsBetween(deps.db, eshopOf(ctx), body, query.lang, ifMatch, recordOf(ctx)));
  });

  router.get(`/content${ENTITY}/revisions`, listContentRevisions, async (ctx) => {
    const { params, query } = ctx.state.input;
    ctx.body = await listRevisions(deps.db, targetOf(ctx, params), query);
  });

  router.post(
    `/content${ENTITY}/revisions/:revision_id/restore`,
    once,
    restoreContentRevision,
    async (ctx) => {
      const { params, query } = ctx.state.input;
      answer(ctx, await restoreRevision(deps.db, targetOf(ctx, params), params.revision_id, query.lang));
    },
  );

  return router;
}
