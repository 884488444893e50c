import { createHash } from 'node:crypto';
import { creditsRepository } from '@catalogue/db';
import { Router, type AppContext, type AppState } from '@catalogue/http';
import type { Deps } from '../deps';

/**
 * GET /public/credit: the price list, without auth. Cacheable: a strong ETag of the body
 * (so a price change is seen on the next revalidation) and five minutes of freshness.
 */
export function publicCreditRoutes(deps: Pick<Deps, 'db'>) {
  const router = new Router<AppState, AppContext>();
  router.get('/public/credit', async (ctx) => {
    const prices = await creditsRepository.prices(deps.db);
    const body = {
      data: prices.map((p) => ({
        operation: p.operation,
        unit: p.unit,
        price: p.price,
        description: p.description,
      })),
    };
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.etag = createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27);
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = body;
  });
  return router;
}
