import {
  eshopOf,
  ForbiddenError,
  unstorableTextErrors,
  ValidationError,
  whiteLabelRouter,
  type AppRouter,
} from '@catalogue/http';
import type { Deps } from '../deps';
import { hasValidLicence } from '../services/licence.service';

/**
 * A router for every white-label operation but `check-license`: token and Origin checked
 * (401/403), the body parsed, then the eshop's licence (403 when it is not valid), so a host
 * whose licence lapsed reads and changes nothing; and a body with text PostgreSQL cannot store
 * (NUL, unpaired surrogates) is a 422 naming every such field, before any route reads it.
 */
export function licensedRouter(deps: Pick<Deps, 'db' | 'config'>): AppRouter {
  const router = whiteLabelRouter(deps.db, { bodyLimit: deps.config.http.bodyLimit });
  router.use(async (ctx, next) => {
    if (ctx.method === 'OPTIONS') return next();
    if (!hasValidLicence(eshopOf(ctx))) {
      throw new ForbiddenError('The white-label licence of this eshop is not valid');
    }
    const textErrors = unstorableTextErrors((ctx.request as { body?: unknown }).body);
    if (Object.keys(textErrors).length) throw new ValidationError(textErrors);
    await next();
  });
  return router;
}
