import { apiRouter, bodyOf, eshopOf, HttpError, inputOf, validate } from '@catalogue/http';
import type { Deps } from '../deps';
import { batchParams, listingQuery, type ListingQuery } from '../schemas/list.schema';
import type { CatalogueServices } from '../services';

/** Listing batches: upload a feed (JSON rows or CSV), read its enriched rows. */
export function listingRoutes(deps: Pick<Deps, 'db' | 'config'>, services: CatalogueServices) {
  const router = apiRouter(deps.db, {
    bodyLimit: deps.config.http.bodyLimit,
    prefix: '/api/v2/rest/listing',
  });
  router.post('/', async (ctx) => {
    const format = ctx.is('text/csv') ? 'csv' : ctx.is('application/json') ? 'json' : undefined;
    if (!format) throw new HttpError(415, { error: 'Send the rows as application/json or text/csv.' });
    ctx.status = 201;
    ctx.body = await services.listing.upload(eshopOf(ctx).id, format, bodyOf(ctx));
  });
  router.get('/:batch_id/product', validate({ params: batchParams, query: listingQuery }), async (ctx) => {
    const { params, query } = inputOf<{ batch_id: number }, ListingQuery>(ctx);
    ctx.body = await services.listing.rows(eshopOf(ctx).id, params.batch_id, query);
  });
  return router;
}
