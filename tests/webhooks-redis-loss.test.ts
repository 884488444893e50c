// Webhook deliveries survive a Redis that comes back empty: PostgreSQL records every relayed event
// as pending until its delivery succeeded or finally failed, and the relay queues again what
// Redis forgot. A private Redis (FLUSHALL never touches the shared one) and a database of its own
// (the relay reads every endpoint of its database); the receivers are local servers.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Redis from 'ioredis';
import { eventsRepository, migrateLatest, webhooksRepository } from '@catalogue/db';
import {
  eventually,
  freshSiblingDatabase,
  makeEshop,
  startPrivateRedis,
  testConfig,
  type DisposableRedis,
  type SiblingDatabase,
  webhooksSettled,
} from '@catalogue/testing';
import { relayEvents } from '../services/generation-worker/src/services/webhook-relay.service';
import { startBackground } from './full-stack';

let database: SiblingDatabase;
let redis: DisposableRedis;

beforeAll(async () => {
  [database, redis] = await Promise.all([freshSiblingDatabase('webhooks_redis_loss'), startPrivateRedis()]);
  await migrateLatest(database.db);
}, 60_000);
afterAll(async () => {
  await redis.stop();
  await database.drop();
});

/** A receiver on 127.0.0.1 that answers 503 while closed and 200 once opened; logs each request. */
async function receiver(open: boolean) {
  const state = { open };
  const requests: { seq: number; status: number }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      const status = state.open ? 200 : 503;
      requests.push({ seq: Number(id.split('_').at(-1)), status });
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    requests,
    state,
    delivered: () => requests.filter((r) => r.status === 200).map((r) => r.seq),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The relay and delivery workers, on the private Redis; one delivery at a time, so in order. */
function startWorker(
  kinds: ('webhook-relay' | 'webhook-delivery')[] = ['webhook-relay', 'webhook-delivery'],
) {
  const config = testConfig({
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    WEBHOOK_ALLOW_PRIVATE: '127.0.0.1/32:*',
    WEBHOOK_RELAY_EVERY_MS: '100',
    WEBHOOK_TIMEOUT_MS: '500',
    WEBHOOK_ATTEMPTS: '20',
    WEBHOOK_BACKOFF_MS: '200',
    WEBHOOK_CONCURRENCY: '1',
  });
  const background = startBackground(config, {
    queues: kinds,
    settlement: false,
    relay: kinds.includes('webhook-relay'),
  });
  return { deps: background.worker, stop: () => background.close() };
}

async function appendEvents(eshopId: number, count: number): Promise<void> {
  await database.db.transaction((trx) =>
    eventsRepository.append(
      trx,
      eshopId,
      Array.from({ length: count }, (_, n) => ({
        type: 'item.created' as const,
        entityType: 'product' as const,
        externalId: `P${n}`,
      })),
    ),
  );
}

test('when Redis is wiped with deliveries pending and retrying, then every event arrives exactly once per endpoint, in order, and the lag drops to 0', async () => {
  const { eshop } = await makeEshop(database.db);
  const failing = await receiver(false);
  const healthy = await receiver(true);
  const endpoints = [];
  for (const hook of [failing, healthy]) {
    endpoints.push(
      await webhooksRepository.create(database.db, {
        eshopId: eshop.id,
        url: hook.url,
        eventTypes: ['item.created'],
        secret: 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=',
      }),
    );
  }
  let worker = startWorker();
  try {
    // Events 1-4: the healthy endpoint gets them; the failing one's deliveries are retrying.
    await appendEvents(eshop.id, 4);
    await eventually(() => {
      expect(healthy.delivered()).toEqual([1, 2, 3, 4]);
      expect(new Set(failing.requests.map((r) => r.seq))).toEqual(new Set([1, 2, 3, 4]));
    }, 15_000);
    await worker.stop();

    // Events 5-8 relayed (committed as pending, queued) with no delivery worker running.
    await appendEvents(eshop.id, 4);
    const relayOnly = startWorker([]);
    await relayEvents(relayOnly.deps);
    await relayOnly.stop();
    const pendingBefore = await database.db('webhook_pending_deliveries').where({ eshop_id: eshop.id });
    expect(pendingBefore).toHaveLength(4 + 4 + 4);
    // The lag counts the healthy endpoint's undelivered 5-8; the failing receiver's 1-8 are the
    // eshop's to fix (failing_since) and page nobody.
    expect((await webhooksRepository.lag(database.db)).events).toBe(4);

    const admin = new Redis(redis.url);
    try {
      expect(await admin.dbsize()).toBeGreaterThan(0);
      await admin.flushall();
    } finally {
      admin.disconnect();
    }
    failing.state.open = true;

    worker = startWorker();
    await eventually(() => {
      expect(failing.delivered()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(healthy.delivered()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    }, 20_000);
    // More relay runs, and a run by hand, send nothing twice.
    await relayEvents(worker.deps);
    await webhooksSettled(database.db, eshop.id, worker.deps.queues['webhook-delivery']);
    expect(failing.delivered()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(healthy.delivered()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await database.db('webhook_pending_deliveries').where({ eshop_id: eshop.id })).toEqual([]);
    expect(await webhooksRepository.lag(database.db)).toEqual({ events: 0, seconds: 0 });
  } finally {
    await worker.stop();
    await failing.close();
    await healthy.close();
  }
}, 60_000);

test('when a delivered event is queued again under its id (BullMQ accepts an id whose job is gone), then it is not sent twice', async () => {
  const { eshop } = await makeEshop(database.db);
  const hook = await receiver(true);
  const endpoint = await webhooksRepository.create(database.db, {
    eshopId: eshop.id,
    url: hook.url,
    eventTypes: ['item.created'],
    secret: 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=',
  });
  const worker = startWorker();
  try {
    await appendEvents(eshop.id, 2);
    await eventually(() => expect(hook.delivered()).toEqual([1, 2]), 15_000);
    const queue = worker.deps.queues['webhook-delivery'];
    const id = `webhook-${endpoint.id}-1`;
    await eventually(async () => expect(await queue.getJobState(id)).toBe('completed'), 5_000);
    // The completed job removed (as removeOnComplete does after a day, or a wipe): the same id
    // makes a new job.
    await queue.remove(id);
    const again = await queue.add(
      'webhook-delivery',
      { eshop_id: eshop.id, endpoint_id: endpoint.id, seq: 1 },
      { jobId: id },
    );
    expect(again.id).toBe(id);
    await eventually(async () => expect(await queue.getJobState(id)).toBe('completed'), 5_000);
    expect((await queue.getJob(id))?.returnvalue).toBe('skipped'); // it completed without a request
    expect(hook.delivered()).toEqual([1, 2]);
  } finally {
    await worker.stop();
    await hook.close();
  }
}, 30_000);
