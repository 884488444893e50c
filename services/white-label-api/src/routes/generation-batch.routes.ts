import {
  batchIdParams,
  batchList,
  batchView,
  cancelBatch,
  getBatch,
  listBatches,
  pauseBatch,
  resumeBatch,
  type BatchDeps,
} from '@catalogue/generation';
import { eshopOf, guard } from '@catalogue/http';
import type { Deps } from '../deps';
import { licensedRouter, type RouteDeps } from './licensed-router';

export const listEditorGenerationBatches = guard({
  operationId: 'listEditorGenerationBatches',
  statuses: { 500: 'ServerError', 503: 'Unavailable' },
  response: { 200: batchList },
});
export const getEditorGenerationBatch = guard({
  operationId: 'getEditorGenerationBatch',
  statuses: { 404: true, 500: 'ServerError', 503: 'Unavailable' },
  params: batchIdParams,
  response: { 200: batchView },
});
const action = (operationId: string) =>
  guard({
    operationId,
    statuses: { 404: true, 409: true, 500: 'ServerError', 503: 'Unavailable' },
    params: batchIdParams,
    response: { 200: batchView },
  });
export const pauseEditorGenerationBatch = action('pauseEditorGenerationBatch');
export const resumeEditorGenerationBatch = action('resumeEditorGenerationBatch');
export const cancelEditorGenerationBatch = action('cancelEditorGenerationBatch');

/**
 * The eshop's bulk generations for the editor's host page (beyond the specification): the same
 * rules and answers as the catalogue API's `/api/v2/rest/generation-batches` (libs/generation).
 */
export function generationBatchRoutes(deps: RouteDeps & Pick<Deps, 'queues'>) {
  const batchDeps: BatchDeps = {
    db: deps.db,
    queues: deps.queues,
    logger: deps.logger,
    maxResearchUrls: deps.config.generation.research.maxUrls,
  };
  const router = licensedRouter(deps);
  router.get('/generation-batch', listEditorGenerationBatches, async (ctx) => {
    ctx.body = await listBatches(deps.db, eshopOf(ctx).id);
  });
  router.get('/generation-batch/:batch_id', getEditorGenerationBatch, async (ctx) => {
    ctx.body = await getBatch(deps.db, eshopOf(ctx).id, ctx.state.input.params.batch_id);
  });
  router.post('/generation-batch/:batch_id/pause', pauseEditorGenerationBatch, async (ctx) => {
    ctx.body = await pauseBatch(batchDeps, eshopOf(ctx).id, ctx.state.input.params.batch_id);
  });
  router.post('/generation-batch/:batch_id/resume', resumeEditorGenerationBatch, async (ctx) => {
    ctx.body = await resumeBatch(batchDeps, eshopOf(ctx).id, ctx.state.input.params.batch_id);
  });
  router.post('/generation-batch/:batch_id/cancel', cancelEditorGenerationBatch, async (ctx) => {
    ctx.body = await cancelBatch(batchDeps, eshopOf(ctx).id, ctx.state.input.params.batch_id);
  });
  return router;
}
