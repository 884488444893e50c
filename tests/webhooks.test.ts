// Webhooks end to end: the catalogue API registers endpoints and writes events, the generation
// worker's relay and delivery send them to a receiver started here, which verifies EVERY
// signature with the standardwebhooks package. A database of its own (the relay reads every
// endpoint of its database) and a queue prefix per worker (each test starts the worker it needs,
// with a short schedule).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import {
  catalogueRepository,
  databaseName,
  dropDatabase,
  eventsRepository,
  webhooksRepository,
  withDatabase,
} from '@catalogue/db';
import { closeQueues, createQueues } from '@catalogue/queue';
import {
  bearerCaller,
  contractCaller,
  eventually,
  freePort,
  makeEshop,
  runNodeScript,
  serveServiceForTests,
  testConfig,
  webhooksSettled,
} from '@catalogue/testing';
import { catalogueApi } from '../services/catalogue-api/src/service';
import { relayEvents } from '../services/generation-worker/src/services/webhook-relay.service';
import { startBackground } from './full-stack';

const ROOT = join(__dirname, '..');
const DATABASE_URL = withDatabase(
  process.env.TEST_DATABASE_URL!,
  `${databaseName(process.env.TEST_DATABASE_URL!)}_webhooks`,
);
const ALLOW = { WEBHOOK_ALLOW_PRIVATE: '127.0.0.1/32:*' };
let prefixes = 0;
const nextPrefix = () => `${process.env.TEST_QUEUE_PREFIX}-webhooks-${++prefixes}`;

beforeAll(async () => {
  expect(await runNodeScript('libs/content-store/dist/cli/migrate.js', [], { DATABASE_URL })).toMatchObject({
    code: 0,
  });
}, 60_000);
afterAll(() => dropDatabase(DATABASE_URL));

// Its own queue prefix too: its eshops' ids repeat other files' (another database), and their
// render jobs must not land in the queue those files inspect.
const api = serveServiceForTests(catalogueApi, {
  DATABASE_URL,
  QUEUE_PREFIX: `${process.env.TEST_QUEUE_PREFIX}-webhooks-api`,
  ...ALLOW,
});

// Each test's endpoints go with it: the next test's relay must not send to a closed receiver.
afterEach(async () => {
  await api.deps.db('webhook_endpoints').delete();
});

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the CloudEvent, read field by field
  event: any;
  verified: boolean;
  at: number;
}

