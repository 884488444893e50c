import { eshopOf, guard, idempotent } from '@catalogue/http';
import { entityParams } from '../schemas/common.schema';
import {
  fillDesignBody,
  fillDesignDocumentedBody,
  fillDesignQuery,
  fillDesignResponse,
} from '../schemas/fill-design.schema';
import { etagOf, ifMatchVersions } from '../services/content-version';
import { fillEntityDesign } from '../services/fill-design.service';
import { licensedRouter, type RouteDeps } from './licensed-router';

export const fillDesignRoute = guard({
  operationId: 'fillDesign',
  statuses: { 404: 'WlEntityNotFound', 409: 'IdempotencyConflict', 412: 'ContentVersionMismatch', 422: true },
  params: entityParams,
  query: fillDesignQuery,
  body: fillDesignBody,
  documentedBody: fillDesignDocumentedBody,
  response: { 200: fillDesignResponse },
});

export function fillDesignRoutes(deps: RouteDeps) {
  const router = licensedRouter(deps);

  router.post(
    '/entity/:entity_id/type/:entity_type/design',
    idempotent(deps),
    fillDesignRoute,
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
