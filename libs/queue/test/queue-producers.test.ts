import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import {
  createQueues,
  createRedis,
  DEFAULT_JOB_OPTIONS,
  enqueue,
  fairKey,
  pingRedis,
  QUEUE_NAMES,
  registerQueueDepth,
  type Queues,
} from '@catalogue/queue';
import { eventually, freePort, startPrivateRedis } from '@catalogue/testing';
import {
  config,
  extraClients,
  harness,
  startWorkers,
  FAST_RETRY,
  sleep,
  processed,
  scrapeDepth,
  whenReady,
} from './queue-fixtures';

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

  it('when the same deterministic jobId is enqueued twice, then only the first job is queued and only it takes a place in its eshop’s line', async () => {
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
    // render-content is fair: its jobs are prioritized by their place in their eshop's line.
    expect(await queue.getJobCounts('waiting', 'delayed', 'prioritized')).toEqual({
      waiting: 0,
      delayed: 0,
      prioritized: 1,
    });
    expect(await h.connection.hgetall(fairKey(h.prefix, 'render-content'))).toEqual({ '7': '1' });
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
    // Fair queues' jobs wait prioritized (their place in their eshop's line).
    expect(depth.get('generate/prioritized')).toBe(3);
    expect(depth.get('render-content/prioritized')).toBe(1);
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
    expect(metrics).toContain('queue_jobs{queue="generate",state="prioritized"} 5');
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
    expect(Date.now() - started).toBeLessThan(2_000); // a command would wait for good
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
    expect(Date.now() - started).toBeLessThan(2_000); // a command would wait for good
    // A command that waits for good is seen waiting: 200 ms without an answer is the observation.
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
    expect(Date.now() - started).toBeLessThan(2_000); // a command would wait for good
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
    expect(await registry.metrics()).toContain('queue_jobs{queue="generate",state="prioritized"} 1');

    try {
      // Act
      await redisServer.stop();
      await eventually(() => expect(connection.status).not.toBe('ready'));
      const scrape = await Promise.race([
        registry.metrics(),
        new Promise<string>((resolve) => setTimeout(() => resolve('timed out'), 1_000)),
      ]);

      // Assert
      expect(scrape).toContain('queue_jobs{queue="generate",state="prioritized"} 1');
    } finally {
      connection.disconnect();
      await Promise.all(Object.values(queues).map((q) => q.close().catch(() => undefined)));
    }
  });
});
