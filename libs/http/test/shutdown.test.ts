import { buildBaseDeps, closeBaseDeps } from '@catalogue/http';
import { closeQueues, createQueues, enqueue } from '@catalogue/queue';
import { startPrivateRedis, testConfig } from '@catalogue/testing';

/** What `fn` settles to, or 'still waiting' after `ms`. */
function within<T>(ms: number, fn: () => Promise<T>): Promise<T | 'still waiting'> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    fn().finally(() => clearTimeout(timer)),
    new Promise<'still waiting'>((resolve) => (timer = setTimeout(() => resolve('still waiting'), ms))),
  ]);
}

describe('shutdown while Redis is down (an operator stopping pods during a Redis outage)', () => {
  test('when a queued command waits for a reconnect, then closing the queues and the connections still returns', async () => {
    const redisServer = await startPrivateRedis();
    const deps = buildBaseDeps(
      testConfig({ REDIS_URL: redisServer.url, LOG_LEVEL: 'silent' }),
      'shutdown-test',
    );
    deps.redis.on('error', () => undefined);
    const queues = createQueues(deps.redis, `${testConfig().redis.queuePrefix}:shutdown`);
    await enqueue(queues, 'generate', { eshop_id: 1, job_id: 1 });
    await redisServer.stop();
    // A command that waits in the offline queue for the reconnect, as a request in flight would.
    void enqueue(queues, 'generate', { eshop_id: 1, job_id: 2 }).catch(() => undefined);

    expect(await within(5_000, () => closeQueues(queues, 500).then(() => 'closed'))).toBe('closed');
    expect(await within(5_000, () => closeBaseDeps(deps).then(() => 'closed'))).toBe('closed');
  });
});
