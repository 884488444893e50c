import { UnrecoverableError } from 'bullmq';
import { closeWorkers, enqueue, isBatchStep, type JobHandler, type JobPayloads } from '@catalogue/queue';
import { eventually, queuesDrained } from '@catalogue/testing';
import { harness, startWorkers, FAST_RETRY, sleep, processed, timed } from './queue-fixtures';

describe('createWorkers', () => {
  it('when a consumed queue has no handler, then it throws naming that queue and no worker takes jobs', async () => {
    // Arrange
    const h = harness();
    const handled: number[] = [];
    const generate: JobHandler<'generate'> = async (job) => {
      if (!isBatchStep(job.data)) handled.push(job.data.job_id);
    };
    const id = await enqueue(h.queues, 'generate', { eshop_id: 1, job_id: 11 });

    // Act
    let error: Error | undefined;
    try {
      startWorkers(h, ['generate', 'credit-settlement'], { generate });
    } catch (err) {
      error = err as Error;
    }

    // Assert
    expect(error?.message).toMatch(/credit-settlement/);
    expect(error?.message).not.toMatch(/generate/);
    expect(h.workers).toHaveLength(0);
    expect(await h.queues.generate.getJobState(id!)).toBe('prioritized');
    expect(await h.queues.generate.getWorkersCount()).toBe(0);
    // The job is still there for a worker started now: it runs it, and it is the only worker.
    const taken: number[] = [];
    startWorkers(h, ['generate'], {
      generate: async (job) => {
        if (!isBatchStep(job.data)) taken.push(job.data.job_id);
      },
    });
    await eventually(async () => expect(await h.queues.generate.getJobState(id!)).toBe('completed'));
    expect(taken).toEqual([11]);
    expect(handled).toEqual([]);
    expect(await h.queues.generate.getWorkersCount()).toBe(1);
  });

  it('when a job is enqueued, then its handler gets the typed payload and the job is counted and timed as completed', async () => {
    // Arrange
    const h = harness();
    const received: JobPayloads['render-content'][] = [];
    startWorkers(h, ['render-content'], {
      'render-content': async (job) => {
        received.push(job.data);
        return `rendered ${job.data.entity_type} ${job.data.external_ids.join(',')}`;
      },
    });
    const payload: JobPayloads['render-content'] = {
      eshop_id: 7,
      entity_type: 'product',
      external_ids: ['sku-1'],
    };

    // Act
    const id = await enqueue(h.queues, 'render-content', payload);

    // Assert
    await eventually(async () => expect(await processed(h, 'render-content', 'completed')).toBe(1));
    expect(received).toEqual([payload]);
    const job = await h.queues['render-content'].getJob(id!);
    expect(job!.name).toBe('render-content');
    expect(job!.returnvalue).toBe('rendered product sku-1');
    expect(await job!.getState()).toBe('completed');
    expect(await timed(h, 'render-content', 'completed')).toBe(1);
    expect(await processed(h, 'render-content', 'retried')).toBe(0);
    expect(await processed(h, 'render-content', 'failed')).toBe(0);
  });

  it('when a handler throws once and then succeeds, then the job is counted as retried once and then completed', async () => {
    // Arrange
    const h = harness();
    let calls = 0;
    startWorkers(h, ['generate'], {
      generate: async () => {
        calls += 1;
        if (calls === 1) throw new Error('transient');
        return 'ok';
      },
    });

    // Act
    const id = await enqueue(h.queues, 'generate', { eshop_id: 1, job_id: 2 }, FAST_RETRY);

    // Assert
    await eventually(async () => expect(await processed(h, 'generate', 'completed')).toBe(1));
    expect(calls).toBe(2);
    expect(await processed(h, 'generate', 'retried')).toBe(1);
    expect(await processed(h, 'generate', 'failed')).toBe(0);
    expect(await timed(h, 'generate', 'retried')).toBe(1);
    expect(await timed(h, 'generate', 'completed')).toBe(1);
    const job = await h.queues.generate.getJob(id!);
    expect(await job!.getState()).toBe('completed');
    expect(job!.attemptsMade).toBe(2);
  });

  it('when a handler always throws, then after its last attempt the job is in the failed set, counted failed once and retried once', async () => {
    // Arrange
    const h = harness();
    let calls = 0;
    startWorkers(h, ['credit-settlement'], {
      'credit-settlement': async () => {
        calls += 1;
        throw new Error('ledger unavailable');
      },
    });

    // Act
    const id = await enqueue(
      h.queues,
      'credit-settlement',
      { eshop_id: 1, job_id: 3, actual_cost: 5 },
      FAST_RETRY,
    );

    // Assert
    await eventually(async () => expect(await processed(h, 'credit-settlement', 'failed')).toBe(1));
    // Nothing more must happen after the last attempt: no job is left that could run.
    await queuesDrained([h.queues['credit-settlement']]);
    expect(calls).toBe(2);
    expect(await processed(h, 'credit-settlement', 'failed')).toBe(1);
    expect(await processed(h, 'credit-settlement', 'retried')).toBe(1);
    expect(await processed(h, 'credit-settlement', 'completed')).toBe(0);
    expect(await timed(h, 'credit-settlement', 'failed')).toBe(1);
    const failed = await h.queues['credit-settlement'].getFailed();
    expect(failed.map((j) => j.id)).toEqual([id]);
    expect(failed[0]?.failedReason).toBe('ledger unavailable');
    expect(failed[0]?.attemptsMade).toBe(2);
  });

  it('when a handler throws an UnrecoverableError, then the job fails at once without retries', async () => {
    // Arrange
    const h = harness();
    let calls = 0;
    startWorkers(h, ['listing-enrichment'], {
      'listing-enrichment': async () => {
        calls += 1;
        throw new UnrecoverableError('row does not exist');
      },
    });

    // Act: default options, i.e. 5 attempts
    const id = await enqueue(h.queues, 'listing-enrichment', { eshop_id: 1, batch_id: 2, row_id: 3 });

    // Assert
    await eventually(async () => expect(await processed(h, 'listing-enrichment', 'failed')).toBe(1));
    expect(calls).toBe(1);
    expect(await processed(h, 'listing-enrichment', 'retried')).toBe(0);
    expect(await h.queues['listing-enrichment'].getJobState(id!)).toBe('failed');
  });
});

