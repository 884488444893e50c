import { eshopOf, idempotent, inputOf, validate } from '@catalogue/http';
import type { WlEntityType } from '@catalogue/db';
import { entityParams } from '../schemas/common.schema';
import { fillDesignBody } from '../schemas/fill-design.schema';
import { fillEntityDesign, type FillDesignInput } from '../services/fill-design.service';
import { licensedRouter, type RouteDeps } from './licensed-router';

export function fillDesignRoutes(deps: RouteDeps) {
  const router = licensedRouter(deps);

  router.post(
    '/entity/:entity_id/type/:entity_type/design',
    idempotent(deps),
    validate({ params: entityParams, body: fillDesignBody }),
    async (ctx) => {
      const { params, body } = inputOf<
        { entity_id: string; entity_type: WlEntityType },
        unknown,
        FillDesignInput
      >(ctx);
      ctx.body = await fillEntityDesign(deps.db, eshopOf(ctx), params.entity_type, params.entity_id, body);
    },
  );

  return router;
}
