// No statement joins two tenant tables without eshop_id (docs/scaling.md, "Ready for a
// distributed PostgreSQL"): the whole service runs in this process (both APIs, every queue of the
// generation worker, the settlement consumer) through webhooks, an import with brands,
// parameters and variants, the render, the v2 list and change feed, an update and a delete, a
// listing batch, the white-label editor flow, revisions, a generation with its settlement and a
// sweep; every statement any of them sent is EXPLAINed with the values it was sent with, and
// each pair of tenant tables a plan reads must have its eshop_id tied together.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createKnex, type Knex } from '@catalogue/db';
import { eventually, makeEshop, testConfig } from '@catalogue/testing';
import { CONSUMED_QUEUES } from '../../services/generation-worker/src/handlers';
import { shopCallers, useFullStack } from '../full-stack';
import { NOT_DISTRIBUTED, distributedTables } from './distribution';
import { captureStatements, pairKey, untiedPairs, type SentStatement } from './tenant-joins';

const PREFIX = `${process.env.TEST_QUEUE_PREFIX}-tenant-joins`;
const ORIGIN = 'https://admin.joins.test';

/**
 * Joins of two tenant tables without eshop_id that are known, with why they are safe today and
 * what a distribution would need (docs/scaling.md). Keyed `a × b` (table names in order). Empty:
 * the v2 list's deferred join, the revision retention and the idle-delivery sweep name eshop_id
 * too since the tenant-scoped keys (docs/decisions/0062-tenant-scoped-keys-every-key.md).
 */
const KNOWN_UNTIED_JOINS: Readonly<Record<string, string>> = {};

/** Fails with the answer when it is not a success. */
function ok(res: { status: number; body: unknown }): void {
  if (res.status >= 300) throw new Error(`${res.status}: ${JSON.stringify(res.body)}`);
}

const text = (def: string, cs: string, en: string) => ({ default: def, cs, en });

