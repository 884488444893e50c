import { apiRouter, bodyOf, eshopOf, guard, idempotent, type RouterDeps } from '@catalogue/http';
import type { Deps } from '../deps';
import { batchParams, listingQuery } from '../schemas/list.schema';
import { listingBatchCreated, listingRowsResponse, listingUploadBody } from '../schemas/listing.schema';
import { listingRows, uploadListing } from '../services/listing.service';

/** No validator: the service checks the feed (JSON or CSV); the JSON body is documented only. */
export const uploadListingBatch = guard({
  operationId: 'uploadListingBatch',
  statuses: { 409: 'IdempotencyConflict', 422: true },
  documentedBody: listingUploadBody,
  response: { 201: listingBatchCreated },
});
export const listListingBatchRows = guard({
  operationId: 'listListingBatchRows',
  statuses: { 404: true },
  params: batchParams,
  query: listingQuery,
  response: { 200: listingRowsResponse },
});

/** Listing batches: upload a feed (JSON rows or CSV), read its enriched rows. */
export function listingRoutes(deps: RouterDeps & Pick<Deps, 'logger' | 'queues' | 'reads'>) {
  // Any other content type is a 415 from the router's body parser.
  const router = apiRouter(deps, { prefix: '/api/v2/rest/listing', bodyTypes: ['json', 'csv'] });
  router.post('/', idempotent(deps), uploadListingBatch, async (ctx) => {
    const format = ctx.is('text/csv') ? 'csv' : 'json';
    const recorder = ctx.state.idempotency;
    ctx.body = await uploadListing(
      deps,
      eshopOf(ctx).id,
      format,
      bodyOf(ctx),
      // Behind idempotent() with a key: the answer commits with the batch.
      recorder && ((trx, answer) => recorder.record(trx, 201, answer)),
    );
    ctx.status = 201;
  });
  router.get('/:batch_id/product', listListingBatchRows, async (ctx) => {
    const { params, query } = ctx.state.input;
    ctx.body = await listingRows(deps, eshopOf(ctx).id, params.batch_id, query);
  });
  return router;
}
