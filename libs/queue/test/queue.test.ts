import { UnrecoverableError } from 'bullmq';
import { Redis } from 'ioredis';
import { Registry, type MetricValueWithName } from 'prom-client';
import { createLogger } from '@catalogue/logger';
import {
  closeQueues,
  closeWorkers,
  createQueueMetrics,
  createQueues,
  createRedis,
  createWorkers,
  DEFAULT_JOB_OPTIONS,
  enqueue,
  pingRedis,
  QUEUE_NAMES,
  registerQueueDepth,
  type JobHandler,
  type JobHandlers,
  type JobPayloads,
  type QueueMetrics,
  type QueueName,
  type Queues,
  type Worker,
} from '@catalogue/queue';
import { eventually, freePort, startPrivateRedis, testConfig } from '@catalogue/testing';

// Every key of this file lives under `<run prefix>:queue-lib-<n>:…`: a prefix of its own per
// test (so no test sees another's jobs or workers), still matched by the global teardown's
// `<run prefix>:*` sweep should an afterAll not get to obliterate it.
const config = testConfig();
const logger = createLogger({ service: 'test', level: 'silent' });

interface Harness {
  prefix: string;
  connection: Redis;
  queues: Queues;
  registry: Registry;
  metrics: QueueMetrics;
  workers: Worker[];
}

const harnesses: Harness[] = [];
const extraClients: Redis[] = [];

function harness(): Harness {
  const n = harnesses.length + 1;
  const prefix = `${config.redis.queuePrefix}:queue-lib-${n}`;
  const connection = createRedis(config.redis.url, `queue-lib-test-${n}`);
  const registry = new Registry();
  const h: Harness = {
    prefix,
    connection,
    queues: createQueues(connection, prefix),
    registry,
    metrics: createQueueMetrics(registry),
    workers: [],
  };
  harnesses.push(h);
  return h;
}

function startWorkers<Q extends QueueName>(
  h: Harness,
  queues: readonly Q[],
  handlers: Partial<JobHandlers>,
): Worker[] {
  const workers = createWorkers({
    queues,
    handlers,
    connection: h.connection,
    prefix: h.prefix,
    concurrency: 1,
    logger,
    metrics: h.metrics,
  });
  h.workers.push(...workers);
  return workers;
}

/** Fast retries for one job: the defaults (5 attempts, 2 s exponential) would take a minute. */
const FAST_RETRY = { attempts: 2, backoff: { type: 'fixed', delay: 10 } } as const;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function processed(h: Harness, queue: QueueName, outcome: string): Promise<number> {
  const { values } = await h.registry.getSingleMetric('queue_jobs_processed_total')!.get();
  return values.find((v) => v.labels.queue === queue && v.labels.outcome === outcome)?.value ?? 0;
}

async function timed(h: Harness, queue: QueueName, outcome: string): Promise<number> {
  const { values } = await h.registry.getSingleMetric('queue_job_duration_seconds')!.get();
  const count = (values as MetricValueWithName<string>[]).find(
    (v) =>
      v.metricName === 'queue_job_duration_seconds_count' &&
      v.labels.queue === queue &&
      v.labels.outcome === outcome,
  );
  return count?.value ?? 0;
}

/** The queue_jobs gauge as scraped (collect() runs): "queue/state" -> value. */
async function scrapeDepth(registry: Registry): Promise<Map<string, number>> {
  const text = await registry.getSingleMetricAsString('queue_jobs');
  const depth = new Map<string, number>();
  for (const [, queue, state, value] of text.matchAll(
    /^queue_jobs\{queue="([^"]+)",state="([^"]+)"\} (\S+)$/gm,
  ))
    depth.set(`${queue}/${state}`, Number(value));
  return depth;
}

function whenReady(redis: Redis): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => redis.once('ready', () => resolve()));
}

afterAll(async () => {
  for (const h of harnesses) {
    await closeWorkers(h.workers);
    await Promise.all(Object.values(h.queues).map((q) => q.obliterate({ force: true })));
    await closeQueues(h.queues);
    await h.connection.quit();
  }
  // Disconnecting a client that has already ended would leave ioredis' 2 s socket timer behind.
  for (const client of extraClients) if (client.status !== 'end') client.disconnect();
});

