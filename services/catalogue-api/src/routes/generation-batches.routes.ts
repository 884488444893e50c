import {
  batchDryRun,
  batchIdParams,
  batchList,
  batchStartBody,
  batchView,
  cancelBatch,
  dryRunBatch,
  getBatch,
  listBatches,
  pauseBatch,
  resumeBatch,
  startBatch,
  type BatchDeps,
} from '@catalogue/generation';
import { apiRouter, eshopOf, guard, idempotent, type RouterDeps } from '@catalogue/http';
import type { Deps } from '../deps';

export const startGenerationBatch = guard({
  operationId: 'startGenerationBatch',
  statuses: { 409: 'IdempotencyConflict', 422: true },
  body: batchStartBody,
  response: { 200: batchDryRun, 201: batchView },
});
export const listGenerationBatches = guard({
  operationId: 'listGenerationBatches',
  response: { 200: batchList },
});
export const getGenerationBatch = guard({
  operationId: 'getGenerationBatch',
  statuses: { 404: true },
  params: batchIdParams,
  response: { 200: batchView },
});
const action = (operationId: string) =>
  guard({
    operationId,
    statuses: { 404: true, 409: true },
    params: batchIdParams,
    response: { 200: batchView },
  });
export const pauseGenerationBatch = action('pauseGenerationBatch');
export const resumeGenerationBatch = action('resumeGenerationBatch');
export const cancelGenerationBatch = action('cancelGenerationBatch');

/** Bulk generation (beyond the specification): libs/generation holds its rules. */
export function generationBatchRoutes(deps: RouterDeps & Pick<Deps, 'logger' | 'queues' | 'config'>) {
  const batchDeps: BatchDeps = {
    db: deps.db,
    queues: deps.queues,
    logger: deps.logger,
    maxResearchUrls: deps.config.generation.research.maxUrls,
  };
  const router = apiRouter(deps, { prefix: '/api/v2/rest/generation-batches' });
  router.post('/', idempotent(deps), startGenerationBatch, async (ctx) => {
    const request = ctx.state.input.body;
    if (request.dry_run) {
      ctx.body = await dryRunBatch(batchDeps, eshopOf(ctx), request);
      return;
    }
    const recorder = ctx.state.idempotency;
    ctx.body = await startBatch(
      batchDeps,
      eshopOf(ctx),
      request,
      // Behind idempotent() with a key: the answer commits with the batch.
      recorder && ((trx, answer) => recorder.record(trx, 201, answer)),
    );
    ctx.status = 201;
  });
  router.get('/', listGenerationBatches, async (ctx) => {
    ctx.body = await listBatches(deps.db, eshopOf(ctx).id);
  });
  router.get('/:batch_id', getGenerationBatch, async (ctx) => {
    ctx.body = await getBatch(deps.db, eshopOf(ctx).id, ctx.state.input.params.batch_id);
  });
  router.post('/:batch_id/pause', pauseGenerationBatch, async (ctx) => {
    ctx.body = await pauseBatch(batchDeps, eshopOf(ctx).id, ctx.state.input.params.batch_id);
  });
  router.post('/:batch_id/resume', resumeGenerationBatch, async (ctx) => {
    ctx.body = await resumeBatch(batchDeps, eshopOf(ctx).id, ctx.state.input.params.batch_id);
  });
  router.post('/:batch_id/cancel', cancelGenerationBatch, async (ctx) => {
    ctx.body = await cancelBatch(batchDeps, eshopOf(ctx).id, ctx.state.input.params.batch_id);
  });
  return router;
}
