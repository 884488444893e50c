import { eshopOf, guard, idempotent } from '@catalogue/http';
import type { Deps } from '../deps';
import { entityParams } from '../schemas/common.schema';
import {
  generateBody,
  generateIdParams,
  generationCheckResponse,
  generationJobResponse,
} from '../schemas/generate.schema';
import {
  checkGeneration,
  findGeneration,
  runningGeneration,
  startGeneration,
} from '../services/generate.service';
import { licensedRouter } from './licensed-router';

export const startGenerationRoute = guard({
  operationId: 'startGeneration',
  statuses: { 404: true, 409: true, 422: true, 500: 'ServerError', 503: true },
  params: entityParams,
  body: generateBody,
  response: { 200: generationJobResponse },
});
export const checkGenerationRoute = guard({
  operationId: 'checkGeneration',
  statuses: { 404: true, 409: true, 422: true, 500: 'ServerError', 503: 'Unavailable' },
  params: entityParams,
  body: generateBody,
  response: { 200: generationCheckResponse },
});
export const getRunningGeneration = guard({
  operationId: 'getRunningGeneration',
  statuses: { 404: true },
  params: entityParams,
  response: { 200: generationJobResponse },
});
export const getGeneration = guard({
  operationId: 'getGeneration',
  statuses: { 404: true },
  params: generateIdParams,
  response: { 200: generationJobResponse },
});

/** Generation jobs: start (credits reserved), resume the running one, poll by id. */
export function generateRoutes(deps: Deps) {
  // POST here is a generation start: it has its own (small) budget per token.
  const router = licensedRouter(deps, { writes: 'generate' });

  router.post(
    '/content/:entity_id/type/:entity_type/generate',
    // A retried start with the same Idempotency-Key answers the first job: charged once.
    idempotent(deps),
    startGenerationRoute,
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

  router.get('/content/:entity_id/type/:entity_type/generate', getRunningGeneration, async (ctx) => {
    const { params } = ctx.state.input;
    ctx.body = {
      data: await runningGeneration(deps.db, eshopOf(ctx).id, params.entity_type, params.entity_id),
    };
  });

  router.get('/generate/:generate_id', getGeneration, async (ctx) => {
    const { params } = ctx.state.input;
    ctx.body = { data: await findGeneration(deps.db, eshopOf(ctx).id, params.generate_id) };
  });

  return router;
}

/**
 * The pre-check of a start (beyond the specification): the start's checks, nothing written, on
 * the ordinary budget (it starts nothing, so it spends none of the generation starts').
 */
export function generateCheckRoutes(deps: Deps) {
  const router = licensedRouter(deps);
  router.post('/content/:entity_id/type/:entity_type/generate/check', checkGenerationRoute, async (ctx) => {
    const { params, body } = ctx.state.input;
    ctx.body = {
      data: await checkGeneration(deps, {
        eshop: eshopOf(ctx),
        entityType: params.entity_type,
        entityId: params.entity_id,
        body,
      }),
    };
  });
  return router;
}
