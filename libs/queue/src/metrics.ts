import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Queue } from 'bullmq';
import type { RedisClient } from './connection';

export interface QueueMetrics {
  jobs: Counter<'queue' | 'outcome'>;
  jobDuration: Histogram<'queue' | 'outcome'>;
}

export function createQueueMetrics(registry: Registry): QueueMetrics {
  const jobDuration = new Histogram({
    name: 'queue_job_duration_seconds',
    help: 'Processing time of one job attempt, by queue and outcome.',
    labelNames: ['queue', 'outcome'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    // A sampled trace's id per bucket (OpenMetrics scrapes): a slow bucket leads to a trace.
    // prom-client refuses exemplars on a registry whose default format is Prometheus text
    // (which cannot show them), so it is registered below, past that check.
    enableExemplars: true,
    registers: [],
  });
  registry.registerMetric(jobDuration);
  return {
    jobs: new Counter({
      name: 'queue_jobs_processed_total',
      help: 'Job attempts ended in this worker, by queue and outcome (completed, retried, failed, stalled).',
      labelNames: ['queue', 'outcome'],
      registers: [registry],
    }),
    jobDuration,
  };
}

const DEPTH_STATES = ['waiting', 'active', 'delayed', 'failed', 'prioritized'] as const;

/**
 * Queue depth read from Redis at scrape time, by queue and state. One Redis round trip per
 * queue per scrape; nothing is kept in between, so every replica reports the same truth.
 * While `connection` (the queues' RedisClient) is down the gauge keeps its last values: asking
 * would wait in ioredis' offline queue and hang the whole /metrics response.
 */
export function registerQueueDepth(
  registry: Registry,
  queues: Queue[],
  connection: RedisClient,
): Gauge<'queue' | 'state'> {
  return new Gauge({
    name: 'queue_jobs',
    help: 'Jobs currently in each queue, by state.',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      if (connection.status !== 'ready') return;
      await Promise.all(
        queues.map(async (queue) => {
          try {
            const counts = await queue.getJobCounts(...DEPTH_STATES);
            for (const state of DEPTH_STATES) this.set({ queue: queue.name, state }, counts[state] ?? 0);
          } catch {
            // Redis went away mid-scrape: /readyz says so; keep the last values.
          }
        }),
      );
    },
  });
}
