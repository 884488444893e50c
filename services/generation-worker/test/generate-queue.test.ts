// The generate queue: a real BullMQ worker runs a queued job and queues its settlement.
import { closeWorkers, enqueue } from '@catalogue/queue';
import { eventually } from '@catalogue/testing';
import { startWorkers } from '../src/handlers';
import type { Worker } from 'bullmq';
import { createJob, deps, payload, reload, settlementsOf, shop, useGenerateDeps } from './generate-fixtures';

useGenerateDeps('queue');

describe('the generate queue', () => {
  let workers: Worker[];

  beforeAll(() => {
    workers = startWorkers(deps, ['generate']);
  });
  afterAll(async () => {
    await closeWorkers(workers);
  });

  test('when a generate job is queued, then a real worker runs it to done and queues the settlement', async () => {
    const eshopId = await shop();
    const { job } = await createJob({ eshopId });

    const id = await enqueue(deps.queues, 'generate', payload(job));

    await eventually(async () => expect((await reload(job)).status).toBe('done'), 15_000);
    await eventually(async () => expect(await deps.queues.generate.getJobState(id!)).toBe('completed'));
    const done = await reload(job);
    expect(await settlementsOf(job.id)).toEqual([
      { eshop_id: eshopId, job_id: job.id, actual_cost: done.chargedCost },
    ]);
  });

  test('when the job row belongs to another eshop, then the BullMQ job fails at once without retries', async () => {
    const owner = await shop();
    const other = await shop();
    const { job } = await createJob({ eshopId: owner });

    const id = await enqueue(deps.queues, 'generate', { eshop_id: other, job_id: job.id });

    await eventually(async () => expect(await deps.queues.generate.getJobState(id!)).toBe('failed'), 15_000);
    const bull = await deps.queues.generate.getJob(id!);
    expect(bull!.attemptsMade).toBe(1);
    expect((await reload(job)).status).toBe('pending');
  });
});
