import { eshopOf, idempotent, validate, type AppContext } from '@catalogue/http';
import { entityParams, type EntityPath } from '../schemas/common.schema';
import {
  contentPostBody,
  contentPutBody,
  contentQuery,
  contentWidgetParams,
  copyWidgetBody,
  elementCopyBody,
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

  router.get(`/content${ENTITY}`, validate({ params: entityParams, query: contentQuery }), async (ctx) => {
    const { params, query } = ctx.state.input;
    answer(ctx, await listContent(deps.db, targetOf(ctx, params), query.lang));
  });

  router.post(
    `/content${ENTITY}`,
    once,
    validate({ params: entityParams, query: contentQuery, body: contentPostBody }),
    async (ctx) => {
      const { params, query, body } = ctx.state.input;
      answer(ctx, await addOrReorder(deps.db, targetOf(ctx, params), body, query.lang));
    },
  );

  router.put(
    `/content${ENTITY}`,
    validate({ params: entityParams, query: contentQuery, body: contentPutBody }),
    async (ctx) => {
      const { params, query, body } = ctx.state.input;
      answer(ctx, await editValues(deps.db, targetOf(ctx, params), body, query.lang));
    },
  );

  router.delete(
    `/content${ENTITY}/widget/:widget_id`,
    validate({ params: contentWidgetParams, query: contentQuery }),
    async (ctx) => {
      const { params, query } = ctx.state.input;
      answer(ctx, await deleteWidget(deps.db, targetOf(ctx, params), params.widget_id, query.lang));
    },
  );

  router.post(
    `/content/element-copy${ENTITY}`,
    once,
    validate({ params: entityParams, query: contentQuery, body: elementCopyBody }),
    async (ctx) => {
      const { params, query, body } = ctx.state.input;
      answer(ctx, await elementAction(deps.db, targetOf(ctx, params), body, query.lang));
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
      const ifMatch = ifMatchVersions(ctx.get('If-Match'));
      answer(ctx, await copyWidgetsBetween(deps.db, eshopOf(ctx), body, query.lang, ifMatch, recordOf(ctx)));
    },
  );

  router.get(
    `/content${ENTITY}/revisions`,
    validate({ params: entityParams, query: revisionsQuery }),
    async (ctx) => {
      const { params, query } = ctx.state.input;
      ctx.body = await listRevisions(deps.db, targetOf(ctx, params), query);
    },
  );

  router.post(
    `/content${ENTITY}/revisions/:revision_id/restore`,
    once,
    validate({ params: revisionParams, query: contentQuery }),
    async (ctx) => {
      const { params, query } = ctx.state.input;
      answer(ctx, await restoreRevision(deps.db, targetOf(ctx, params), params.revision_id, query.lang));
    },
  );

  return router;
}
