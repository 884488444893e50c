// Webhook deliveries wait on receivers (up to WEBHOOK_TIMEOUT_MS each), so their queue runs
// WEBHOOK_CONCURRENCY jobs at once; the CPU-bound queues keep WORKER_CONCURRENCY.
import { testConfig } from '@catalogue/testing';
import { buildDeps, closeDeps, type Deps } from '../src/deps';
import { startWorkers } from '../src/handlers';

describe('generation worker: jobs at once per queue', () => {
  let deps: Deps;
  beforeAll(() => {
    deps = buildDeps(
      testConfig({
        QUEUE_PREFIX: `${process.env.TEST_QUEUE_PREFIX}-concurrency`,
        WORKER_CONCURRENCY: '3',
        WEBHOOK_CONCURRENCY: '24',
      }),
    );
  });
  afterAll(() => closeDeps(deps));

  it('when the worker starts, then deliveries run WEBHOOK_CONCURRENCY at once and rendering WORKER_CONCURRENCY', async () => {
    const workers = startWorkers(deps, ['render-content', 'webhook-delivery']);
    try {
      expect(Object.fromEntries(workers.map((w) => [w.name, w.concurrency]))).toEqual({
        'render-content': 3,
        'webhook-delivery': 24,
      });
    } finally {
      await Promise.all(workers.map((w) => w.close()));
    }
  });
});
