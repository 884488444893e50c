import { eshopOf, idempotent, inputOf, validate } from '@catalogue/http';
import type { WlEntityType } from '@catalogue/db';
import type { Deps } from '../deps';
import { entityParams } from '../schemas/common.schema';
import { generateBody, generateIdParams, type GenerateBody } from '../schemas/generate.schema';
import { findGeneration, runningGeneration, startGeneration } from '../services/generate.service';
import { licensedRouter } from './licensed-router';

type EntityParams = { entity_id: string; entity_type: WlEntityType };

/** Generation jobs: start (credits reserved), resume the running one, poll by id. */
export function generateRoutes(deps: Deps) {
  // POST here is a generation start: it has its own (small) budget per token.
  const router = licensedRouter(deps, { writes: 'generate' });

  router.post(
    '/content/:entity_id/type/:entity_type/generate',
    // A retried start with the same Idempotency-Key answers the first job: charged once.
    idempotent(deps),
    validate({ params: entityParams, body: generateBody }),
    async (ctx) => {
      const { params, body } = inputOf<EntityParams, unknown, GenerateBody>(ctx);
      const job = await startGeneration(deps, {
        eshop: eshopOf(ctx),
        entityType: params.entity_type,
        entityId: params.entity_id,
        body,
      });
      ctx.body = { data: job };
    },
  );

  router.get(
    '/content/:entity_id/type/:entity_type/generate',
    validate({ params: entityParams }),
    async (ctx) => {
      const { params } = inputOf<EntityParams>(ctx);
      ctx.body = {
        data: await runningGeneration(deps.db, eshopOf(ctx).id, params.entity_type, params.entity_id),
      };
    },
  );

  router.get('/generate/:generate_id', validate({ params: generateIdParams }), async (ctx) => {
    const { params } = inputOf<{ generate_id: number }>(ctx);
    ctx.body = { data: await findGeneration(deps.db, eshopOf(ctx).id, params.generate_id) };
  });

  return router;
}
