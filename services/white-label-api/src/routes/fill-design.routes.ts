import { eshopOf, idempotent, validate } from '@catalogue/http';
import { entityParams } from '../schemas/common.schema';
import { fillDesignBody, fillDesignQuery } from '../schemas/fill-design.schema';
import { etagOf, ifMatchVersions } from '../services/content-version';
import { fillEntityDesign } from '../services/fill-design.service';
import { licensedRouter, type RouteDeps } from './licensed-router';

export function fillDesignRoutes(deps: RouteDeps) {
  const router = licensedRouter(deps);

  router.post(
    '/entity/:entity_id/type/:entity_type/design',
    idempotent(deps),
    validate({ params: entityParams, query: fillDesignQuery, body: fillDesignBody }),
    async (ctx) => {
      const { params, query, body } = ctx.state.input;
      const ifMatch = ifMatchVersions(ctx.get('If-Match'));
      const { version, ...filled } = await fillEntityDesign(
        deps.db,
        eshopOf(ctx),
        params.entity_type,
        params.entity_id,
        body,
        query.lang,
        ifMatch,
        // Behind idempotent() with a key: the answer commits with the content it answers.
        ctx.state.idempotency && ((trx, answer) => ctx.state.idempotency!.record(trx, 200, answer)),
      );
      ctx.set('ETag', etagOf(version));
      ctx.body = filled;
    },
  );

  return router;
}
