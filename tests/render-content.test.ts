// End to end: a catalogue import queues render-content, the generation worker composes and
// stores the content, and the v2 list serves it. Runs on a queue prefix of its own so its
// worker never takes jobs that other test files inspect.
import type { Worker } from 'bullmq';
import { makeEshop, serveServiceForTests, testConfig, eventually } from '@catalogue/testing';
import { closeWorkers } from '@catalogue/queue';
import { contentRepository } from '@catalogue/db';
import { createApp } from '../services/catalogue-api/src/app';
import { buildDeps, closeDeps } from '../services/catalogue-api/src/deps';
import {
  buildDeps as buildWorkerDeps,
  closeDeps as closeWorkerDeps,
  type Deps as WorkerDeps,
} from '../services/generation-worker/src/deps';
import { startWorkers } from '../services/generation-worker/src/handlers';
import { renderContent } from '@catalogue/content-store';
// The same inspection the content library's XSS suite uses (tags and attributes, parsed).
import { dangers, marketplaceDangers, snippetDangers } from '../libs/content/test/inspect';

const PREFIX = `${process.env.TEST_QUEUE_PREFIX}-render`;

describe('render-content: import -> worker -> v2 list', () => {
  const api = serveServiceForTests({ buildDeps, createApp, closeDeps }, { QUEUE_PREFIX: PREFIX });
  let worker: WorkerDeps;
  let workers: Worker[];

  beforeAll(() => {
    const config = testConfig({ QUEUE_PREFIX: PREFIX });
    worker = buildWorkerDeps(config);
    workers = startWorkers(worker, ['render-content']);
  });
  afterAll(async () => {
    await closeWorkers(workers);
    await closeWorkerDeps(worker);
  });

  async function shop(fixture: Parameters<typeof makeEshop>[1] = {}) {
    const created = await makeEshop(api.deps.db, {
      enableSiteLink: true,
      enableRichSnippet: true,
      ...fixture,
    });
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${api.url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${created.apiToken}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- responses are read field by field
      return { status: res.status, body: (await res.json()) as any };
    };
    return { id: created.eshop.id, call };
  }

  async function statusOf(eshopId: number, externalId: string): Promise<string> {
    const row = await api.deps
      .db('products')
      .where({ eshop_id: eshopId, external_id: externalId })
      .first('status');
    return row.status;
  }

  const product = {
    id: 'P1',
    name: { default: 'Trail shoe', cs: 'Trailová bota' },
    description: { default: '<p>Light and <strong>grippy</strong>.</p>', cs: '<p>Lehká a přilnavá.</p>' },
    images: ['https://shop.test/p1.jpg', 'https://shop.test/p1b.jpg'],
    brand_id: 'B1',
    parameters_ids: [7],
    variant: [
      { code: 'P1-42', ean: '8590000000427' },
      { code: 'P1-43', ean: '8590000000434' },
    ],
  };

  async function importProduct(s: Awaited<ReturnType<typeof shop>>) {
    const res = await s.call('POST', '/api/v2/rest/multi-import', {
      parameters: [{ id: 7, name: 'Size', values: [{ id: 1, value: '42' }] }],
      brands: [{ id: 'B1', name: { default: 'Peak' } }],
      products: [product],
    });
    expect(res.body.success).toBe(true);
  }

  test('when products are imported with the worker running, then they become ready with every output in the v2 list', async () => {
    const s = await shop();
    await importProduct(s);

    await eventually(async () => expect(await statusOf(s.id, 'P1')).toBe('ready'), 15_000);
    const res = await s.call(
      'GET',
      '/api/v2/rest/products?lang=all&include=nested,marketplace,site_link,rich_snippet,variant',
    );

    expect(res.status).toBe(200);
    const [item] = res.body.data;
    expect(item.id).toBe('P1');
    expect(item.is_loaded).toBe(true);
    for (const lang of ['default', 'cs', 'en']) {
      expect(item.content.html[lang]).toContain('ccs-widget');
      expect(item.content.marketplace[lang]).not.toMatch(/class=|style=|<script/);
      expect(item.rich_snippet.html[lang]).toContain('application/ld+json');
    }
    expect(item.content.html.cs).toContain('Trailová bota');
    expect(item.content.nested.length).toBeGreaterThan(0);
    expect(item.rich_snippet.json.default).toMatchObject({
      '@type': 'ProductGroup',
      name: 'Trail shoe',
      brand: { '@type': 'Brand', name: 'Peak' },
    });
    expect(item.variant).toEqual(product.variant);
    expect(Object.keys(item.site_link.list)).toEqual(['default', 'cs', 'en']);
  });

  test('when the eshop requires review, then rendered items wait in review and are not listed', async () => {
    const s = await shop({ reviewRequired: true });
    await importProduct(s);

    await eventually(async () => expect(await statusOf(s.id, 'P1')).toBe('review'), 15_000);
    expect((await s.call('GET', '/api/v2/rest/products')).body.data).toEqual([]);
  });

  test('when a job runs twice, then the stored content is the same', async () => {
    const s = await shop();
    await importProduct(s);
    await eventually(async () => expect(await statusOf(s.id, 'P1')).toBe('ready'), 15_000);
    const key = { eshopId: s.id, entityType: 'product' as const, externalId: 'P1' };
    const first = await contentRepository.find(api.deps.db, key);

    await renderContent(api.deps.db, { eshop_id: s.id, entity_type: 'product', external_id: 'P1' });

    expect(await contentRepository.find(api.deps.db, key)).toEqual(first);
  });

  test('when content was edited in the editor, then a later import keeps it and refreshes only the data-driven outputs', async () => {
    const s = await shop();
    await importProduct(s);
    await eventually(async () => expect(await statusOf(s.id, 'P1')).toBe('ready'), 15_000);
    const key = { eshopId: s.id, entityType: 'product' as const, externalId: 'P1' };
    const composed = (await contentRepository.find(api.deps.db, key))!;
    // What the editor does: a person's own tree, stored with origin `editor`.
    const edited = JSON.parse(JSON.stringify(composed.tree).replaceAll('Trail shoe', 'Written by a person'));
    await contentRepository.save(api.deps.db, key, { ...composed, origin: 'editor', tree: edited });

    const reimport = await s.call('POST', '/api/v2/rest/products', [
      { ...product, name: { ...product.name, default: 'Trail shoe v2' } },
    ]);
    expect(reimport.body).toMatchObject({ success: true, updated: 1 });
    expect(await statusOf(s.id, 'P1')).toBe('generate');
    await eventually(async () => expect(await statusOf(s.id, 'P1')).toBe('ready'), 15_000);

    const after = (await contentRepository.find(api.deps.db, key))!;
    expect(after.origin).toBe('editor');
    expect(after.tree).toEqual(edited);
    expect(after.html.default).toContain('Written by a person');
    expect(after.rich_snippet.json.default).toMatchObject({ name: 'Trail shoe v2' });
  });

  test('when imported fields carry XSS payloads, then no rendered output served by the list carries them', async () => {
    const s = await shop();
    const payloads = [
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(1)>',
      '<a href="javascript:alert(1)">x</a>',
      '<svg onload=alert(1)>',
      '<iframe src="javascript:alert(1)"></iframe>',
      '"><script>alert(1)</script>',
      '</script><script>alert(1)</script>',
    ];
    const items = payloads.map((payload, i) => ({
      id: `X${i}`,
      name: { default: `Name ${payload}` },
      description: { default: `<p>Text ${payload}</p>` },
      short_description: { default: payload },
      images: ['https://shop.test/x.jpg'],
    }));
    const res = await s.call('POST', '/api/v2/rest/products', items);
    expect(res.body).toMatchObject({ success: true, imported: payloads.length });

    await eventually(async () => {
      const listed = await s.call('GET', '/api/v2/rest/products?include=marketplace,site_link,rich_snippet');
      expect(listed.body.data).toHaveLength(payloads.length);
    }, 15_000);
    const listed = await s.call('GET', '/api/v2/rest/products?include=marketplace,site_link,rich_snippet');

    for (const item of listed.body.data) {
      expect(dangers(item.content.html.default)).toEqual([]);
      expect(dangers(item.site_link.html.default)).toEqual([]);
      expect(marketplaceDangers(item.content.marketplace.default)).toEqual([]);
      expect(snippetDangers(item.rich_snippet.html.default)).toEqual([]);
    }
  });

  test('when an item is deleted before its job runs, then the job changes nothing', async () => {
    const s = await shop();
    await importProduct(s);
    await api.deps.db('products').where({ eshop_id: s.id }).update({ is_delete: true });

    const outcome = await renderContent(api.deps.db, {
      eshop_id: s.id,
      entity_type: 'product',
      external_id: 'P1',
    });

    expect(outcome).toBe('skipped');
  });
});
