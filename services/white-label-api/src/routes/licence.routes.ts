import { eshopOf, whiteLabelRouter } from '@catalogue/http';
import type { RouteDeps } from './licensed-router';
import { hasValidLicence } from '../services/licence.service';

export function licenceRoutes(deps: RouteDeps) {
  const router = whiteLabelRouter(deps);
  router.post('/check-license', (ctx) => {
    const eshop = eshopOf(ctx);
    ctx.body = { data: { eshop_id: eshop.id, has_valid_license: hasValidLicence(eshop) } };
  });
  return router;
}
