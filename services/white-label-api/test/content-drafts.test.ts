// Drafts and publishing (docs/decisions/0080-drafts-and-publishing.md, "Drafts and publishing"): in an eshop whose
// publish_mode is `draft`, the editor's writes wait as a draft; the storefront reads (v1 and v2
// lists, the v3 entity html) serve the published content until the draft is published, once.
// Both services run in-process on the same test database.
import { adminService } from '@catalogue/admin';
import { catalogueRepository, type PublishMode } from '@catalogue/db';
import { bearerCaller, serveServiceForTests } from '@catalogue/testing';
import { catalogueApi } from '../../catalogue-api/src/service';
import { classicDesign } from './design-fixtures';
import { editorService, type Shop } from './editor-client';

describe('white-label-api: drafts, preview and publish', () => {
  const wl = editorService();
  const catalogue = serveServiceForTests(catalogueApi);
  const db = () => wl.deps.db;
  const PATH = '/content/P1/type/product';

  /** A catalogue API read of the eshop's back office, which must answer 200. */
  async function catalogueGet<P extends string>(token: string, path: P) {
    const res = await bearerCaller(catalogue.url, token)('GET', path);
    expect(res.status).toBe(200);
    return res.body;
  }

  const setMode = (shop: Shop, publishMode: PublishMode) =>
    adminService(db()).updateEshop(shop.id, { publishMode });

  /** An eshop (in `mode`) with product P1 imported, rendered, listed and registered in the editor. */
  async function listedProduct(mode: PublishMode = 'draft') {
    const shop = await wl.shop({ languages: ['default', 'cs'] });
    const apiToken = shop.created.apiToken;
    const imported = await fetch(`${catalogue.url}/api/v2/rest/products`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify([{ id: 'P1', name: { default: 'Trail shoe' } }]),
    });
    expect(imported.status).toBe(200);
    // What the generation worker does once it has rendered the import (it is not running here).
    await db().transaction((trx) => catalogueRepository.markRendered(trx, 'product', shop.id, 'P1', 'ready'));
    expect(
      (await shop.post('/register-entity', { entity_id: 'P1', type: 'product', title: 'Shoe' })).status,
    ).toBe(201);
    await setMode(shop, mode);
    return { shop, apiToken };
  }

  /** What every storefront read serves of P1 now (v1 list, v2 list, v3 entity html). */
  async function storefront(shop: Shop, apiToken: string) {
    const v2 = await catalogueGet(apiToken, '/api/v2/rest/products?lang=all');
    const v1 = await catalogueGet(apiToken, '/api/v1/products/list');
    const html = await shop.get('/entity/P1/type/product/html');
    expect(html.status).toBe(200);
    return {
      v2: JSON.stringify(v2.data),
      v1: JSON.stringify(v1),
      html: html.body.html as Record<string, string>,
    };
  }

  async function sectionId(): Promise<number> {
    const res = await shop0Widgets();
    const section = res.find((w) => w.type === 'section');
    if (!section) throw new Error('no catalogue section widget');
    return section.id;
  }
  const loadWidgets = async () => (await (await wl.shop()).get('/widget')).body.data;
  let widgetCache: Awaited<ReturnType<typeof loadWidgets>> | undefined;
  async function shop0Widgets() {
    widgetCache ??= await loadWidgets();
    return widgetCache;
  }

  /** Adds a section and writes its heading; answers the ETag after the write. */
  async function writeHeading(shop: Shop, heading: string, headers: Record<string, string> = {}) {
    const added = await shop.post(PATH, { widget_id: await sectionId() }, { headers });
    expect(added.status).toBe(200);
    const widget = added.body.at(-1)!;
    const element = widget.children.find((e) => e.class === 'ccs-section__heading')!;
    const put = await shop.call('PUT', PATH, {
      [widget.id]: { children: [{ id: element.id, value: { default: heading } }] },
    });
    expect(put.status).toBe(200);
    return put.headers.get('etag')!;
  }

  const contentReady = async (shop: Shop) =>
    (await db()('events').where({ eshop_id: shop.id, type: 'item.content_ready', external_id: 'P1' })).length;
  const drafts = (shop: Shop) => db()('content_drafts').where({ eshop_id: shop.id });

  test('when the eshop keeps drafts and the owner edits, then no storefront read changes until the draft is published, and then once', async () => {
    const { shop, apiToken } = await listedProduct('draft');
    const before = await storefront(shop, apiToken);
    const eventsBefore = await contentReady(shop);

    const etag = await writeHeading(shop, 'Built for trails');

    // The editor shows the draft; the storefront serves what was published.
    const editorView = await shop.get(PATH);
    expect(JSON.stringify(editorView.body)).toContain('Built for trails');
    expect(editorView.headers.get('etag')).toBe(etag);
    expect(await storefront(shop, apiToken)).toEqual(before);
    expect(await contentReady(shop)).toEqual(eventsBefore);

    // The preview is the draft rendered as the storefront will serve it.
    const draft = await shop.get(`${PATH}/draft`);
    expect(draft.status).toBe(200);
    expect(draft.body.data).toMatchObject({
      publish_mode: 'draft',
      has_draft: true,
      version: Number(etag.slice(1, -1)),
    });
    expect(draft.body.data.html.default).toContain('Built for trails');
    expect(draft.body.data.draft_updated_at).toEqual(expect.any(String));

    const published = await shop.post(`${PATH}/publish`, undefined, { headers: { 'If-Match': etag } });
    expect(published.status).toBe(200);
    expect(JSON.stringify(published.body)).toContain('Built for trails');
    const after = await storefront(shop, apiToken);
    expect(after.v2).toContain('Built for trails');
    expect(after.v1).toContain('Built for trails');
    expect(after.html.default).toContain('Built for trails');
    expect(after.html.default).toBe(draft.body.data.html.default);
    expect(await drafts(shop)).toHaveLength(0);
    expect(await contentReady(shop)).toBe(eventsBefore + 1);

    // Once: a second publish finds nothing to publish and changes nothing.
    const again = await shop.post(`${PATH}/publish`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: expect.stringContaining('no draft'), code: 'no_draft' });
    expect(await storefront(shop, apiToken)).toEqual(after);
    expect(await contentReady(shop)).toBe(eventsBefore + 1);

    const state = await shop.get(`${PATH}/draft`);
    expect(state.body.data).toMatchObject({ has_draft: false, draft_updated_at: null });
    expect(state.body.data.published_version).toBe(state.body.data.version);
  });

  test('when revisions are listed in draft mode, then draft writes are marked and exactly the published one is marked published', async () => {
    const { shop } = await listedProduct('draft');
    const etag = await writeHeading(shop, 'Draft heading');
    let page = (await shop.get(`${PATH}/revisions`)).body.data;
    expect(page.map((r) => [r.source, r.draft])).toEqual([
      ['editor', true],
      ['editor', true],
    ]);
    expect(page.filter((r) => r.published)).toHaveLength(0);

    await shop.post(`${PATH}/publish`, undefined, { headers: { 'If-Match': etag } });
    page = (await shop.get(`${PATH}/revisions`)).body.data;
    expect(page[0]).toMatchObject({
      source: 'publish',
      draft: false,
      published: true,
      languages_changed: ['cs', 'default'],
    });
    expect(page.filter((r) => r.published)).toHaveLength(1);
  });

  test('when a draft is written again in one language, then its revision names only that language: it is compared with the draft before it, not the published page', async () => {
    const { shop } = await listedProduct('draft');
    await writeHeading(shop, 'First heading');
    const tree = (await shop.get(PATH)).body as Array<{
      id: number;
      children: Array<{ id: number; class: string }>;
    }>;
    const widget = tree.at(-1)!;
    const heading = widget.children.find((e) => e.class === 'ccs-section__heading')!;
    const put = await shop.call('PUT', PATH, {
      [widget.id]: {
        children: [{ id: heading.id, value: { default: 'First heading', cs: 'První nadpis' } }],
      },
    });
    expect(put.status).toBe(200);
    const [latest] = (await shop.get(`${PATH}/revisions`)).body.data;
    // The published page has no section at all: against it, both languages would differ.
    expect(latest).toMatchObject({ draft: true, languages_changed: ['cs'] });
  });

  test('when a stale or concurrent publish arrives, then the draft is published exactly once', async () => {
    const { shop, apiToken } = await listedProduct('draft');
    const etag = await writeHeading(shop, 'Once only');

    const withTag = await Promise.all([
      shop.post(`${PATH}/publish`, undefined, { headers: { 'If-Match': etag } }),
      shop.post(`${PATH}/publish`, undefined, { headers: { 'If-Match': etag } }),
    ]);
    expect(withTag.map((r) => r.status).sort()).toEqual([200, 412]);
    const publishes = await db()('content_revisions').where({ eshop_id: shop.id, source: 'publish' });
    expect(publishes).toHaveLength(1);

    // Without If-Match: the second of two concurrent publishes finds no draft.
    const next = await writeHeading(shop, 'Second draft');
    expect(next).toBeTruthy();
    const bare = await Promise.all([shop.post(`${PATH}/publish`), shop.post(`${PATH}/publish`)]);
    expect(bare.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(bare.find((r) => r.status === 409)!.body.code).toBe('no_draft');
    expect(await db()('content_revisions').where({ eshop_id: shop.id, source: 'publish' })).toHaveLength(2);
    expect((await storefront(shop, apiToken)).html.default).toContain('Second draft');

    // A publish from a view older than the draft is refused: the owner publishes what they saw.
    const seen = await writeHeading(shop, 'Third draft');
    await writeHeading(shop, 'Fourth draft');
    const stale = await shop.post(`${PATH}/publish`, undefined, { headers: { 'If-Match': seen } });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe('content_version_mismatch');
    expect(await drafts(shop)).toHaveLength(1);
  });

  test('when a publish is retried with the same Idempotency-Key, then it answers the first answer again and publishes once', async () => {
    const { shop } = await listedProduct('draft');
    const etag = await writeHeading(shop, 'Retried');
    const headers = { 'If-Match': etag, 'Idempotency-Key': 'publish-retried-1' };

    const first = await shop.post(`${PATH}/publish`, undefined, { headers });
    const retried = await shop.post(`${PATH}/publish`, undefined, { headers });

    expect(first.status).toBe(200);
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual(first.body);
    expect(await db()('content_revisions').where({ eshop_id: shop.id, source: 'publish' })).toHaveLength(1);
  });

  test('when another eshop publishes, discards or reads the draft of an entity id, then it reaches only its own (404 or no_draft) and the draft stays', async () => {
    const { shop, apiToken } = await listedProduct('draft');
    await writeHeading(shop, 'Mine');
    const before = await storefront(shop, apiToken);
    const other = await wl.shop({ languages: ['default', 'cs'] });
    await setMode(other, 'draft');

    // Not registered in the other eshop: 404.
    for (const res of [
      await other.post(`${PATH}/publish`),
      await other.delete(`${PATH}/draft`),
      await other.get(`${PATH}/draft`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    // Registered there too (same host id): its own entity has no draft.
    await other.post('/register-entity', { entity_id: 'P1', type: 'product', title: 'Other' });
    expect((await other.post(`${PATH}/publish`)).body.code).toBe('no_draft');
    expect((await other.delete(`${PATH}/draft`)).body.code).toBe('no_draft');
    expect((await other.get(`${PATH}/draft`)).body.data).toMatchObject({ has_draft: false });

    expect(await drafts(shop)).toHaveLength(1);
    expect(await storefront(shop, apiToken)).toEqual(before);
  });

  test('when the draft is discarded, then the editor shows the published content again and the storefront never changed', async () => {
    const { shop, apiToken } = await listedProduct('draft');
    const before = await storefront(shop, apiToken);
    const published = (await shop.get(PATH)).body;
    const seen = await writeHeading(shop, 'Thrown away');
    const etag = await writeHeading(shop, 'Thrown away too');

    // A discard from an older view of the draft is refused: nothing the person did not see is lost.
    const stale = await shop.delete(`${PATH}/draft`, { headers: { 'If-Match': seen } });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe('content_version_mismatch');
    expect(await drafts(shop)).toHaveLength(1);

    const discarded = await shop.delete(`${PATH}/draft`, { headers: { 'If-Match': etag } });
    expect(discarded.status).toBe(200);
    expect(discarded.body).toEqual(published);
    expect(Number(discarded.headers.get('etag')!.slice(1, -1))).toBe(Number(etag.slice(1, -1)) + 1);
    expect((await shop.get(PATH)).body).toEqual(published);
    expect(await storefront(shop, apiToken)).toEqual(before);
    const [newest] = (await shop.get(`${PATH}/revisions`)).body.data;
    expect(newest).toMatchObject({ source: 'discard', draft: false, published: true });
    expect((await shop.delete(`${PATH}/draft`)).status).toBe(409);
  });

  test('when the eshop publishes immediately, then there is never a draft and publish answers no_draft', async () => {
    const { shop, apiToken } = await listedProduct('immediate');
    await writeHeading(shop, 'Live at once');
    expect((await storefront(shop, apiToken)).html.default).toContain('Live at once');
    expect(await drafts(shop)).toHaveLength(0);
    const res = await shop.post(`${PATH}/publish`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('no_draft');
    const state = (await shop.get(`${PATH}/draft`)).body.data;
    expect(state).toMatchObject({ publish_mode: 'immediate', has_draft: false });
    expect(state.html.default).toContain('Live at once');
  });

  test('when the setting is switched off while a draft exists, then the draft stays unpublished until the next edit, which publishes it with that edit', async () => {
    const { shop, apiToken } = await listedProduct('draft');
    await writeHeading(shop, 'Waiting');
    await setMode(shop, 'immediate');

    // Switching alone publishes nothing; the editor still shows the draft, which can be published.
    expect((await storefront(shop, apiToken)).html.default).not.toContain('Waiting');
    expect((await shop.get(`${PATH}/draft`)).body.data).toMatchObject({
      publish_mode: 'immediate',
      has_draft: true,
    });
    expect(JSON.stringify((await shop.get(PATH)).body)).toContain('Waiting');

    // The next write starts from the draft and publishes both.
    await writeHeading(shop, 'And more');
    const served = (await storefront(shop, apiToken)).html.default;
    expect(served).toContain('Waiting');
    expect(served).toContain('And more');
    expect(await drafts(shop)).toHaveLength(0);
  });

  test('when a design is filled in draft mode, then the fill waits as a draft of source fill and the preview shows it', async () => {
    const shop = await wl.shop({ languages: ['default', 'cs'] });
    await setMode(shop, 'draft');
    await shop.post('/register-entity', { entity_id: 'G1', type: 'product', title: 'About us' });
    const d = await classicDesign(db());
    const filled = await shop.post('/entity/G1/type/product/design', {
      design_id: d.id,
      widget: [{ design_widget_id: d.section, fields: { heading: 'Our story', paragraph: 'Since 1990' } }],
    });
    expect(filled.status).toBe(200);

    const html = await shop.get('/entity/G1/type/product/html');
    expect(JSON.stringify(html.body)).not.toContain('Our story');
    const draft = (await shop.get('/content/G1/type/product/draft')).body.data;
    expect(draft.has_draft).toBe(true);
    expect(draft.html.default).toContain('Our story');
    const [newest] = (await shop.get('/content/G1/type/product/revisions')).body.data;
    expect(newest).toMatchObject({ source: 'fill', draft: true, published: false });

    expect((await shop.post('/content/G1/type/product/publish')).status).toBe(200);
    expect((await shop.get('/entity/G1/type/product/html')).body.html.default).toContain('Our story');
  });
});
