import Router from '@koa/router';
import Joi from 'joi';
import type { v3 } from '@catalogue/content';
import { creditsRepository, type Knex } from '@catalogue/db';
import { contentHash } from './assets';
import { sharedAnswer } from './shared-answer';
import type { RateLimits } from './rate-limit/limits';
import { guard, responseObject } from './middleware/validate';
import { limitByAddress } from './rate-limit/middleware';
import type { AppContext, AppRouter, AppState } from './types';

/** GET /public/credit: no input; its 200 body (v3.PriceView of @catalogue/content). */
export const getCreditPrices = guard({
  operationId: 'getCreditPrices',
  statuses: { 304: true, 429: 'TooManyRequests' },
  response: {
    200: responseObject({
      data: Joi.array().items(
        responseObject({
          operation: Joi.string()
            .example('widget_generation')
            .example('web_research')
            .example('serp_context')
            .example('listing_row_enrichment'),
          unit: Joi.string().example('widget_language').example('url').example('generation').example('row'),
          price: Joi.number().integer().min(0),
          description: Joi.string(),
        }),
      ),
    }),
  },
});

/**
 * How long a process serves the price list from memory before reading it again: a price change
 * (an operator's, rare) is seen within this, and a burst of requests costs one read.
 */
export const PRICE_LIST_TTL_MS = 5_000;

/**
 * GET /public/credit: the price list, without auth, from memory (PRICE_LIST_TTL_MS). Cacheable: a strong ETag of the body
 * (so a price change is seen on the next revalidation) and five minutes of freshness.
 * Served by credit-service and by white-label-api, where the editor reads it to show a
 * generation's cost before starting it; it is public, so any page may read it (CORS `*`).
 */
export function publicCreditRouter(deps: { db: Knex; rateLimits: RateLimits }): AppRouter {
  const router = new Router<AppState, AppContext>();
  const priceList = sharedAnswer(async () => {
    const prices = await creditsRepository.prices(deps.db);
    const body: v3.Data<v3.PriceView[]> = {
      data: prices.map((p) => ({
        operation: p.operation,
        unit: p.unit,
        price: p.price,
        description: p.description,
      })),
    };
    return { body, etag: contentHash(JSON.stringify(body)) };
  }, PRICE_LIST_TTL_MS);
  // No token: counted against the client address's anonymous budget.
  router.get('/public/credit', limitByAddress(deps.rateLimits), getCreditPrices, async (ctx) => {
    const { body, etag } = await priceList.get();
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.etag = etag;
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = body;
  });
  return router;
}