/** A webhook receiver on 127.0.0.1: verifies every signature, answers what `answer` says. */
async function receiver(answer: (n: number) => number = () => 200) {
  const received: Received[] = [];
  let secret = '';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified: boolean;
      try {
        new Webhook(secret).verify(body, req.headers as Record<string, string>);
        verified = true;
      } catch {
        verified = false;
      }
      received.push({ headers: req.headers, body, event: JSON.parse(body), verified, at: Date.now() });
      res.statusCode = answer(received.length);
      res.end(res.statusCode < 300 ? 'ok' : 'try again later '.repeat(40));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    setSecret: (s: string) => (secret = s),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The generation worker's relay and delivery, in this process, on a queue prefix of its own. */
function startWorker(overrides: Record<string, string> = {}) {
  const config = testConfig({
    DATABASE_URL,
    QUEUE_PREFIX: nextPrefix(),
    WEBHOOK_RELAY_EVERY_MS: '100',
    WEBHOOK_ATTEMPTS: '3',
    WEBHOOK_BACKOFF_MS: '200',
    ...ALLOW,
    ...overrides,
  });
  const background = startBackground(config, {
    queues: ['webhook-relay', 'webhook-delivery'],
    settlement: false,
    relay: true,
  });
  return { deps: background.worker, stop: () => background.close() };
}

async function shop() {
  const created = await makeEshop(api.deps.db);
  const call = bearerCaller(api.url, created.apiToken);
  const register = async (hook: Awaited<ReturnType<typeof receiver>>, eventTypes?: string[]) => {
    const res = await call('POST', '/api/v2/rest/webhooks', {
      url: hook.url,
      ...(eventTypes && { event_types: eventTypes }),
    });
    expect(res.status).toBe(201);
    hook.setSecret(res.body.secret);
    return res.body;
  };
  const products = (...ids: string[]) =>
    call(
      'POST',
      '/api/v2/rest/products',
      ids.map((id) => ({ id, name: { default: `Lamp ${id}` } })),
    );
  return { id: created.eshop.id, call, register, products };
}

test('when items are imported and deleted, then each event arrives once, signed, as a CloudEvent, and only the types an endpoint asked for', async () => {
  const s = await shop();
  const all = await receiver();
  const deletions = await receiver();
  const hook = await s.register(all);
  await s.register(deletions, ['item.deleted']);
  const worker = startWorker();
  try {
    await s.products('P1', 'P2');
    await s.call('DELETE', '/api/v2/rest/products', ['P2']);

    await eventually(() => expect(all.received).toHaveLength(3), 10_000);
    await eventually(() => expect(deletions.received).toHaveLength(1), 10_000);
    await webhooksSettled(api.deps.db, s.id, worker.deps.queues['webhook-delivery']);

    expect([...all.received, ...deletions.received].every((r) => r.verified)).toBe(true);
    const bySeq = [...all.received].sort((a, b) => a.event.data.id - b.event.data.id);
    expect(bySeq.map((r) => [r.event.type, r.event.subject])).toEqual([
      ['item.created', 'product/P1'],
      ['item.created', 'product/P2'],
      ['item.deleted', 'product/P2'],
    ]);
    expect(bySeq[0]!.event).toEqual({
      specversion: '1.0',
      id: `evt_${s.id}_1`,
      source: `/eshops/${s.id}`,
      type: 'item.created',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      subject: 'product/P1',
      datacontenttype: 'application/json',
      data: {
        id: 1,
        type: 'item.created',
        entity_type: 'product',
        external_id: 'P1',
        occurred_at: bySeq[0]!.event.time,
        data: {},
      },
    });
    expect(bySeq[0]!.headers['webhook-id']).toBe(`evt_${s.id}_1`);
    expect(bySeq[0]!.headers['content-type']).toBe('application/cloudevents+json; charset=utf-8');
    expect(bySeq[0]!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(deletions.received[0]!.event.type).toBe('item.deleted');
    expect(deletions.received[0]!.headers['webhook-id']).toBe(`evt_${s.id}_3`);

    // The log and the cursor say the same; the feed's events are all relayed.
    const log = await s.call('GET', `/api/v2/rest/webhooks/${hook.id}/deliveries`);
    expect(log.body.data.map((d) => [d.seq, d.status_code]).sort()).toEqual([
      [1, 200],
      [2, 200],
      [3, 200],
    ]);
    const listed = await s.call('GET', '/api/v2/rest/webhooks');
    expect(listed.body.data.map((w) => w.last_seq)).toEqual([3, 3]);
    const metrics = await worker.deps.registry.metrics();
    expect(metrics).toMatch(/webhook_deliveries_total\{outcome="delivered"\} 4/);
    expect(metrics).toMatch(/webhook_events_relayed_total 4/);
    expect(metrics).toMatch(/webhook_outbox_lag_events 0/);
    expect(metrics).toContain('webhook_delivery_duration_seconds_bucket');
  } finally {
    await worker.stop();
    await Promise.all([all.close(), deletions.close()]);
  }
}, 30_000);

test('when a change is rolled back, then nothing is sent for it and the next committed change takes its number', async () => {
  const s = await shop();
  const hook = await receiver();
  await s.register(hook);
  const worker = startWorker();
  try {
    await api.deps.db
      .transaction(async (trx) => {
        await catalogueRepository.upsert(trx, 'product', s.id, [
          {
            externalId: 'GHOST',
            isVisible: true,
            status: 'generate',
            fields: { name: { default: 'Ghost' } },
          },
        ]);
        await eventsRepository.append(trx, s.id, [
          { type: 'item.created', entityType: 'product', externalId: 'GHOST' },
        ]);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await webhooksSettled(api.deps.db, s.id, worker.deps.queues['webhook-delivery']);
    expect(hook.received).toEqual([]);

    await s.products('REAL');

    // Had the rolled-back event taken number 1, it would have been relayed before REAL's.
    await eventually(() => expect(hook.received).toHaveLength(1), 10_000);
    await webhooksSettled(api.deps.db, s.id, worker.deps.queues['webhook-delivery']);
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]!.verified).toBe(true);
    expect(hook.received[0]!.event.subject).toBe('product/REAL');
    expect(hook.received[0]!.event.data.id).toBe(1);
  } finally {
    await worker.stop();
    await hook.close();
  }
}, 30_000);

test('when the relay dies after queueing and before moving its cursor, then running it again queues nothing twice and each event is delivered once', async () => {
  const s = await shop();
  const hook = await receiver();
  const endpoint = await s.register(hook);
  await s.products('A', 'B', 'C');
  // No worker yet: committed events wait in the outbox.
  const worker = startWorker({ WEBHOOK_RELAY_EVERY_MS: '60000' });
  const relayDeps = worker.deps;
  try {
    // This run or the worker's first scheduled one queues the three and moves the cursor (the run
    // that moves it is the one that counts them).
    await relayEvents(relayDeps);
    await eventually(async () => {
      const listed = await s.call('GET', '/api/v2/rest/webhooks');
      expect(listed.body.data[0]!.last_seq).toBe(3);
    }, 5_000);
    // As if the cursor update was lost: the relay starts over from 0.
    await api.deps.db('webhook_endpoints').where({ id: endpoint.id }).update({ last_seq: 0 });
    await relayEvents(relayDeps);

    const jobs = await relayDeps.queues['webhook-delivery'].getJobs([
      'waiting',
      'active',
      'completed',
      'delayed',
    ]);
    expect(jobs.map((j) => j.id).sort()).toEqual(
      [1, 2, 3].map((seq) => `webhook-${endpoint.id}-${seq}`).sort(),
    );
    await eventually(() => expect(hook.received).toHaveLength(3), 10_000);
    // The re-inserted pending rows of delivered events stay until a later relay run finds their
    // jobs done; what could still send is the queue, so wait for it to drain.
    const deliveries = relayDeps.queues['webhook-delivery'];
    await eventually(
      async () =>
        expect(await deliveries.getJobCounts('waiting', 'active', 'delayed')).toEqual({
          waiting: 0,
          active: 0,
          delayed: 0,
        }),
      10_000,
    );
    expect(hook.received).toHaveLength(3);
    expect(hook.received.map((r) => r.headers['webhook-id']).sort()).toEqual(
      [1, 2, 3].map((seq) => `evt_${s.id}_${seq}`).sort(),
    );
  } finally {
    await worker.stop();
    await hook.close();
  }
}, 30_000);

test('when the receiver answers 500 then 200, then it gets exactly the retries of the schedule, with the same webhook-id', async () => {
  const s = await shop();
  const hook = await receiver((n) => (n <= 2 ? 500 : 200));
  const endpoint = await s.register(hook);
  const worker = startWorker({ WEBHOOK_ATTEMPTS: '4', WEBHOOK_BACKOFF_MS: '300' });
  try {
    await s.products('R1');

    await eventually(() => expect(hook.received).toHaveLength(3), 10_000);
    await webhooksSettled(api.deps.db, s.id, worker.deps.queues['webhook-delivery']);

    // 500, 500, 200: the third attempt succeeds and the fourth never comes.
    expect(hook.received).toHaveLength(3);
    expect(hook.received.every((r) => r.verified)).toBe(true);
    expect(new Set(hook.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([`evt_${s.id}_1`]));
    // Backoff 300 ms doubling: retries after >= 300 ms and >= 600 ms.
    const [first, second, third] = hook.received.map((r) => r.at) as [number, number, number];
    expect(second - first).toBeGreaterThanOrEqual(280);
    expect(third - second).toBeGreaterThanOrEqual(580);
    const log = await s.call('GET', `/api/v2/rest/webhooks/${endpoint.id}/deliveries`);
    expect(log.body.data.map((d) => [d.attempt, d.status_code])).toEqual([
      [3, 200],
      [2, 500],
      [1, 500],
    ]);
    // The receiver is private (loopback, allowed for tests): nothing of its answer is kept.
    expect(log.body.data[1]!.response_excerpt).toBeNull();
    expect((await s.call('GET', '/api/v2/rest/webhooks')).body.data[0]!.failing_since).toBeNull();
  } finally {
    await worker.stop();
    await hook.close();
  }
}, 30_000);

test('when the receiver always fails, then it gets exactly WEBHOOK_ATTEMPTS attempts and no more', async () => {
  const s = await shop();
  const hook = await receiver(() => 503);
  await s.register(hook);
  const worker = startWorker({ WEBHOOK_ATTEMPTS: '3', WEBHOOK_BACKOFF_MS: '100' });
  try {
    await s.products('F1');
    await eventually(() => expect(hook.received).toHaveLength(3), 10_000);
    await webhooksSettled(api.deps.db, s.id, worker.deps.queues['webhook-delivery']);
    expect(hook.received).toHaveLength(3);
    expect(hook.received.every((r) => r.verified)).toBe(true);
  } finally {
    await worker.stop();
    await hook.close();
  }
}, 30_000);

test('when the worker allows only another loopback port, then delivery to this one is refused and nothing is sent', async () => {
  const s = await shop();
  const hook = await receiver();
  // Registered while the API allowed it; the worker's allowance names another port only.
  const endpoint = await s.register(hook);
  const port = Number(new URL(hook.url).port);
  const worker = startWorker({
    WEBHOOK_ALLOW_PRIVATE: `127.0.0.1/32:${port === 65535 ? port - 1 : port + 1}`,
  });
  try {
    await s.products('X1');
    await eventually(async () => {
      const log = await s.call('GET', `/api/v2/rest/webhooks/${endpoint.id}/deliveries`);
      expect(log.body.data[0]).toMatchObject({
        status_code: null,
        error: `refused: loopback address 127.0.0.1 port ${port} refused`,
        response_excerpt: null,
      });
    }, 10_000);
    expect(hook.received).toHaveLength(0);
  } finally {
    await worker.stop();
    await hook.close();
  }
}, 30_000);

test('when the receiver is private and allowed on its port, then it gets the event and nothing of its answer is stored or returned', async () => {
  const s = await shop();
  const hook = await receiver((n) => (n === 1 ? 500 : 200));
  const endpoint = await s.register(hook);
  const worker = startWorker({
    WEBHOOK_ALLOW_PRIVATE: `127.0.0.1/32:${new URL(hook.url).port}`,
    WEBHOOK_BACKOFF_MS: '100',
  });
  try {
    await s.products('X2');
    await eventually(() => expect(hook.received).toHaveLength(2), 10_000);
    // The receiver has answered before the worker records the delivery.
    await webhooksSettled(api.deps.db, s.id, worker.deps.queues['webhook-delivery']);
    const log = await s.call('GET', `/api/v2/rest/webhooks/${endpoint.id}/deliveries`);
    expect(log.body.data.map((d) => d.status_code)).toEqual([200, 500]);
    expect(JSON.stringify(log.body)).not.toContain('try again later');
    const stored = await api.deps
      .db('webhook_deliveries')
      .where({ endpoint_id: endpoint.id })
      .select('response_excerpt');
    expect(stored).toEqual([{ response_excerpt: null }, { response_excerpt: null }]);
  } finally {
    await worker.stop();
    await hook.close();
  }
}, 30_000);

test('when deliveries fail for the whole failure window, then the endpoint is disabled, gets nothing, and gets what was committed meanwhile once enabled', async () => {
  const s = await shop();
  let failing = true;
  const hook = await receiver(() => (failing ? 500 : 200));
  const endpoint = await s.register(hook);
  // Attempts at 0, 0.2, 0.6, 1.4 s: the window of 0.5 s is over by the third.
  const worker = startWorker({
    WEBHOOK_ATTEMPTS: '6',
    WEBHOOK_BACKOFF_MS: '200',
    WEBHOOK_DISABLE_AFTER_MS: '500',
  });
  try {
    await s.products('D1');
    await eventually(async () => {
      const listed = await s.call('GET', '/api/v2/rest/webhooks');
      expect(listed.body.data[0]!.disabled_at).not.toBeNull();
    }, 10_000);
    const listed = await s.call('GET', '/api/v2/rest/webhooks');
    expect(listed.body.data[0]!.disabled_reason).toMatch(
      /^Deliveries failed without a success for 0\.5 s \(last: HTTP 500\)\.$/,
    );
    const attemptsBefore = hook.received.length;
    expect(attemptsBefore).toBeGreaterThanOrEqual(3);

    // Disabled: a new event is not sent, and redelivery is refused.
    await s.products('D2');
    await relayEvents(worker.deps); // a relay run after D2 committed: it queues nothing for a disabled endpoint
    await webhooksSettled(api.deps.db, s.id, worker.deps.queues['webhook-delivery']);
    expect(hook.received).toHaveLength(attemptsBefore);
    const refused = await s.call('POST', `/api/v2/rest/webhooks/${endpoint.id}/redeliver`, {
      from_seq: 1,
      to_seq: 1,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('webhook_disabled');

    // Enabled again: what was committed while disabled arrives; the failed event is redelivered on request.
    failing = false;
    const enabled = await s.call('POST', `/api/v2/rest/webhooks/${endpoint.id}/enable`);
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ disabled_at: null, disabled_reason: null, failing_since: null });
    await eventually(
      () => expect(hook.received.some((r) => r.event.subject === 'product/D2')).toBe(true),
      10_000,
    );
    const again = await s.call('POST', `/api/v2/rest/webhooks/${endpoint.id}/redeliver`, {
      from_seq: 1,
      to_seq: 1,
    });
    expect(again.status).toBe(202);
    await eventually(
      () =>
        expect(
          hook.received.filter((r) => r.headers['webhook-id'] === `evt_${s.id}_1` && r.verified),
        ).toHaveLength(attemptsBefore + 1),
      10_000,
    );
    expect(hook.received.every((r) => r.verified)).toBe(true);
    expect(await worker.deps.registry.metrics()).toMatch(/webhook_endpoints_disabled_total 1/);
  } finally {
    await worker.stop();
    await hook.close();
  }
}, 30_000);

test('when a range is redelivered, then those events come again with their webhook-ids, through the CLI too', async () => {
  const s = await shop();
  const hook = await receiver();
  const endpoint = await s.register(hook);
  const worker = startWorker();
  try {
    await s.products('X1', 'X2', 'X3');
    await eventually(() => expect(hook.received).toHaveLength(3), 10_000);

    const res = await s.call('POST', `/api/v2/rest/webhooks/${endpoint.id}/redeliver`, {
      from_seq: 2,
      to_seq: 3,
    });
    expect(res.status).toBe(202);
    await eventually(() => expect(hook.received).toHaveLength(5), 10_000);
    const cli = await runNodeScript(
      'libs/admin/dist/cli.js',
      ['webhook', 'redeliver', String(s.id), String(endpoint.id), '1'],
      {
        DATABASE_URL,
      },
    );
    expect(cli.code).toBe(0);
    await eventually(() => expect(hook.received).toHaveLength(6), 10_000);

    expect(hook.received.every((r) => r.verified)).toBe(true);
    expect(hook.received.slice(3).map((r) => r.headers['webhook-id'])).toEqual(
      expect.arrayContaining([`evt_${s.id}_2`, `evt_${s.id}_3`, `evt_${s.id}_1`]),
    );
    expect(await api.deps.db('webhook_redeliveries').where({ eshop_id: s.id })).toEqual([]);
  } finally {
    await worker.stop();
    await hook.close();
  }
}, 30_000);

test('when an endpoint has more than 1,000 attempts, then its log keeps the newest 1,000', async () => {
  const s = await shop();
  const endpoint = await webhooksRepository.create(api.deps.db, {
    eshopId: s.id,
    url: 'http://127.0.0.1:9/',
    eventTypes: ['item.created'],
    secret: 'whsec_dGVzdA==',
  });
  await s.products('L1');
  for (let attempt = 1; attempt <= 1_003; attempt++) {
    await webhooksRepository.recordAttempt(api.deps.db, {
      eshopId: s.id,
      endpointId: endpoint.id,
      seq: 1,
      attempt,
      statusCode: 500,
      error: null,
      latencyMs: 1,
      responseExcerpt: null,
    });
  }
  const log = await s.call('GET', `/api/v2/rest/webhooks/${endpoint.id}/deliveries?limit=1000`);
  expect(log.body.data).toHaveLength(1_000);
  expect(log.body.data[0]!.attempt).toBe(1_003);
  expect(log.body.data.at(-1)!.attempt).toBe(4);
  const [{ count }] = (await api.deps
    .db('webhook_deliveries')
    .where({ endpoint_id: endpoint.id })
    .count()) as [{ count: number }];
  expect(Number(count)).toBe(1_000);
}, 60_000);

describe('the worker process killed between commit and delivery', () => {
  let child: ChildProcess | undefined;
  const prefix = nextPrefix();

  async function startProcess(): Promise<ChildProcess> {
    const port = await freePort();
    const started = spawn(
      process.execPath,
      [join(ROOT, 'services', 'generation-worker', 'dist', 'main.js')],
      {
        env: {
          PATH: process.env.PATH,
          DATABASE_URL,
          QUEUE_PREFIX: prefix,
          GENERATION_WORKER_PORT: String(port),
          LOG_LEVEL: 'silent',
          WEBHOOK_ALLOW_PRIVATE: '127.0.0.1/32:*',
          WEBHOOK_RELAY_EVERY_MS: '100',
          WEBHOOK_ATTEMPTS: '4',
          WEBHOOK_BACKOFF_MS: '1500',
        },
        stdio: 'ignore',
      },
    );
    const worker = contractCaller({ baseUrl: `http://127.0.0.1:${port}` });
    await eventually(async () => expect((await worker('GET', '/readyz')).status).toBe(200), 15_000);
    return started;
  }

  function kill(process: ChildProcess): Promise<void> {
    return new Promise((resolve) => {
      process.once('exit', () => resolve());
      process.kill('SIGKILL');
    });
  }

  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  test('when the worker is killed, then events committed before and while it was down are delivered after the restart with the same webhook-id', async () => {
    const s = await shop();
    const hook = await receiver((n) => (n === 1 ? 500 : 200));
    // Creations only: the worker process also renders K1 and K2, and their `item.content_ready`
    // events would race the retry for the receiver's third request.
    await s.register(hook, ['item.created']);
    await s.products('K1');
    try {
      child = await startProcess();
      // The first attempt fails; its retry waits 1.5 s in Redis while the worker dies. (A worker
      // killed in the middle of an attempt leaves it active until its 60 s lock expires; then
      // another worker takes it over: the queues' stalled-job rule, tested in libs/queue.)
      await eventually(() => expect(hook.received).toHaveLength(1), 15_000);
      const queues = createQueues(api.deps.redis, prefix);
      try {
        await eventually(async () => {
          const delayed = await queues['webhook-delivery'].getJobs(['delayed']);
          expect(delayed.map((j) => j.id)).toHaveLength(1);
        }, 5_000);
      } finally {
        await closeQueues(queues);
      }
      await kill(child);
      await s.products('K2'); // committed while no worker runs
      expect(hook.received).toHaveLength(1);
      // Its number: K1's render (an event this endpoint does not take) may have come before.
      const created = (await eventsRepository.listAfter(api.deps.db, s.id, 0, 100)).filter(
        (e) => e.type === 'item.created',
      );
      expect(created.map((e) => e.externalId)).toEqual(['K1', 'K2']);

      child = await startProcess();

      await eventually(() => expect(hook.received).toHaveLength(3), 15_000);
      expect(hook.received.every((r) => r.verified)).toBe(true);
      expect(
        hook.received
          .slice(1)
          .map((r) => r.headers['webhook-id'])
          .sort(),
      ).toEqual(created.map((e) => `evt_${s.id}_${e.seq}`));
    } finally {
      if (child && child.exitCode === null) await kill(child);
      await hook.close();
    }
  }, 60_000);
});

test('when a secret is rotated, then deliveries verify with the old and the new secret during the window and only with the new one after it, through the CLI too', async () => {
  const s = await shop();
  const hook = await receiver();
  const endpoint = await s.register(hook);
  const verifies = (secret: string, r: Received) => {
    try {
      new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
      return true;
    } catch {
      return false;
    }
  };
  const worker = startWorker();
  try {
    const oldSecret = endpoint.secret;
    const rotated = await s.call('POST', `/api/v2/rest/webhooks/${endpoint.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const newSecret: string = rotated.body.secret;
    expect(newSecret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(newSecret).not.toBe(oldSecret);
    const expires = Date.parse(rotated.body.previous_secret_expires_at);
    expect(Math.abs(expires - Date.now() - 24 * 3600_000)).toBeLessThan(60_000);
    expect(rotated.body).toMatchObject({ id: endpoint.id, url: hook.url });
    const [row] = await api.deps.db('webhook_endpoints').where({ id: endpoint.id });
    expect(row).toMatchObject({ secret: newSecret, previous_secret: oldSecret });

    // In the window: a receiver still on the old secret and one already on the new both accept.
    await s.products('R1');
    await eventually(() => expect(hook.received).toHaveLength(1), 10_000);
    const during = hook.received[0]!;
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifies(oldSecret, during)).toBe(true);
    expect(verifies(newSecret, during)).toBe(true);

    // After the window: only the new secret signs.
    await api.deps.db.raw(
      `update webhook_endpoints set previous_secret_expires_at = now() - interval '1 second' where id = ?`,
      [endpoint.id],
    );
    await s.products('R2');
    await eventually(() => expect(hook.received).toHaveLength(2), 10_000);
    const after = hook.received[1]!;
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifies(newSecret, after)).toBe(true);
    expect(verifies(oldSecret, after)).toBe(false);

    const cli = await runNodeScript(
      'libs/admin/dist/cli.js',
      ['webhook', 'rotate-secret', String(s.id), String(endpoint.id)],
      { DATABASE_URL },
    );
    expect(cli.code).toBe(0);
    const printed = JSON.parse(cli.stdout);
    expect(printed.secret).toMatch(/^whsec_/);
    const [again] = await api.deps.db('webhook_endpoints').where({ id: endpoint.id });
    expect(again).toMatchObject({ secret: printed.secret, previous_secret: newSecret });
    const unknown = await runNodeScript(
      'libs/admin/dist/cli.js',
      ['webhook', 'rotate-secret', String(s.id), '999999999'],
      { DATABASE_URL },
    );
    expect(unknown.code).not.toBe(0);
  } finally {
    await worker.stop();
    await hook.close();
  }
}, 30_000);