describe('joins between tenant tables', () => {
  const capture = captureStatements();
  const stack = useFullStack(PREFIX, {
    // Webhooks go to a receiver on the loopback interface of this test.
    overrides: { WEBHOOK_ALLOW_PRIVATE: '127.0.0.1/32:*' },
    background: { queues: CONSUMED_QUEUES, relay: true, overrides: { WEBHOOK_RELAY_EVERY_MS: '100' } },
  });
  const { wl, catalogue } = stack;
  let explainDb: Knex;
  let receiver: Server;
  const received: string[] = [];

  beforeAll(async () => {
    explainDb = createKnex({ ...testConfig().database, poolMin: 0, poolMax: 1 });
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8'));
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    capture.stop();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
    await explainDb?.destroy();
  });

  test('when the service runs its main flows, then every statement joining two tenant tables ties their eshop_id together', async () => {
    const db = wl.deps.db;
    const shop = await makeEshop(db, {
      origins: [ORIGIN],
      languages: ['default', 'cs', 'en'],
      credits: 200,
      enableRichSnippet: true,
    });
    const { host, backOffice } = shopCallers({ wl: wl.url, catalogue: catalogue.url }, shop, ORIGIN);

    // A webhook endpoint (the relay and the deliveries run while the rest goes on).
    const port = (receiver.address() as AddressInfo).port;
    const hook = await backOffice('POST', '/api/v2/rest/webhooks', { url: `http://127.0.0.1:${port}/hook` });
    ok(hook);

    // Catalogue: parameters, brands and products with parameters and variants; rendered; listed.
    ok(
      await backOffice('POST', '/api/v2/rest/brands', [{ id: 'B1', name: text('Brand', 'Značka', 'Brand') }]),
    );
    const imported = await backOffice('POST', '/api/v2/rest/multi-import', {
      parameters: [
        {
          id: 1,
          name: 'Weight',
          name_translations: { cs: 'Hmotnost' },
          values: [
            { id: 11, value: '280 g' },
            { id: 12, value: '1 kg' },
          ],
        },
      ],
      products: [
        {
          id: 'P1',
          name: text('Shoe', 'Bota', 'Shoe'),
          brand_id: 'B1',
          parameters_ids: [11],
          variant: [{ code: 'P1-S' }],
        },
        {
          id: 'P2',
          name: text('Tent', 'Stan', 'Tent'),
          parameter_values: [{ parameter_id: 1, value_ids: [12] }],
        },
      ],
    });
    expect(imported.body).toMatchObject({ success: true });
    await eventually(async () => {
      const statuses = await db('products').where({ eshop_id: shop.eshop.id }).pluck<string[]>('status');
      expect(statuses).toEqual(['ready', 'ready']);
    }, 20_000);
    const listed = await backOffice(
      'GET',
      '/api/v2/rest/products?lang=all&include=nested,marketplace,variant,rich_snippet',
    );
    ok(listed);
    ok(await backOffice('GET', '/api/v2/rest/changes'));
    // A second import of a changed product (the update path) and a delete.
    ok(
      await backOffice('POST', '/api/v2/rest/products', [
        { id: 'P1', name: text('Shoe 2', 'Bota 2', 'Shoe 2') },
      ]),
    );
    ok(await backOffice('DELETE', '/api/v2/rest/products', [{ id: 'P2' }]));
    // A listing batch, enriched by the worker.
    const batch = await backOffice('POST', '/api/v2/rest/listing', [
      { code: 'L1', title: 'Garden chair', parameter: [{ label: 'Colour', value: 'green' }] },
    ]);
    ok(batch);
    await eventually(async () => {
      const pending = await db('listing_rows')
        .where({ eshop_id: shop.eshop.id })
        .whereIn('status', ['pending', 'processing']);
      expect(pending).toEqual([]);
    }, 20_000);
    ok(await backOffice('GET', `/api/v2/rest/listing/${batch.body.data.batch_id}/product`));

    // White label: register, design fill, edit, generate (builtin provider) and its settlement.
    ok(await host('POST', '/register-entity', { entity_id: 'P1', type: 'product', title: 'Shoe' }));
    const designs = await host('GET', '/design?type=product');
    const design = designs.body.data.find((d) => d.category === 'product')!;
    const structure = await host('GET', `/design/${design.id}/structure`);
    const section = structure.body.widget.find((w) => w.fillable && w.type === 'section')!;
    const filled = await host('POST', '/entity/P1/type/product/design', {
      design_id: design.id,
      widget: [
        {
          design_widget_id: section.design_widget_id,
          fields: { heading: 'Trails', paragraph: '<p>Grip.</p>' },
        },
      ],
    });
    expect(filled.status).toBe(200);
    const read = await host('GET', '/content/P1/type/product');
    expect(read.status).toBe(200);
    ok(await host('GET', '/entity'));
    ok(await host('GET', '/widget'));
    ok(await host('GET', '/widget-favourite'));
    const started = await host('POST', '/content/P1/type/product/generate', {
      design_id: design.id,
      lang: 'cs',
      name: 'Bota',
      short_description: 'Lehká bota.',
      parameter: 'Hmotnost: 280 g',
      remove_exist_widget: false,
    });
    expect(started.status).toBe(200);
    await eventually(async () => {
      const job = (await host('GET', `/generate/${started.body.data.id}`)).body.data;
      expect(job.status).toBe('done');
    }, 20_000);
    await eventually(async () => {
      const rows = await db('credit_ledger')
        .where({ eshop_id: shop.eshop.id, kind: 'charge' })
        .count<{ n: string }[]>({ n: '*' });
      expect(Number(rows[0]?.n)).toBe(1);
    }, 15_000);
    ok(await host('GET', '/credit'));
    // Revisions of the content, and a restore of the first.
    const revisions = await host('GET', '/content/P1/type/product/revisions');
    ok(revisions);
    const first = revisions.body.data.at(-1)!;
    ok(await host('POST', `/content/P1/type/product/revisions/${first.id}/restore`));
    // The webhook got the events; its deliveries are listed. A sweep of stale work.
    await eventually(() => expect(received.length).toBeGreaterThan(0), 20_000);
    ok(await backOffice('GET', `/api/v2/rest/webhooks/${hook.body.id}/deliveries`));
    await stack.worker.queues['sweep-stale-work'].add('sweep-stale-work', {});
    await eventually(async () => {
      expect(await stack.worker.queues['sweep-stale-work'].getJobCounts('waiting', 'active')).toEqual({
        waiting: 0,
        active: 0,
      });
    }, 20_000);

    // Every captured statement that names two tenant tables, explained with the values it was sent with.
    const distributed = new Set(await distributedTables(explainDb));
    const names = (s: SentStatement) =>
      new Set([...s.text.matchAll(/\b([a-z_]+)\b/g)].map((m) => m[1]!).filter((w) => distributed.has(w)));
    const candidates = capture
      .statements()
      .filter((s) => /^\s*(select|with|insert|update|delete)\b/i.test(s.text))
      .filter((s) => names(s).size >= 2 || /\bjoin\b/i.test(s.text));
    const found = new Map<string, string>();
    let explained = 0;
    for (const statement of candidates) {
      let plan;
      try {
        const { rows } = await explainDb.raw<{ rows: { 'QUERY PLAN': { Plan: never }[] }[] }>(
          `explain (verbose, format json) ${statement.text.replace(/\$\d+/g, '?')}`,
          statement.values as Knex.RawBinding[],
        );
        plan = rows[0]!['QUERY PLAN'][0]!.Plan;
      } catch {
        continue; // a statement of a transaction's own objects (none today), or one knex sends without values
      }
      explained += 1;
      for (const pair of untiedPairs(plan, distributed)) {
        if (!found.has(pairKey(pair))) found.set(pairKey(pair), statement.text.slice(0, 300));
      }
    }
    // The flows above send dozens of such statements: a capture that saw none would prove nothing.
    expect(explained).toBeGreaterThan(20);
    expect(Object.fromEntries(found)).toEqual(
      Object.fromEntries(Object.keys(KNOWN_UNTIED_JOINS).map((k) => [k, expect.any(String)])),
    );
    expect(Object.keys(NOT_DISTRIBUTED)).toContain('eshops');
  }, 120_000);

  test.each([
    {
      when: 'two tenant tables are joined on another key alone',
      sql: 'select * from products p join content c on c.external_id = p.external_id where p.eshop_id = ?',
      pairs: ['content × products'],
    },
    {
      when: 'they are joined on eshop_id too',
      sql: 'select * from products p join content c on c.eshop_id = p.eshop_id and c.external_id = p.external_id where p.eshop_id = ?',
      pairs: [],
    },
    {
      when: 'each is bound to the same eshop',
      sql: 'select * from products p, content c where p.eshop_id = ? and c.eshop_id = ? and c.external_id = p.external_id',
      pairs: [],
    },
    {
      when: 'both are tied through a third relation (a key set)',
      sql:
        'select * from unnest(array[?::integer]) k(eshop_id) join products p on p.eshop_id = k.eshop_id ' +
        'join product_variants v on v.eshop_id = k.eshop_id and v.product_id = p.id',
      pairs: [],
    },
  ])('when $when, then the check finds $pairs', async ({ sql, pairs }) => {
    const distributed = new Set(await distributedTables(explainDb));
    const bindings = sql.split('?').length - 1;
    const { rows } = await explainDb.raw<{ rows: { 'QUERY PLAN': { Plan: never }[] }[] }>(
      `explain (verbose, format json) ${sql}`,
      Array(bindings).fill(1),
    );
    expect(untiedPairs(rows[0]!['QUERY PLAN'][0]!.Plan, distributed).map(pairKey)).toEqual(pairs);
  });
});