describe('closeWorkers', () => {
  it('when a job is running, then it waits for the job to finish and the job ends completed', async () => {
    // Arrange
    const h = harness();
    let started = false;
    let finished = false;
    const workers = startWorkers(h, ['generate'], {
      generate: async () => {
        started = true;
        await sleep(300); // a slow job: closing must wait for it
        finished = true;
        return 'slow';
      },
    });
    const id = await enqueue(h.queues, 'generate', { eshop_id: 1, job_id: 4 });
    await eventually(() => expect(started).toBe(true));

    // Act
    await closeWorkers(workers);

    // Assert
    expect(finished).toBe(true);
    const job = await h.queues.generate.getJob(id!);
    expect(await job!.getState()).toBe('completed');
    expect(job!.returnvalue).toBe('slow');
    expect(await processed(h, 'generate', 'completed')).toBe(1);
  });

  it('when the workers are closed, then jobs enqueued afterwards stay waiting', async () => {
    // Arrange
    const h = harness();
    let calls = 0;
    const workers = startWorkers(h, ['generate'], {
      generate: async () => {
        calls += 1;
      },
    });
    await eventually(async () => expect(await h.queues.generate.getWorkersCount()).toBe(1));
    await closeWorkers(workers);

    // Act
    const id = await enqueue(h.queues, 'generate', { eshop_id: 1, job_id: 5 });

    // Assert: no worker is left that could take the job.
    await eventually(async () => expect(await h.queues.generate.getWorkersCount()).toBe(0));
    expect(calls).toBe(0);
    expect(await h.queues.generate.getJobState(id!)).toBe('prioritized');
  });
});
