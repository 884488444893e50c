// The typed client (@catalogue/client: openapi-typescript types of docs/openapi.yaml, openapi-fetch
// at run time) against the whole running service, with the client's default settings, as an
// integrator would use it: import, multi-import, list with `include` and `lang` as arrays (which
// openapi-fetch sends repeated, `include=a&include=b`), register a webhook, the white-label
// flow (register an entity, add, read and edit its content), and a 422 whose `code` is typed.
// Every answer is also checked against the document.
import { createClient, type Schemas } from '@catalogue/client';
import { WHITE_LABEL_TOKEN_HEADER } from '@catalogue/http';
import { eventually, expectMatchesContract, makeEshop } from '@catalogue/testing';
import { useFullStack } from './full-stack';

const PREFIX = `${process.env.TEST_QUEUE_PREFIX}-client`;
const ORIGIN = 'https://admin.client.test';

/** Each request the client sent (its URL) and each answer checked against the document. */
function recorded(urls: string[]) {
  return {
    onRequest({ request }: { request: Request }) {
      urls.push(request.url);
    },
    async onResponse({ request, response }: { request: Request; response: Response }) {
      const text = await response.clone().text();
      const body: unknown = text ? JSON.parse(text) : undefined;
      const path = new URL(request.url).pathname;
      expectMatchesContract(
        request.method,
        path,
        response.status,
        body,
        response.headers.get('content-type'),
      );
    },
  };
}

