// The whole service on a real Redis Cluster (three masters) and on a real Sentinel set (master,
// replica, three sentinels), both private to this file: imports rendered ready through the
// catalogue API and the render worker, a generation settled by the credit service, one token's
// rate limit shared by two API instances, and, on Sentinel, the master killed with renders
// waiting in a paused queue: the sentinels promote the replica, the waiting renders and work
// submitted afterwards complete on the same processes, nothing lost and nothing charged twice
// (read from PostgreSQL).
import { Cluster, type Redis } from 'ioredis';
import { generationJobsRepository, type Knex } from '@catalogue/db';
import {
  bearerCaller,
  contractCaller,
  eventually,
  makeEshop,
  serveServiceForTests,
  startRedisCluster,
  startRedisSentinel,
  type Call,
  type PrivateRedisCluster,
  type PrivateRedisSentinel,
} from '@catalogue/testing';
import { catalogueApi } from '../services/catalogue-api/src/service';
import { checkDependencies } from '../libs/admin/src/preflight';
import { shopCallers, useFullStack } from './full-stack';

const ORIGIN = 'https://admin.topology.test';
const CREDITS = 500;
const READ_BUDGET = 4;

describe.each([
  ['Redis Cluster', 'cluster'],
  ['Redis Sentinel', 'sentinel'],
] as const)('the service on %s', (_label, topology) => {
  let redis: PrivateRedisCluster | PrivateRedisSentinel | undefined;
  const env = (): Record<string, string> => {
    if (!redis) throw new Error('the topology starts in beforeAll');
    return redis.env;
  };
  beforeAll(async () => {
    redis = topology === 'cluster' ? await startRedisCluster() : await startRedisSentinel();
  }, 60_000);
  afterAll(async () => {
    await redis?.stop();
  });

  // Inner block: its afterAll (the services closing) runs before the topology stops.
  describe('every part of the service', () => {
    // A prefix without a hash tag: on the cluster the configuration gives it one.
    const prefix = `${process.env.TEST_QUEUE_PREFIX}-${topology}`;
    const stack = useFullStack(prefix, { overrides: env });
    const { wl, catalogue } = stack;
    // Two more API instances with a small read budget, sharing the topology's counts.
    const limited = [0, 1].map(() =>
      serveServiceForTests(catalogueApi, () => ({
        ...env(),
        QUEUE_PREFIX: prefix,
        RATE_LIMIT_READ_PER_MINUTE: String(READ_BUDGET),
      })),
    );

    let db: Knex;
    let shop: Awaited<ReturnType<typeof makeEshop>>;
    let designId: number;
    let backOffice: Call;
    let host: Call<'/api/v3/white-label'>;
    beforeAll(async () => {
      db = wl.deps.db;
      shop = await makeEshop(db, { origins: [ORIGIN], languages: ['default', 'cs'], credits: CREDITS });
      ({ backOffice, host } = shopCallers({ wl: wl.url, catalogue: catalogue.url }, shop, ORIGIN));
    });

    /** Imports products (their renders are queued). */
    async function importProducts(ids: string[]): Promise<void> {
      const imported = await backOffice(
        'POST',
        '/api/v2/rest/products',
        ids.map((id) => ({ id, name: { default: `Shoe ${id}`, cs: `Bota ${id}` } })),
      );
      expect(imported.body).toMatchObject({ success: true, imported: ids.length });
    }

    /** Imports products and waits until the render worker made every one ready. */
    async function importRendered(ids: string[]): Promise<void> {
      await importProducts(ids);
      await expectRendered(ids);
    }

    async function expectRendered(ids: string[]): Promise<void> {
      await eventually(async () => {
        const rows = await db('products')
          .where({ eshop_id: shop.eshop.id })
          .whereIn('external_id', ids)
          .select('external_id', 'status');
        expect(rows.map((r) => r.status)).toEqual(ids.map(() => 'ready'));
      }, 20_000);
      const listed = await backOffice('GET', '/api/v2/rest/products?limit=100');
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((p) => p.id)).toEqual(expect.arrayContaining(ids));
    }

    /** Registers the product, generates for it and waits for the job and its settlement. */
    async function generateSettled(entityId: string): Promise<number> {
      const registered = await host('POST', '/register-entity', {
        entity_id: entityId,
        type: 'product',
        title: entityId,
      });
      expect(registered.status).toBe(201);
      const started = await host('POST', `/content/${entityId}/type/product/generate`, {
        design_id: designId,
        lang: 'cs',
        name: `Bota ${entityId}`,
        short_description: 'Lehká bota do terénu.',
        parameter: 'Hmotnost: 280 g',
        remove_exist_widget: false,
      });
      expect(started.status).toBe(200);
      const jobId: number = started.body.data.id;
      await eventually(async () => {
        expect((await host('GET', `/generate/${jobId}`)).body.data.status).toBe('done');
      }, 30_000);
      await eventually(async () => {
        const ledger = await db('credit_ledger')
          .where({ eshop_id: shop.eshop.id, job_id: jobId })
          .select('kind');
        expect(ledger.map((r) => r.kind)).toContain('charge');
      }, 20_000);
      return jobId;
    }

    /** PostgreSQL's account of the eshop: one charge per job, the balance their sum, nothing reserved. */
    async function expectChargedOnce(jobIds: number[]): Promise<void> {
      let charged = 0;
      for (const jobId of jobIds) {
        const job = (await generationJobsRepository.find(db, shop.eshop.id, jobId))!;
        expect(job.status).toBe('done');
        expect(job.chargedCost).toBeGreaterThan(0);
        charged += job.chargedCost!;
        const charges = await db('credit_ledger').where({
          eshop_id: shop.eshop.id,
          job_id: jobId,
          kind: 'charge',
        });
        expect(charges).toHaveLength(1);
      }
      const account = await db('credit_ledger')
        .where({ eshop_id: shop.eshop.id })
        .first(
          db.raw('coalesce(sum(amount), 0)::int as amount'),
          db.raw('coalesce(sum(reserved_delta), 0)::int as reserved'),
        );
      expect(account).toEqual({ amount: CREDITS - charged, reserved: 0 });
    }

    test('when the services start, then every connection is of the topology and /readyz reports Redis ok', async () => {
      for (const deps of [catalogue.deps, wl.deps, stack.worker, limited[0]!.deps]) {
        if (topology === 'cluster') expect(deps.redis).toBeInstanceOf(Cluster);
        else expect((deps.redis as Redis).options.sentinels).toHaveLength(3);
        expect(deps.rateLimitRedis.constructor).toBe(deps.redis.constructor);
      }
      if (topology === 'cluster') expect(catalogue.deps.config.redis.queuePrefix).toBe(`{${prefix}}`);
      // npm start's preflight (the admin tools) reaches it through the same factory.
      const config = catalogue.deps.config;
      expect(await checkDependencies(config.database.url, config.redis)).toEqual([]);
      const ready = await contractCaller({ baseUrl: catalogue.url })('GET', '/readyz');
      expect(ready.status).toBe(200);
      expect(JSON.stringify(ready.body)).toContain('redis');
    });

    test('when products are imported, then the render worker makes them ready and the API lists them', async () => {
      await importRendered(['T1', 'T2', 'T3']);
      const designs = await host('GET', '/design?type=product');
      designId = designs.body.data.find((d) => d.category === 'product')!.id;
    }, 40_000);

    test('when a generation runs, then it completes and its credits are settled once', async () => {
      const jobId = await generateSettled('T1');
      await expectChargedOnce([jobId]);
    }, 60_000);

    test('when one token alternates between two API instances, then they share its budget through the topology', async () => {
      // An eshop of its own: the other tests' reads count against a token's budget too.
      const { apiToken } = await makeEshop(db);
      const statuses: number[] = [];
      for (let i = 0; i < READ_BUDGET + 2; i += 1) {
        const res = await bearerCaller(limited[i % 2]!.url, apiToken)('GET', '/api/v2/rest/whoami');
        statuses.push(res.status);
      }
      // Each instance alone saw 3 requests, under the budget of 4: only a shared count refuses.
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    });

    if (topology === 'sentinel') {
      test('when the master dies, then the sentinels promote the replica and later work completes on the same processes, nothing lost or charged twice', async () => {
        const sentinel = redis as PrivateRedisSentinel;
        // Work waiting in Redis when the master dies: renders queued while the queue is paused.
        const renders = catalogue.deps.queues['render-content'];
        await renders.pause();
        await importProducts(['T6', 'T7']);
        const waiting = await renders.getJobCounts('waiting', 'prioritized');
        expect(Object.values(waiting).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);

        const before = await sentinel.masterPort();
        const promoted = await sentinel.killMaster();
        expect(promoted).not.toBe(before);

        // No restart: the same processes find the new master (through the sentinels) by themselves.
        await eventually(
          async () =>
            expect((await contractCaller({ baseUrl: catalogue.url })('GET', '/readyz')).status).toBe(200),
          30_000,
        );
        // The renders queued before the failover were replicated: they run once resumed.
        await renders.resume();
        await expectRendered(['T6', 'T7']);
        await importRendered(['T4', 'T5']);
        const jobId = await generateSettled('T4');

        // Everything of before the failover is still there, and every job was charged once.
        const earlier = await db('generation_jobs')
          .where({ eshop_id: shop.eshop.id })
          .orderBy('id')
          .pluck('id');
        expect(earlier).toHaveLength(2);
        expect(earlier[1]).toBe(jobId);
        await expectChargedOnce(earlier);
        const rows = await db('products')
          .where({ eshop_id: shop.eshop.id })
          .orderBy('external_id')
          .select('external_id', 'status');
        expect(rows).toEqual(
          ['T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'T7'].map((id) => ({ external_id: id, status: 'ready' })),
        );
      }, 120_000);
    }
  });
});
