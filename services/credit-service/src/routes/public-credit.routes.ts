import { createHash } from 'node:crypto';
import { creditsRepository } from '@catalogue/db';
import { limitByAddress, Router, type AppContext, type AppState } from '@catalogue/http';
import type { Deps } from '../deps';

/**
 * GET /public/credit: the price list, without auth. Cacheable: a strong ETag of the body
 * (so a price change is seen on the next revalidation) and five minutes of freshness.
 */
export function publicCreditRoutes(deps: Pick<Deps, 'db' | 'rateLimits'>) {
  const router = new Router<AppState, AppContext>();
  // No token: counted against the client address's anonymous budget.
  router.get('/public/credit', limitByAddress(deps.rateLimits), async (ctx) => {
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
