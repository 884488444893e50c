import type { ContentWidget } from '@catalogue/content';
import { widgetTemplates } from '@catalogue/content-store';
import { contentRepository } from '@catalogue/db';
import { classicDesign } from './design-fixtures';
import { editorService, ORIGIN, type Shop } from './editor-client';

describe('white-label-api: content revisions, ETag and If-Match', () => {
  const service = editorService();
  const db = () => service.deps.db;

  const PATH = '/content/P1/type/product';

  async function registered(entities: string[] = ['P1']) {
    const shop = await service.shop({ languages: ['default', 'cs', 'en'] });
    for (const id of entities) {
      const res = await shop.post('/register-entity', {
        entity_id: id,
        type: 'product',
        title: 'Trail shoe',
      });
      expect(res.status).toBe(201);
    }
    return shop;
  }

  const revisionRows = (shop: Shop, entityId = 'P1') =>
    db()('content_revisions')
      .where({ eshop_id: shop.id, entity_type: 'product', external_id: entityId })
      .orderBy('version')
      .select('id', 'version', 'source', 'generation_job_id', 'languages_changed', 'tree');

  const stored = (shop: Shop, entityId = 'P1') =>
    contentRepository.find(db(), { eshopId: shop.id, entityType: 'product', externalId: entityId });

  async function sectionId() {
    const section = (await widgetTemplates(db())).find((w) => w.type === 'section');
    return section!.id;
  }

  /** Adds a section (sample texts) and answers the widgets and the ETag. */
  async function addSection(shop: Shop, path = PATH) {
    const res = await shop.post(path, { widget_id: await sectionId() });
    expect(res.status).toBe(200);
    return { widgets: res.body as ContentWidget[], etag: res.headers.get('etag') };
  }

  /** A PUT body giving the first widget's heading a text in `lang`. */
  function headingEdit(widgets: ContentWidget[], value: Record<string, string>) {
    const widget = widgets[0]!;
    const heading = widget.children.find((e) => e.class === 'ccs-section__heading')!;
    return { [widget.id]: { children: [{ id: heading.id, value }] } };
  }

  const fillBody = async (heading: Record<string, string>) => {
    const d = await classicDesign(db());
    return {
      design_id: d.id,
      widget: [{ design_widget_id: d.section, fields: { heading, paragraph: 'Sole' } }],
    };
  };

  test('when each editor write runs, then each stores a revision of source editor with the languages whose html changed, and answers the new version as ETag', async () => {
    const shop = await registered(['P1', 'P2']);
    const first = await shop.get(PATH);
    expect(first.headers.get('etag')).toBe('"0"');

    const added = await addSection(shop);
    expect(added.etag).toBe('"1"');
    const put = await shop.call('PUT', PATH, headingEdit(added.widgets, { cs: 'Nadpis' }));
    expect(put.status).toBe(200);
    expect(put.headers.get('etag')).toBe('"2"');
    const second = await addSection(shop);
    const ids = second.widgets.map((w) => w.id);
    const reorder = await shop.post(PATH, { ord: [...ids].reverse() });
    expect(reorder.status).toBe(200);
    const copy = await shop.post('/content/element-copy/P1/type/product', {
      action: 'copy',
      index: 0,
      contentId: ids[0],
      parent: '0',
    });
    expect(copy.status).toBe(200);
    const del = await shop.delete(`${PATH}/widget/${ids[1]}`);
    expect(del.status).toBe(200);
    const copied = await shop.post('/content/copy-widget', {
      source_entity_id: 'P1',
      target_entity_id: 'P2',
      type: 'product',
    });
    expect(copied.status).toBe(200);
    expect(copied.headers.get('etag')).toBe('"1"');

    const rows = await revisionRows(shop);
    expect(rows.map((r) => [r.version, r.source, r.generation_job_id])).toEqual([
      [1, 'editor', null],
      [2, 'editor', null],
      [3, 'editor', null],
      [4, 'editor', null],
      [5, 'editor', null],
      [6, 'editor', null],
    ]);
    // An added widget starts from marked samples, which the public html leaves out: no language
    // changed. The cs heading the person wrote changed cs alone.
    expect(rows[0]!.languages_changed).toEqual([]);
    expect(rows[1]!.languages_changed).toEqual(['cs']);
    // Each revision is the tree the write stored; the last one is the content now.
    expect(rows[5]!.tree).toEqual((await stored(shop))!.tree);
    const target = await revisionRows(shop, 'P2');
    expect(target.map((r) => r.source)).toEqual(['editor']);
    expect((await shop.get(PATH)).headers.get('etag')).toBe('"6"');
  });

  test('when revisions are listed, then they come newest first with source, generation id, languages and time, paged', async () => {
    const shop = await registered();
    const { widgets } = await addSection(shop);
    await shop.call('PUT', PATH, headingEdit(widgets, { en: 'Heading' }));
    await shop.post('/entity/P1/type/product/design', await fillBody({ default: 'Filled' }));

    const res = await shop.get(`${PATH}/revisions?per_page=2`);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ total: 3, current_page: 1, per_page: 2 });
    expect(res.body.data.map((r) => [r.version, r.source, r.generation_id])).toEqual([
      [3, 'fill', null],
      [2, 'editor', null],
    ]);
    expect(res.body.data[1]?.languages_changed).toEqual(['en']);
    expect(res.body.data[0]?.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const page2 = await shop.get(`${PATH}/revisions?per_page=2&page=2`);
    expect(page2.body.data.map((r) => r.version)).toEqual([1]);
    // Not registered: 404, as every entity route.
    expect((await shop.get('/content/NOPE/type/product/revisions')).status).toBe(404);
  });

  test('when the revision before a fill is restored, then the texts the fill replaced come back in every language, as a new revision of source restore', async () => {
    const shop = await registered();
    const filled = await shop.post(
      '/entity/P1/type/product/design',
      await fillBody({ default: 'First', cs: 'První', en: 'First EN' }),
    );
    expect(filled.headers.get('etag')).toBe('"1"');
    const before = (await stored(shop))!;
    const second = await shop.post(
      '/entity/P1/type/product/design',
      await fillBody({ default: 'Second', cs: 'Druhý', en: 'Second EN' }),
    );
    expect(second.status).toBe(200);
    const [one, two] = await revisionRows(shop);
    expect(two!.source).toBe('fill');
    expect(two!.languages_changed).toEqual(['cs', 'default', 'en']);

    const res = await shop.post(`${PATH}/revisions/${one!.id}/restore?lang=cs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"3"');
    expect(JSON.stringify(res.body)).toContain('První');
    const after = (await stored(shop))!;
    expect(after.tree).toEqual(before.tree);
    expect(after.html).toEqual(before.html);
    expect(after.html.en).toContain('First EN');
    const rows = await revisionRows(shop);
    expect(rows.map((r) => r.source)).toEqual(['fill', 'fill', 'restore']);
    expect(rows[2]!.languages_changed).toEqual(['cs', 'default', 'en']);
  });

  test("when another eshop's or another entity's revision id is restored, then it is 404 and nothing changes", async () => {
    const shop = await registered(['P1', 'P2']);
    await addSection(shop);
    await addSection(shop, '/content/P2/type/product');
    const other = await registered();
    await addSection(other);
    const [otherRevision] = await revisionRows(other);
    const [p2Revision] = await revisionRows(shop, 'P2');
    const before = await stored(shop);
    const rowsBefore = await revisionRows(shop);

    const foreign = await shop.post(`${PATH}/revisions/${otherRevision!.id}/restore`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('not_found');
    expect((await shop.post(`${PATH}/revisions/${p2Revision!.id}/restore`)).status).toBe(404);
    expect((await shop.post(`${PATH}/revisions/999999999/restore`)).status).toBe(404);
    // The other eshop cannot list this eshop's revisions through an entity of its own name either.
    expect((await other.get(`${PATH}/revisions`)).body.data).toHaveLength(1);

    expect(await stored(shop)).toEqual(before);
    expect(await revisionRows(shop)).toEqual(rowsBefore);
  });

  test('when a write sends a stale If-Match, then it is 412 content_version_mismatch with the current ETag and nothing changes', async () => {
    const shop = await registered();
    const { widgets } = await addSection(shop);
    const current = await shop.call('PUT', PATH, headingEdit(widgets, { cs: 'Nový' }));
    expect(current.headers.get('etag')).toBe('"2"');
    const before = await stored(shop);
    const stale = { headers: { 'If-Match': '"1"' } };

    const attempts = [
      await shop.call('PUT', PATH, headingEdit(widgets, { cs: 'Starý' }), stale),
      await shop.call('POST', PATH, { widget_id: await sectionId() }, stale),
      await shop.call('DELETE', `${PATH}/widget/${widgets[0]!.id}`, undefined, stale),
      await shop.call(
        'POST',
        '/content/element-copy/P1/type/product',
        { action: 'copy', index: 0, contentId: widgets[0]!.id },
        stale,
      ),
      await shop.call('POST', '/entity/P1/type/product/design', await fillBody({ default: 'X' }), stale),
      await shop.call('POST', `${PATH}/revisions/1/restore`, undefined, stale),
      await shop.call('POST', PATH, { widget_id: await sectionId() }, { headers: { 'If-Match': 'garbage' } }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(412);
      expect(res.body).toEqual({
        error: expect.any(String),
        code: 'content_version_mismatch',
        current_etag: '"2"',
      });
      expect(res.headers.get('etag')).toBe('"2"');
    }
    expect(await stored(shop)).toEqual(before);
    expect(await revisionRows(shop)).toHaveLength(2);

    // The current tag (strong, weak, in a list, or *) writes.
    const ok = await shop.call('PUT', PATH, headingEdit(widgets, { cs: 'A' }), {
      headers: { 'If-Match': 'W/"2"' },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('etag')).toBe('"3"');
    const listed = await shop.call('PUT', PATH, headingEdit(widgets, { cs: 'B' }), {
      headers: { 'If-Match': '"1", "3"' },
    });
    expect(listed.status).toBe(200);
    const any = await shop.call('PUT', PATH, headingEdit(widgets, { cs: 'C' }), {
      headers: { 'If-Match': '*' },
    });
    expect(any.status).toBe(200);
    expect(any.headers.get('etag')).toBe('"5"');
  });

  test('when two writes send the same If-Match at once, then exactly one is written and the other is 412', async () => {
    const shop = await registered();
    const { widgets, etag } = await addSection(shop);
    const headers = { 'If-Match': etag! };

    const replies = await Promise.all([
      shop.call('PUT', PATH, headingEdit(widgets, { cs: 'Jedna' }), { headers }),
      shop.call('PUT', PATH, headingEdit(widgets, { cs: 'Dva' }), { headers }),
      shop.call('POST', PATH, { widget_id: await sectionId() }, { headers }),
    ]);

    expect(replies.map((r) => r.status).sort()).toEqual([200, 412, 412]);
    expect(await revisionRows(shop)).toHaveLength(2);
    const winner = replies.find((r) => r.status === 200)!;
    expect((await stored(shop))!.tree).toEqual((await revisionRows(shop))[1]!.tree);
    expect(winner.headers.get('etag')).toBe('"2"');
  });

  test('when content composed by an import is first edited, then the composed tree is kept as revision 1 (import) and can be restored', async () => {
    const shop = await registered();
    const key = { eshopId: shop.id, entityType: 'product' as const, externalId: 'P1' };
    // Content as a render job composes it (no revision: it replaced nothing).
    await shop.post('/entity/P1/type/product/design', await fillBody({ default: 'Composed' }));
    const composed = (await stored(shop))!;
    await db()('content_revisions').where({ eshop_id: shop.id }).delete();
    await db()('content').where({ eshop_id: shop.id }).update({ version: 0, origin: 'composed' });

    const { widgets } = await addSection(shop);
    expect(widgets).toHaveLength(2);
    const rows = await revisionRows(shop);
    expect(rows.map((r) => [r.version, r.source])).toEqual([
      [1, 'import'],
      [2, 'editor'],
    ]);
    expect(rows[0]!.tree).toEqual(composed.tree);

    const res = await shop.post(`${PATH}/revisions/${rows[0]!.id}/restore`);
    expect(res.status).toBe(200);
    expect((await contentRepository.find(db(), key))!.tree).toEqual(composed.tree);
  });

  test('when a browser preflights a write with If-Match, then CORS allows it, and answers expose ETag', async () => {
    const shop = await registered();
    const preflight = await fetch(`${service.url}/api/v3/white-label${PATH}`, {
      method: 'OPTIONS',
      headers: {
        Origin: ORIGIN,
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': 'if-match, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('if-match');
    const get = await shop.get(PATH);
    expect(get.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('etag');
  });
});
