import { eshopOf, guard, whiteLabelRouter } from '@catalogue/http';
import type { RouteDeps } from './licensed-router';
import { licenceResponse } from '../schemas/licence.schema';
import { hasValidLicence } from '../services/licence.service';

export const checkLicense = guard({ operationId: 'checkLicense', response: { 200: licenceResponse } });

export function licenceRoutes(deps: RouteDeps) {
  const router = whiteLabelRouter(deps);
  router.post('/check-license', checkLicense, (ctx) => {
    const eshop = eshopOf(ctx);
    ctx.body = {
      data: {
        eshop_id: eshop.id,
        has_valid_license: hasValidLicence(eshop),
        // What the editor opens an entity in when its host names no language.
        languages: eshop.languages,
        default_language: eshop.defaultLanguage,
      },
    };
  });
  return router;
}