describe('createWorkers', () => {
  it('when a consumed queue has no handler, then it throws naming that queue and no worker takes jobs', async () => {
    // Arrange
    const h = harness();
    const handled: number[] = [];
    const generate: JobHandler<'generate'> = async (job) => {
      handled.push(job.data.job_id);
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
    await sleep(300);
    expect(handled).toEqual([]);
    expect(await h.queues.generate.getJobState(id!)).toBe('waiting');
    expect(await h.queues.generate.getWorkersCount()).toBe(0);
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
    await sleep(100); // nothing more must happen after the last attempt
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
        await sleep(300);
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
    await closeWorkers(workers);

    // Act
    const id = await enqueue(h.queues, 'generate', { eshop_id: 1, job_id: 5 });
    await sleep(300);

    // Assert
    expect(calls).toBe(0);
    expect(await h.queues.generate.getJobState(id!)).toBe('waiting');
  });
});

describe('createQueues and enqueue', () => {
  it('when a job is enqueued without options, then it gets the default retries, backoff and bounded history', async () => {
    // Arrange
    const h = harness();

    // Act
    const id = await enqueue(h.queues, 'credit-settlement', { eshop_id: 1, job_id: 6, actual_cost: 0 });

    // Assert
    const job = await h.queues['credit-settlement'].getJob(id!);
    expect(job!.opts).toMatchObject({
      attempts: 5,
      backoff: { type: 'exponential', delay: 2_000 },
      removeOnComplete: { age: 24 * 3600, count: 1_000 },
      removeOnFail: { age: 7 * 24 * 3600, count: 10_000 },
    });
    expect(job!.opts).toMatchObject(DEFAULT_JOB_OPTIONS);
    for (const queue of Object.values(h.queues)) expect(queue.defaultJobOptions).toEqual(DEFAULT_JOB_OPTIONS);
  });

  it('when enqueue overrides one option, then the other defaults still apply', async () => {
    // Arrange
    const h = harness();

    // Act
    const id = await enqueue(h.queues, 'generate', { eshop_id: 1, job_id: 7 }, { attempts: 2 });

    // Assert
    const job = await h.queues.generate.getJob(id!);
    expect(job!.opts.attempts).toBe(2);
    expect(job!.opts.backoff).toEqual({ type: 'exponential', delay: 2_000 });
    expect(job!.opts.removeOnFail).toEqual({ age: 7 * 24 * 3600, count: 10_000 });
  });

  it('when the same deterministic jobId is enqueued twice, then only the first job is queued', async () => {
    // Arrange
    const h = harness();
    const jobId = 'render-7-product-sku-1';

    // Act
    const first = await enqueue(
      h.queues,
      'render-content',
      { eshop_id: 7, entity_type: 'product', external_ids: ['sku-1'] },
      { jobId },
    );
    const second = await enqueue(
      h.queues,
      'render-content',
      { eshop_id: 7, entity_type: 'brand', external_ids: ['other'] },
      { jobId },
    );

    // Assert
    expect(first).toBe(jobId);
    expect(second).toBe(jobId);
    const queue = h.queues['render-content'];
    expect(await queue.getJobCounts('waiting', 'delayed', 'prioritized')).toEqual({
      waiting: 1,
      delayed: 0,
      prioritized: 0,
    });
    expect((await queue.getJob(jobId))!.data).toEqual({
      eshop_id: 7,
      entity_type: 'product',
      external_ids: ['sku-1'],
    });
  });

  it('when a payload does not match its queue, then it does not compile', () => {
    // Only type-checked (ts-jest and tsconfig.test.json): never run, so nothing is enqueued.
    const h = { queues: {} as Queues };
    const _wrongPayload = () =>
      // @ts-expect-error: a generate job needs job_id
      enqueue(h.queues, 'generate', { eshop_id: 1 });
    const _wrongQueue = () =>
      // @ts-expect-error: there is no such queue
      enqueue(h.queues, 'no-such-queue', { eshop_id: 1 });
    expect(typeof _wrongPayload).toBe('function');
    expect(typeof _wrongQueue).toBe('function');
  });
});

describe('registerQueueDepth', () => {
  it('when jobs wait with no worker, then queue_jobs reports them per queue and state at every scrape', async () => {
    // Arrange
    const h = harness();
    registerQueueDepth(h.registry, Object.values(h.queues), h.connection);
    for (let i = 1; i <= 3; i += 1) await enqueue(h.queues, 'generate', { eshop_id: 1, job_id: i });
    await enqueue(h.queues, 'render-content', { eshop_id: 1, entity_type: 'blog', external_ids: ['post-1'] });
    await enqueue(h.queues, 'listing-enrichment', { eshop_id: 1, batch_id: 1, row_id: 1 }, { delay: 60_000 });

    // Act
    const depth = await scrapeDepth(h.registry);

    // Assert
    expect(depth.get('generate/waiting')).toBe(3);
    expect(depth.get('render-content/waiting')).toBe(1);
    expect(depth.get('listing-enrichment/waiting')).toBe(0);
    expect(depth.get('listing-enrichment/delayed')).toBe(1);
    for (const state of ['waiting', 'active', 'delayed', 'failed', 'prioritized'])
      expect(depth.get(`credit-settlement/${state}`)).toBe(0);
    expect(depth.size).toBe(QUEUE_NAMES.length * 5);

    // Act: the next scrape reads Redis again
    await enqueue(h.queues, 'generate', { eshop_id: 1, job_id: 4 });
    await enqueue(h.queues, 'generate', { eshop_id: 1, job_id: 5 });
    const metrics = await h.registry.metrics();

    // Assert
    expect(metrics).toContain('queue_jobs{queue="generate",state="waiting"} 5');
  });
});

describe('pingRedis', () => {
  it('when the connection has not connected (lazyConnect), then it rejects at once naming the status', async () => {
    // Arrange
    const redis = new Redis(`redis://127.0.0.1:${await freePort()}`, {
      lazyConnect: true,
      maxRetriesPerRequest: null,
    });
    extraClients.push(redis);

    // Act
    const started = Date.now();
    const result = pingRedis(redis);

    // Assert
    await expect(result).rejects.toThrow('redis connection is wait');
    expect(Date.now() - started).toBeLessThan(100);
  });

  it('when the server is unreachable and the client keeps reconnecting, then it rejects at once where a command would wait', async () => {
    // Arrange: createRedis' settings (commands wait for the reconnect), and a short
    // disconnectTimeout so that closing the socket-less client leaves no timer behind.
    const redis = new Redis(`redis://127.0.0.1:${await freePort()}`, {
      maxRetriesPerRequest: null,
      disconnectTimeout: 10,
    });
    extraClients.push(redis);
    await new Promise<void>((resolve) => redis.on('error', () => resolve()));
    const rawPing = redis.ping().then(
      () => 'answered',
      () => 'rejected',
    );

    // Act
    const started = Date.now();
    const result = pingRedis(redis);

    // Assert
    await expect(result).rejects.toThrow(/^redis connection is (connecting|reconnecting)$/);
    expect(Date.now() - started).toBeLessThan(100);
    expect(await Promise.race([rawPing, sleep(200).then(() => 'still waiting')])).toBe('still waiting');
  });

  it('when a ready connection is disconnected, then it rejects', async () => {
    // Arrange
    const redis = createRedis(config.redis.url, 'queue-lib-test-disconnected');
    extraClients.push(redis);
    await whenReady(redis);
    await pingRedis(redis);

    // Act
    const ended = new Promise<void>((resolve) => redis.once('end', () => resolve()));
    redis.disconnect();
    await ended;

    // Assert
    const started = Date.now();
    await expect(pingRedis(redis)).rejects.toThrow('redis connection is end');
    expect(Date.now() - started).toBeLessThan(100);
  });

  it('when the connection is ready, then it resolves', async () => {
    // Arrange
    const redis = createRedis(config.redis.url, 'queue-lib-test-ready');
    extraClients.push(redis);
    await whenReady(redis);

    // Act / Assert
    await expect(pingRedis(redis)).resolves.toBeUndefined();
  });
});

describe('regressions', () => {
  it('when a handler throws something that is not an Error, then the retry is still counted', async () => {
    // Arrange
    const h = harness();
    startWorkers(h, ['credit-settlement'], {
      'credit-settlement': async () => {
        throw 'plain string'; // the case under test: not an Error
      },
    });

    // Act
    await enqueue(h.queues, 'credit-settlement', { eshop_id: 1, job_id: 4, actual_cost: 1 }, FAST_RETRY);

    // Assert
    await eventually(async () => expect(await processed(h, 'credit-settlement', 'failed')).toBe(1));
    expect(await processed(h, 'credit-settlement', 'retried')).toBe(1);
  });

  it('when the queues’ Redis is down, then a scrape answers at once with the last depth', async () => {
    // Arrange
    const redisServer = await startPrivateRedis();
    const connection = createRedis(redisServer.url, 'depth-down-test', { disconnectTimeout: 10 });
    connection.on('error', () => undefined);
    const queues = createQueues(connection, `${config.redis.queuePrefix}:depth-down`);
    const registry = new Registry();
    registerQueueDepth(registry, Object.values(queues), connection);
    await enqueue(queues, 'generate', { eshop_id: 1, job_id: 1 });
    expect(await registry.metrics()).toContain('queue_jobs{queue="generate",state="waiting"} 1');

    try {
      // Act
      await redisServer.stop();
      await eventually(() => expect(connection.status).not.toBe('ready'));
      const scrape = await Promise.race([
        registry.metrics(),
        new Promise<string>((resolve) => setTimeout(() => resolve('timed out'), 1_000)),
      ]);

      // Assert
      expect(scrape).toContain('queue_jobs{queue="generate",state="waiting"} 1');
    } finally {
      connection.disconnect();
      await Promise.all(Object.values(queues).map((q) => q.close().catch(() => undefined)));
    }
  });
});
