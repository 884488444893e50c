// Every way a generation job ends writes its event to the eshop's change feed, in the
// transaction that ends it, once.
import { eventsRepository } from '@catalogue/db';
import { runGeneration } from '../src/services/generate.service';
import { failGeneration } from '../src/services/generation-end';
import { createJob, deps, payload, reload, shop, useGenerateDeps } from './generate-fixtures';

useGenerateDeps('events');

const changes = async (eshopId: number) =>
  (await eventsRepository.listAfter(deps.db, eshopId, 0, 100)).map((e) => ({
    seq: e.seq,
    type: e.type,
    entityType: e.entityType,
    externalId: e.externalId,
    data: e.data,
  }));

describe('generation events', () => {
  test('when a job is done, then one generation.succeeded names the entity, the job and its widgets, however often it is delivered', async () => {
    const eshopId = await shop();
    const { job } = await createJob({ eshopId });

    await runGeneration(deps, payload(job));
    await runGeneration(deps, payload(job));

    const done = await reload(job);
    expect(await changes(eshopId)).toEqual([
      {
        seq: 1,
        type: 'generation.succeeded',
        entityType: job.entityType,
        externalId: job.entityId,
        data: { job_id: job.id, widgets_created: done.widgetsCreated },
      },
    ]);
  });

  test('when a job fails, then one generation.failed is written; ending it again writes nothing', async () => {
    const eshopId = await shop();
    const { job } = await createJob({ eshopId });
    const [withdrawn] = await deps
      .db('designs')
      .insert({
        name: 'Withdrawn',
        category: 'product',
        type: 'public',
        is_visible: false,
        hash: 'y'.repeat(64),
      })
      .returning<{ id: number }[]>('id');
    await deps.db('generation_jobs').where({ id: job.id }).update({ design_id: withdrawn!.id });

    expect((await runGeneration(deps, payload(job))).outcome).toBe('failed');
    await failGeneration(deps, eshopId, job.id, { message: 'swept', provider: null, usage: null });

    expect(await changes(eshopId)).toEqual([
      {
        seq: 1,
        type: 'generation.failed',
        entityType: job.entityType,
        externalId: job.entityId,
        data: { job_id: job.id },
      },
    ]);
  });
});
