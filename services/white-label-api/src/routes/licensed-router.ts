import {
  declareRouterAuth,
  eshopOf,
  ForbiddenError,
  unstorableTextErrors,
  ValidationError,
  whiteLabelRouter,
  type AppRouter,
  type TokenRouterOptions,
} from '@catalogue/http';
import type { Deps } from '../deps';
import { hasValidLicence } from '../services/licence.service';

/** What every white-label route module needs (the router's checks, idempotency keys). */
export type RouteDeps = Pick<Deps, 'db' | 'config' | 'rateLimits' | 'logger'>;

/**
 * A router for every white-label operation but `check-license`: token and Origin checked
 * (401/403), the token's rate limit, the body parsed, then the eshop's licence (403 when it is
 * not valid), so a host whose licence lapsed reads and changes nothing; and a body with text
 * PostgreSQL cannot store (NUL, unpaired surrogates) is a 422 naming every such field, before
 * any route reads it.
 */
export function licensedRouter(deps: RouteDeps, opts: TokenRouterOptions = {}): AppRouter {
  const router = whiteLabelRouter(deps, opts);
  router.use(async (ctx, next) => {
    if (ctx.method === 'OPTIONS') return next();
    if (!hasValidLicence(eshopOf(ctx))) {
      throw new ForbiddenError('The white-label licence of this eshop is not valid', 'licence_invalid');
    }
    const textErrors = unstorableTextErrors('body' in ctx.request ? ctx.request.body : undefined);
    if (Object.keys(textErrors).length) throw new ValidationError(textErrors);
    await next();
  });
  return declareRouterAuth(router, 'whiteLabelLicence');
}
