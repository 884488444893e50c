import { eshopOf, whiteLabelRouter } from '@catalogue/http';
import type { Deps } from '../deps';
import { hasValidLicence } from '../services/licence.service';

export function licenceRoutes(deps: Pick<Deps, 'db' | 'config'>) {
  const router = whiteLabelRouter(deps.db, { bodyLimit: deps.config.http.bodyLimit });
  router.post('/check-license', (ctx) => {
    const eshop = eshopOf(ctx);
    ctx.body = { data: { eshop_id: eshop.id, has_valid_license: hasValidLicence(eshop) } };
  });
  return router;
}
