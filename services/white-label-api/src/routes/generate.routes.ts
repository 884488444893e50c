import { eshopOf, idempotent, validate } from '@catalogue/http';
import type { Deps } from '../deps';
import { entityParams } from '../schemas/common.schema';
import { generateBody, generateIdParams } from '../schemas/generate.schema';
import { findGeneration, runningGeneration, startGeneration } from '../services/generate.service';
import { licensedRouter } from './licensed-router';

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
      const { params, body } = ctx.state.input;
      const recorder = ctx.state.idempotency;
      const job = await startGeneration(deps, {
        eshop: eshopOf(ctx),
        entityType: params.entity_type,
        entityId: params.entity_id,
        body,
        recordOutcome: recorder && ((trx, created) => recorder.record(trx, 200, { data: created })),
      });
      ctx.body = { data: job };
    },
  );

  router.get(
    '/content/:entity_id/type/:entity_type/generate',
    validate({ params: entityParams }),
    async (ctx) => {
      const { params } = ctx.state.input;
      ctx.body = {
        data: await runningGeneration(deps.db, eshopOf(ctx).id, params.entity_type, params.entity_id),
      };
    },
  );

  router.get('/generate/:generate_id', validate({ params: generateIdParams }), async (ctx) => {
    const { params } = ctx.state.input;
    ctx.body = { data: await findGeneration(deps.db, eshopOf(ctx).id, params.generate_id) };
  });

  return router;
}