describe('@catalogue/client against the running services', () => {
  const { wl, catalogue } = useFullStack(PREFIX, {
    overrides: { WEBHOOK_ALLOW_PRIVATE: '127.0.0.1/32:*' },
  });

  test('when an integrator uses the generated client with its default settings, then import, lists with include arrays, multi-import, webhooks, the white-label flow and a typed 422 all work', async () => {
    const shop = await makeEshop(wl.deps.db, { origins: [ORIGIN], languages: ['default', 'cs'] });
    const urls: string[] = [];
    const api = createClient({
      baseUrl: catalogue.url,
      headers: { Authorization: `Bearer ${shop.apiToken}` },
    });
    api.use(recorded(urls));

    // Import, then multi-import with cross-references inside the request.
    const imported = await api.POST('/api/v2/rest/products', {
      body: [{ id: 'P1', name: { default: 'Trail shoe', cs: 'Trailová bota' } }],
    });
    expect(imported.response.status).toBe(200);
    expect(imported.data).toMatchObject({ success: true, imported: 1, skipped: 0 });
    const multi = await api.POST('/api/v2/rest/multi-import', {
      body: {
        parameters: [{ id: 7, name: 'Weight', values: [{ id: 1, value: '280 g' }] }],
        categories: [{ id: 'C1', name: { default: 'Shoes', cs: 'Boty' } }],
        products: [
          {
            id: 'P2',
            name: { default: 'Road shoe', cs: 'Silniční bota' },
            categories_ids: ['C1'],
            parameters_ids: [7],
          },
        ],
      },
    });
    expect(multi.response.status).toBe(200);
    expect(multi.data?.success).toBe(true);
    expect(multi.data?.results.products).toMatchObject({ imported: 1, skipped: 0 });

    // The list, with include and lang as arrays: the client sends them repeated.
    let page: Schemas['ProductV2'][] = [];
    await eventually(async () => {
      const listed = await api.GET('/api/v2/rest/products', {
        params: {
          query: { include: ['marketplace', 'variant', 'languages_complete'], lang: ['default', 'cs'] },
        },
      });
      expect(listed.response.status).toBe(200);
      page = listed.data?.data ?? [];
      expect(page.map((p) => p.id)).toEqual(['P1', 'P2']);
    }, 20_000);
    expect(urls.some((u) => /include=marketplace&include=variant&include=languages_complete/.test(u))).toBe(
      true,
    );
    const [shoe] = page;
    expect(shoe!.name).toEqual({ default: 'Trail shoe', cs: 'Trailová bota' });
    expect(Object.keys(shoe!.content).sort()).toEqual(['html', 'languages_complete', 'marketplace']);
    expect(shoe!.variant).toEqual([]);
    // P2's texts are all in default and cs; its parameter (one string, language-neutral) does not
    // make either page incomplete.
    const road = page[1]!;
    expect(road.content.html.cs).toContain('280 g');
    expect(road.content.languages_complete).toEqual(['default', 'cs']);
    // Without include, content is exactly {html}.
    const plain = await api.GET('/api/v2/rest/products', { params: { query: { lang: ['cs'] } } });
    expect(plain.data?.data.map((p) => Object.keys(p.content))).toEqual([['html'], ['html']]);

    // A 422 whose code is typed: site_link needs the eshop setting, which is off.
    const refused = await api.GET('/api/v2/rest/products', { params: { query: { include: ['site_link'] } } });
    expect(refused.response.status).toBe(422);
    expect(refused.data).toBeUndefined();
    const error = refused.error!;
    if (!('errors' in error)) throw new Error(`unexpected ${error.code}`);
    // Narrowed to the ValidationError schema: its code is the literal, its `errors` typed.
    const code: 'validation_failed' = error.code;
    expect(code).toBe('validation_failed');
    const messages: string[] | undefined = error.errors.include;
    expect(messages).toEqual(['The include site_link requires the eshop setting enable_site_link to be on.']);

    // A webhook endpoint registered and listed.
    const hook = await api.POST('/api/v2/rest/webhooks', {
      body: { url: 'http://127.0.0.1:9/hook', event_types: ['item.created'] },
    });
    expect(hook.response.status).toBe(201);
    expect(hook.data?.secret).toMatch(/^whsec_/);
    const hooks = await api.GET('/api/v2/rest/webhooks');
    expect(hooks.data?.data.map((h) => h.url)).toEqual(['http://127.0.0.1:9/hook']);

    // The white-label flow: register, add a widget, read and edit its content.
    const host = createClient({
      baseUrl: wl.url,
      headers: { [WHITE_LABEL_TOKEN_HEADER]: shop.whiteLabelToken, Origin: ORIGIN },
    });
    host.use(recorded(urls));
    const registered = await host.POST('/api/v3/white-label/register-entity', {
      body: { entity_id: 'P1', type: 'product', title: 'Trail shoe' },
    });
    expect(registered.response.status).toBe(201);
    const catalogueWidgets = await host.GET('/api/v3/white-label/widget');
    const section = catalogueWidgets.data?.data.find((w) => w.type === 'section');
    expect(section).toBeDefined();
    const path = { entity_id: 'P1', entity_type: 'product' } as const;
    const added = await host.POST('/api/v3/white-label/content/{entity_id}/type/{entity_type}', {
      params: { path },
      body: { widget_id: section!.id },
    });
    expect(added.response.status).toBe(200);
    const read = await host.GET('/api/v3/white-label/content/{entity_id}/type/{entity_type}', {
      params: { path },
    });
    expect(read.response.status).toBe(200);
    const widget = read.data!.at(-1)!;
    const heading = widget.children.find((e) => e.tag === 'h2')!;
    const edited = await host.PUT('/api/v3/white-label/content/{entity_id}/type/{entity_type}', {
      params: { path, header: { 'If-Match': read.response.headers.get('ETag') ?? undefined } },
      body: { [widget.id]: { children: [{ id: heading.id, value: { default: 'Built for trails' } }] } },
    });
    expect(edited.response.status).toBe(200);
    const again = await host.GET('/api/v3/white-label/content/{entity_id}/type/{entity_type}', {
      params: { path },
    });
    const headingAgain = again.data!.at(-1)!.children.find((e) => e.id === heading.id)!;
    expect(headingAgain.value).toMatchObject({ default: 'Built for trails' });
  }, 120_000);
});
