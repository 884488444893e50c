import { Registry } from 'prom-client';
import { createLogger } from '@catalogue/logger';
import {
  addFair,
  closeQueues,
  closeWorkers,
  createQueueMetrics,
  createQueues,
  createRedis,
  createWorkers,
  fairIdsKey,
  fairKey,
  resetIdleLines,
  type JobPayloads,
  type Queues,
  type Worker,
} from '@catalogue/queue';
import { eventually, testConfig } from '@catalogue/testing';
import type { Redis } from 'ioredis';

const config = testConfig();
const prefix = `${config.redis.queuePrefix}:fair`;
let connection: Redis;
let queues: Queues;
let workers: Worker[] = [];

beforeAll(() => {
  connection = createRedis(config.redis.url, 'fair-test');
  queues = createQueues(connection, prefix);
});

afterAll(async () => {
  await closeWorkers(workers);
  await queues['render-content'].obliterate({ force: true });
  await queues['listing-enrichment'].obliterate({ force: true });
  await connection.del(fairKey(prefix, 'render-content'), fairKey(prefix, 'listing-enrichment'));
  await connection.del(fairIdsKey(prefix, 'listing-enrichment'));
  await closeQueues(queues);
  await connection.quit();
});

const job = (eshopId: number, id: string) => ({
  data: { eshop_id: eshopId, entity_type: 'product' as const, external_ids: [id] },
});

describe('render jobs shared fairly between eshops', () => {
  test("when one eshop has a long backlog and another queues one product, then that product renders after at most one of the backlog's jobs", async () => {
    const big = 1;
    const small = 2;
    // The big eshop's backlog, queued import after import before the small eshop's one product.
    for (let i = 0; i < 30; i += 1)
      await addFair(queues['render-content'], 'render-content', [job(big, `B${i}`)]);
    await addFair(queues['render-content'], 'render-content', [job(small, 'S0')]);

    const order: string[] = [];
    workers = createWorkers({
      queues: ['render-content'],
      handlers: {
        'render-content': async (j) => {
          order.push((j.data as JobPayloads['render-content']).external_ids[0]!);
        },
      },
      connection,
      prefix,
      concurrency: 1,
      logger: createLogger({ service: 'test', level: 'silent' }),
      metrics: createQueueMetrics(new Registry()),
    });
    await eventually(() => expect(order).toHaveLength(31), 20_000);

    expect(order.indexOf('S0')).toBeLessThanOrEqual(1);
    // The backlog itself keeps its order, and every place was given back.
    expect(order.filter((id) => id.startsWith('B'))).toEqual(Array.from({ length: 30 }, (_, i) => `B${i}`));
    expect(await connection.hgetall(fairKey(prefix, 'render-content'))).toEqual({});
  });
});

describe('drifted lines are forgotten once nothing waits', () => {
  const listing = (rowId: number) => ({
    data: { eshop_id: 3, batch_id: 1, row_id: rowId },
    opts: { jobId: `listing-${rowId}` },
  });

  test('when a waiting job was removed by hand, then its place stays while another job waits and is forgotten once none does', async () => {
    const queue = queues['listing-enrichment'];
    await addFair(queue, 'listing-enrichment', [listing(1), listing(2)]);
    await (await queue.getJob('listing-1'))!.remove();

    // Row 2 still waits: its line is kept (the removed job's place with it).
    expect(await resetIdleLines(queue, 'listing-enrichment')).toBe(false);
    expect(await connection.hgetall(fairKey(prefix, 'listing-enrichment'))).toEqual({ '3': '2' });

    await (await queue.getJob('listing-2'))!.remove();
    expect(await resetIdleLines(queue, 'listing-enrichment')).toBe(true);
    expect(await connection.hgetall(fairKey(prefix, 'listing-enrichment'))).toEqual({});
    expect(await connection.smembers(fairIdsKey(prefix, 'listing-enrichment'))).toEqual([]);

    // The next job of the eshop is first in its line again, and its id takes a place.
    await addFair(queue, 'listing-enrichment', [listing(1)]);
    expect((await queue.getJob('listing-1'))!.priority).toBe(1);
  });
});
