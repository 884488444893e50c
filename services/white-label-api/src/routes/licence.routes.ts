import { eshopOf, Router, whiteLabelAuth, type AppContext, type AppState } from '@catalogue/http';
import type { Deps } from '../deps';
import { hasValidLicence } from '../services/licence.service';

export function licenceRoutes(deps: Pick<Deps, 'db'>) {
  const router = new Router<AppState, AppContext>({ prefix: '/api/v3/white-label' });
  router.use(whiteLabelAuth(deps.db));
  router.post('/check-license', (ctx) => {
    const eshop = eshopOf(ctx);
    ctx.body = { data: { eshop_id: eshop.id, has_valid_license: hasValidLicence(eshop) } };
  });
  return router;
}
