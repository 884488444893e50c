import { eshopOf, inputOf, validate } from '@catalogue/http';
import type { WlEntityType } from '@catalogue/db';
import type { Deps } from '../deps';
import { entityParams } from '../schemas/common.schema';
import { fillDesignBody } from '../schemas/fill-design.schema';
import { fillEntityDesign, type FillDesignInput } from '../services/fill-design.service';
import { licensedRouter } from './licensed-router';

export function fillDesignRoutes(deps: Pick<Deps, 'db' | 'config'>) {
  const router = licensedRouter(deps);

  router.post(
    '/entity/:entity_id/type/:entity_type/design',
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
