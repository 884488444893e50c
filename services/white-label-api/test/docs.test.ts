import { expectMatchesContract, loadServedDocs } from '@catalogue/testing';
import { parse } from 'yaml';
import { editorService } from './editor-client';

describe('white-label-api: API reference at /docs', () => {
  const service = editorService();

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${service.url}${path}`, { headers });
    const text = await res.text();
    const type = res.headers.get('content-type');
    const body = type?.startsWith('application/json') ? (JSON.parse(text) as unknown) : text;
    expectMatchesContract('GET', path, res.status, res.status === 304 ? undefined : body, type);
    return { res, text, body };
  };

  test('when /docs is opened without any token or Origin, then the Swagger UI page is served', async () => {
    const { res, text } = await get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(text).toContain('<title>White-label editor API (v3)</title>');
    expect(text).toContain('src="/docs/assets/init.js"');
    const asset = await fetch(`${service.url}/docs/assets/swagger-ui-bundle.js`);
    expect(asset.status).toBe(200);
    await asset.arrayBuffer();
  });

  test('when the document is read, then it describes every white-label operation, as YAML with an ETag and as JSON', async () => {
    const { res, text } = await get('/docs/openapi.yaml');
    expect(res.status).toBe(200);
    const paths = Object.keys((parse(text) as { paths: Record<string, unknown> }).paths);
    for (const path of [
      '/api/v3/white-label/register-entity',
      '/api/v3/white-label/entity',
      '/api/v3/white-label/entity/{entity_id}/type/{entity_type}/html',
      '/api/v3/white-label/entity/{entity_id}/type/{entity_type}/design',
      '/api/v3/white-label/design',
      '/api/v3/white-label/design/{design_id}/preview',
      '/api/v3/white-label/design/{design_id}/structure',
      '/api/v3/white-label/credit',
      '/api/v3/white-label/prompt',
      '/api/v3/white-label/widget',
      '/api/v3/white-label/widget-favourite',
      '/api/v3/white-label/widget-favourite/{widget_favourite_id}',
    ]) {
      expect(paths).toContain(path);
    }
    // 304 revalidation itself is tested with the docs router in libs/http.
    expect(res.headers.get('etag')).toMatch(/^"/);
    const json = await get('/docs/openapi.json');
    expect((json.body as { openapi: string }).openapi).toMatch(/^3\./);
  });

  test('when the served document is read, then "Try it out" on check-license calls this service, and no catalogue operation is listed (the price list, the editor bundle and the design previews are served here too)', async () => {
    const docs = await loadServedDocs(service.url);

    expect(docs.servers).toEqual([{ url: '/' }]);
    expect(docs.operations).toContain('POST /api/v3/white-label/check-license');
    // Storefronts load the content stylesheet from either API.
    expect(docs.operations).toContain('GET /content/v1/ccs-content.css');
    expect(docs.operations).toContain('GET /readyz');
    const foreign = docs.operations.filter(
      (op) =>
        !/^\w+ \/(api\/v3\/|content\/v1\/|public\/credit$|editor\/v1\/|design-preview\/v1\/|healthz|readyz|metrics|docs)/.test(
          op,
        ),
    );
    expect(foreign).toEqual([]);
    expect(docs.operations).toEqual(
      expect.arrayContaining([
        'GET /public/credit',
        'GET /editor/v1/ccs-editor.js',
        'GET /design-preview/v1/{design_id}/{file}',
      ]),
    );
    expect(docs.danglingRefs).toEqual([]);
  });

  test('when the served document is read, then no operation declares an Origin parameter that "Try it out" could never send', async () => {
    // Browsers refuse to let a page set Origin; a required Origin parameter made Swagger UI
    // refuse to send, or send without it and get 403. The rule is in the security scheme's text.
    const doc = (await (await fetch(`${service.url}/docs/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { parameters?: Array<{ name?: string; $ref?: string }> }>>;
      components: { securitySchemes: Record<string, { description?: string }> };
    };
    const declared = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).flatMap((op) =>
        (op.parameters ?? []).filter((p) => p.name === 'Origin' || p.$ref?.endsWith('/Origin')),
      ),
    );
    expect(declared).toEqual([]);
    expect(JSON.stringify(doc)).not.toContain('#/components/parameters/Origin');
    expect(doc.components.securitySchemes.whiteLabelToken!.description).toContain(
      'Sec-Fetch-Site: same-origin',
    );
  });
});
