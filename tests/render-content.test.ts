// End to end: a catalogue import queues render-content, the generation worker composes and
// stores the content, and the v2 list serves it. Runs on a queue prefix of its own so its
// worker never takes jobs that other test files inspect.
import { bearerCaller, eventually, makeEshop } from '@catalogue/testing';
import { CONTENT_WRITE_ROWS, contentRepository } from '@catalogue/db';
import { renderContent, renderContents } from '@catalogue/content-store';
// The same inspection the content library's XSS suite uses (tags and attributes, parsed).
import { dangers, marketplaceDangers, snippetDangers } from '../libs/content/test/inspect';
import { useFullStack } from './full-stack';

const PREFIX = `${process.env.TEST_QUEUE_PREFIX}-render`;

describe('render-content: import -> worker -> v2 list', () => {
  const { catalogue: api } = useFullStack(PREFIX, {
    serve: ['catalogue'],
    background: { queues: ['render-content'], settlement: false },
  });

  async function shop(fixture: Parameters<typeof makeEshop>[1] = {}) {
    const created = await makeEshop(api.deps.db, {
      enableSiteLink: true,
      enableRichSnippet: true,
      ...fixture,
    });
    const call = bearerCaller(api.url, created.apiToken);
    return { id: created.eshop.id, call };
  }

  async function statusOf(eshopId: number, externalId: string): Promise<string> {
    const row = await api.deps
      .db('products')
      .where({ eshop_id: eshopId, external_id: externalId })
      .first('status');
    return row!.status;
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
    const item = res.body.data[0]!;
    expect(item.id).toBe('P1');
    expect(item.is_loaded).toBe(true);
    for (const lang of ['default', 'cs', 'en']) {
      expect(item.content.html[lang]).toContain('ccs-widget');
      expect(item.content.marketplace?.[lang]).not.toMatch(/class=|style=|<script/);
      expect(item.rich_snippet?.html[lang]).toContain('application/ld+json');
    }
    expect(item.content.html.cs).toContain('Trailová bota');
    expect(item.content.nested?.length).toBeGreaterThan(0);
    expect(item.rich_snippet?.json.default).toMatchObject({
      '@type': 'ProductGroup',
      name: 'Trail shoe',
      brand: { '@type': 'Brand', name: 'Peak' },
    });
    expect(item.variant).toEqual(product.variant);
    expect(Object.keys(item.site_link?.list ?? {})).toEqual(['default', 'cs', 'en']);
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
      expect(dangers(item.content.html.default!)).toEqual([]);
      expect(dangers(item.site_link!.html.default!)).toEqual([]);
      expect(marketplaceDangers(item.content.marketplace!.default!)).toEqual([]);
      expect(snippetDangers(item.rich_snippet!.html.default!)).toEqual([]);
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

  test('when one job renders many products, then each gets its own relations and the same content as rendered alone', async () => {
    const s = await shop();
    const res = await s.call('POST', '/api/v2/rest/multi-import', {
      parameters: [
        { id: 1, name: 'Size', values: [{ id: 1, value: '42' }] },
        { id: 2, name: 'Colour', values: [{ id: 1, value: 'Red' }] },
      ],
      brands: [
        { id: 'BA', name: { default: 'Alpha' } },
        { id: 'BB', name: { default: 'Beta' } },
      ],
      products: [
        {
          id: 'M1',
          name: { default: 'First' },
          brand_id: 'BA',
          parameters_ids: [1],
          variant: [{ code: 'M1-a', ean: '' }],
        },
        { id: 'M2', name: { default: 'Second' }, brand_id: 'BB', parameters_ids: [2, 1] },
        { id: 'M3', name: { default: 'Third' }, variant: [{ code: 'M3-a', ean: '8590000000434' }] },
        { id: 'M4', name: { default: 'Gone' } },
      ],
    });
    expect(res.body.success).toBe(true);
    await eventually(async () => expect(await statusOf(s.id, 'M4')).toBe('ready'), 15_000);
    const key = (externalId: string) => ({ eshopId: s.id, entityType: 'product' as const, externalId });
    await api.deps.db('products').where({ eshop_id: s.id, external_id: 'M4' }).update({ is_delete: true });
    const m2 = (await contentRepository.find(api.deps.db, key('M2')))!;
    await contentRepository.save(api.deps.db, key('M2'), { ...m2, origin: 'editor' });
    const alone = new Map<string, unknown>();
    for (const id of ['M1', 'M2', 'M3']) {
      await renderContent(api.deps.db, { eshop_id: s.id, entity_type: 'product', external_id: id });
      alone.set(id, await contentRepository.find(api.deps.db, key(id)));
    }

    const outcomes = await renderContents(api.deps.db, {
      eshop_id: s.id,
      entity_type: 'product',
      external_ids: ['M3', 'M1', 'M2', 'M4', 'NOPE', 'M1'],
    });

    expect(Object.fromEntries(outcomes)).toEqual({
      M3: 'composed',
      M1: 'composed',
      M2: 'refreshed',
      M4: 'skipped',
      NOPE: 'skipped',
    });
    for (const id of ['M1', 'M2', 'M3']) {
      expect(await contentRepository.find(api.deps.db, key(id))).toEqual(alone.get(id));
    }
    const snippet = async (id: string) =>
      (await contentRepository.find(api.deps.db, key(id)))!.rich_snippet.json.default as Record<
        string,
        unknown
      >;
    expect(await snippet('M1')).toMatchObject({ name: 'First', brand: { name: 'Alpha' } });
    expect(await snippet('M2')).toMatchObject({ name: 'Second', brand: { name: 'Beta' } });
    expect(await snippet('M3')).not.toHaveProperty('brand');
    expect(JSON.stringify(await snippet('M3'))).toContain('8590000000434');
    expect(JSON.stringify(await snippet('M1'))).not.toContain('8590000000434');
  });

  test('when one job renders more products than a statement writes, then every one is stored', async () => {
    const s = await shop();
    const count = CONTENT_WRITE_ROWS * 2 + 3;
    const ids = Array.from({ length: count }, (_, i) => `W${i + 1}`);
    const res = await s.call(
      'POST',
      '/api/v2/rest/products',
      ids.map((id) => ({ id, name: { default: `Product ${id}` } })),
    );
    expect(res.body).toMatchObject({ success: true, imported: count });
    await eventually(async () => {
      const ready = await api.deps.db('products').where({ eshop_id: s.id, status: 'ready' }).select('id');
      expect(ready).toHaveLength(count);
    }, 15_000);
    await api.deps.db('content').where({ eshop_id: s.id }).delete();

    const outcomes = await renderContents(api.deps.db, {
      eshop_id: s.id,
      entity_type: 'product',
      external_ids: ids,
    });

    expect([...outcomes.values()].filter((o) => o === 'composed')).toHaveLength(count);
    const stored = await api.deps
      .db('content')
      .where({ eshop_id: s.id, entity_type: 'product' })
      .select('external_id', 'rich_snippet');
    expect(stored.map((row) => row.external_id).sort()).toEqual([...ids].sort());
    for (const row of stored) {
      expect(row.rich_snippet.json.default).toMatchObject({ name: `Product ${row.external_id}` });
    }
  });

  test('when two jobs render overlapping items at once, then both finish and the content is whole', async () => {
    const s = await shop();
    const items = Array.from({ length: 30 }, (_, i) => ({
      id: `C${i}`,
      name: { default: `Item ${i}` },
      description: { default: `<p>About item ${i}.</p>` },
    }));
    expect((await s.call('POST', '/api/v2/rest/products', items)).body.success).toBe(true);
    await eventually(async () => expect(await statusOf(s.id, 'C29')).toBe('ready'), 15_000);
    const ids = items.map((i) => i.id);

    const results = await Promise.all([
      renderContents(api.deps.db, { eshop_id: s.id, entity_type: 'product', external_ids: ids }),
      renderContents(api.deps.db, {
        eshop_id: s.id,
        entity_type: 'product',
        external_ids: [...ids].reverse(),
      }),
      renderContents(api.deps.db, {
        eshop_id: s.id,
        entity_type: 'product',
        external_ids: ids.slice(10, 20),
      }),
    ]);

    expect(results.map((r) => r.size)).toEqual([30, 30, 10]);
    const stored = await contentRepository.find(api.deps.db, {
      eshopId: s.id,
      entityType: 'product',
      externalId: 'C7',
    });
    expect(stored!.html.default).toContain('About item 7.');
    expect(stored!.rich_snippet.json.default).toMatchObject({ name: 'Item 7' });
  });
});
