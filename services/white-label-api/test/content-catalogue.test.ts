// The editor and the catalogue share an entity's content (docs/decisions/0004-catalogue-api-v1-v2-imports.md, "One content per
// entity"): what the editor changes, the v2 list returns. Both services run in-process here on
// the same test database.
import { catalogueRepository } from '@catalogue/db';
import { bearerCaller, serveServiceForTests, type Method } from '@catalogue/testing';
import { catalogueApi } from '../../catalogue-api/src/service';
import { contentService, elementByClass } from './content-helpers';

describe('white-label-api content edits in the catalogue v2 list', () => {
  const wl = contentService();
  const catalogue = serveServiceForTests(catalogueApi);

  /** A catalogue API call of the eshop's back office, which must answer 200. */
  async function v2<M extends Method, P extends string>(token: string, method: M, path: P, body?: unknown) {
    const res = await bearerCaller(catalogue.url, token)(method, path, body);
    expect(res.status).toBe(200);
    return res.body;
  }

  test('when an imported product is edited in the editor, then the v2 list returns the edited content in every output', async () => {
    const shop = await wl.shop({ languages: ['default', 'cs'], enableRichSnippet: true });
    await v2(shop.apiToken, 'POST', '/api/v2/rest/products', [
      {
        id: 'P1',
        name: { default: 'Trail shoe', cs: 'Trailová bota' },
        description: { default: '<p>Light.</p>' },
      },
    ]);
    // What the generation worker does once it has rendered the import (it is not running here).
    await wl.deps.db.transaction((trx) =>
      catalogueRepository.markRendered(trx, 'product', shop.id, 'P1', 'ready'),
    );
    const query = '/api/v2/rest/products?lang=all&include=marketplace,nested,rich_snippet';
    const before = (await v2(shop.apiToken, 'GET', query)).data[0]!;
    expect(before.content.html).toEqual({ default: '', cs: '' });

    await shop.register('P1', 'product', { default: 'Host title' });
    const [section] = await shop.add('P1', 'section');
    const heading = elementByClass(section!, 'ccs-section__heading');
    const text = elementByClass(section!, 'ccs-section__text');
    const edited = await shop.call('PUT', '/content/P1/type/product', {
      '1': {
        children: [
          { id: heading.id, value: { default: 'Built for trails', cs: 'Stavěná pro stezky' } },
          { id: text.id, value: { default: '<p>Grips <em>wet</em> rock.</p>' } },
        ],
      },
    });
    expect(edited.status).toBe(200);

    const after = (await v2(shop.apiToken, 'GET', query)).data[0]!;
    expect(after.content.html.default).toContain('Built for trails');
    expect(after.content.html.default).toContain('<p>Grips <em>wet</em> rock.</p>');
    expect(after.content.html.cs).toContain('Stavěná pro stezky');
    expect(after.content.marketplace?.cs).toContain('<h2>Stavěná pro stezky</h2>');
    expect(after.content.nested).toHaveLength(1);
    // The snippet is built from the catalogue item's data, not from the host's title.
    expect(after.rich_snippet?.json.cs).toMatchObject({ '@type': 'Product', name: 'Trailová bota' });
    expect(after.updated_at > before.updated_at).toBe(true);

    // Pollers of last_update_time_from see the edit.
    const since = before.updated_at.replace('T', ' ').slice(0, 19);
    const polled = await v2(
      shop.apiToken,
      'GET',
      `/api/v2/rest/products?last_update_time_from=${encodeURIComponent(since)}`,
    );
    expect(polled.data.map((item) => item.id)).toEqual(['P1']);

    // Deleting the widget empties the listed content again.
    await shop.call('DELETE', '/content/P1/type/product/widget/1');
    const emptied = (await v2(shop.apiToken, 'GET', query)).data[0]!;
    expect(emptied.content.html).toEqual({ default: '', cs: '' });
  });

  test('when people edit content, then the change feed tells of it as of a render: item.content_ready for an item the lists serve, nothing for one not rendered yet, a page or a refused edit', async () => {
    const shop = await wl.shop({ languages: ['default'] });
    await v2(shop.apiToken, 'POST', '/api/v2/rest/products', [
      { id: 'READY', name: { default: 'Shown' } },
      { id: 'WAITING', name: { default: 'Not rendered yet' } },
    ]);
    await wl.deps.db.transaction((trx) =>
      catalogueRepository.markRendered(trx, 'product', shop.id, 'READY', 'ready'),
    );
    for (const id of ['READY', 'WAITING']) await shop.register(id);
    await shop.register('ABOUT', 'page', { default: 'About us' });
    const feed = async () =>
      (await v2(shop.apiToken, 'GET', '/api/v2/rest/changes')).data.map(
        (e: { id: number; type: string; external_id: string; data: unknown }) => [
          e.id,
          e.type,
          e.external_id,
          e.data,
        ],
      );
    const before = await feed()!;

    await shop.add('READY', 'section');
    await shop.add('WAITING', 'section');
    const page = await shop.call('POST', '/content/ABOUT/type/page', {
      widget_id: (await wl.widgetOf('section')).id,
    });
    const refused = await shop.call('PUT', '/content/READY/type/product', { '999': { children: [] } });

    expect(page.status).toBe(200);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect((await feed()).slice(before.length)).toEqual([
      [before.length + 1, 'item.content_ready', 'READY', { status: 'ready' }],
    ]);
  });
});
