import { eshopOf, guard, idempotent, type AppContext } from '@catalogue/http';
import { entityParams, type EntityPath } from '../schemas/common.schema';
import { contentQuery, contentWidgetsResponse } from '../schemas/content.schema';
import { draftResponse } from '../schemas/drafts.schema';
import { etagOf, ifMatchVersions } from '../services/content-version';
import type { ContentTarget, VersionedContent } from '../services/content.service';
import { discardEntityDraft, publishDraft, readDraft } from '../services/drafts.service';
import { licensedRouter, type RouteDeps } from './licensed-router';

const DRAFT = '/content/:entity_id/type/:entity_type/draft';

export const getContentDraft = guard({
  operationId: 'getContentDraft',
  statuses: { 404: 'WlEntityNotFound' },
  params: entityParams,
  response: { 200: draftResponse },
});
export const publishContentDraft = guard({
  operationId: 'publishContentDraft',
  statuses: { 200: 'WlContentWidgets', 404: 'WlEntityNotFound', 409: true, 412: 'ContentVersionMismatch' },
  params: entityParams,
  query: contentQuery,
  response: { 200: contentWidgetsResponse },
});
export const discardContentDraft = guard({
  operationId: 'discardContentDraft',
  statuses: { 200: 'WlContentWidgets', 404: 'WlEntityNotFound', 409: true, 412: 'ContentVersionMismatch' },
  params: entityParams,
  query: contentQuery,
  response: { 200: contentWidgetsResponse },
});

/** An entity's draft (an eshop whose edits wait until published): read, publish, discard. */
export function draftRoutes(deps: RouteDeps) {
  const router = licensedRouter(deps);
  const once = idempotent(deps);
  type Ctx = Pick<AppContext, 'state' | 'get' | 'set' | 'body'>;
  const targetOf = (ctx: Ctx, params: EntityPath): ContentTarget => ({
    eshop: eshopOf(ctx),
    type: params.entity_type,
    entityId: params.entity_id,
    ifMatch: ifMatchVersions(ctx.get('If-Match')),
    recordOutcome:
      ctx.state.idempotency && ((trx, content) => ctx.state.idempotency!.record(trx, 200, content.widgets)),
  });
  const answer = (ctx: Ctx, content: VersionedContent) => {
    ctx.set('ETag', etagOf(content.version));
    ctx.body = content.widgets;
  };

  router.get(DRAFT, getContentDraft, async (ctx) => {
    ctx.body = await readDraft(deps.db, targetOf(ctx, ctx.state.input.params));
  });

  router.post('/content/:entity_id/type/:entity_type/publish', once, publishContentDraft, async (ctx) => {
    const { params, query } = ctx.state.input;
    answer(ctx, await publishDraft(deps.db, targetOf(ctx, params), query.lang));
  });

  router.delete(DRAFT, discardContentDraft, async (ctx) => {
    const { params, query } = ctx.state.input;
    answer(ctx, await discardEntityDraft(deps.db, targetOf(ctx, params), query.lang));
  });

  return router;
}
