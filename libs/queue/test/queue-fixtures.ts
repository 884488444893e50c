// Shared arrangement of the queue tests: Redis connections and workers of a test file, closed
// after it, and readers of the metrics they report.
import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
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
  type JobHandlers,
  type QueueMetrics,
  type QueueName,
  type Queues,
  type Worker,
} from '@catalogue/queue';
import { testConfig } from '@catalogue/testing';

// Every key of a test file lives under `<run prefix>:queue-lib-<file>-<n>:…`: a prefix of its own
// per test file and test (so no test sees another's jobs or workers, even with the test files
// running at once), still matched by the global teardown's `<run prefix>:*` sweep should an
// afterAll not get to obliterate it.
const FILE = randomBytes(3).toString('hex');
export const config = testConfig();
export const logger = createLogger({ service: 'test', level: 'silent' });

export interface Harness {
  prefix: string;
  connection: Redis;
  queues: Queues;
  registry: Registry;
  metrics: QueueMetrics;
  workers: Worker[];
}

export const harnesses: Harness[] = [];
export const extraClients: Redis[] = [];

export function harness(): Harness {
  const n = harnesses.length + 1;
  const prefix = `${config.redis.queuePrefix}:queue-lib-${FILE}-${n}`;
  const connection = createRedis(config.redis.url, `queue-lib-test-${FILE}-${n}`);
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

export function startWorkers<Q extends QueueName>(
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
export const FAST_RETRY = { attempts: 2, backoff: { type: 'fixed', delay: 10 } } as const;

/** A fixed wait, for tests whose point is time itself (a slow job, a command that never answers). */
export const sleep = (ms: number): Promise<void> => delay(ms);

export async function processed(h: Harness, queue: QueueName, outcome: string): Promise<number> {
  const { values } = await h.registry.getSingleMetric('queue_jobs_processed_total')!.get();
  return values.find((v) => v.labels.queue === queue && v.labels.outcome === outcome)?.value ?? 0;
}

export async function timed(h: Harness, queue: QueueName, outcome: string): Promise<number> {
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
export async function scrapeDepth(registry: Registry): Promise<Map<string, number>> {
  const text = await registry.getSingleMetricAsString('queue_jobs');
  const depth = new Map<string, number>();
  for (const [, queue, state, value] of text.matchAll(
    /^queue_jobs\{queue="([^"]+)",state="([^"]+)"\} (\S+)$/gm,
  ))
    depth.set(`${queue}/${state}`, Number(value));
  return depth;
}

export function whenReady(redis: Redis): Promise<void> {
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
