import { request } from 'node:http';
import { docsRouter } from '@catalogue/http';
import { parse } from 'yaml';
import { serve, type TestServer } from './helpers';

/**
 * A plain GET with the path sent exactly as written: fetch would normalise `..` away, and it
 * marks requests with If-None-Match as uncacheable (so a server rightly answers 200).
 */
function rawGet(
  url: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.once('error', reject);
    req.end();
  });
}

describe('docsRouter', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serve([docsRouter({ title: 'Catalogue <API> reference', operations: ['/api/v2/'] })]);
  });
  afterAll(() => server.stop());

  test('when /docs is requested without a token, then an HTML page loads Swagger UI and the document', async () => {
    const res = await fetch(`${server.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('<title>Catalogue &#60;API&#62; reference</title>');
    expect(html).toContain('href="/docs/assets/swagger-ui.css"');
    expect(html).toContain('src="/docs/assets/swagger-ui-bundle.js"');
    expect(html).toContain('src="/docs/assets/init.js"');
    // The start script is a file of its own: the page's CSP allows no inline script.
    expect(await (await fetch(`${server.url}/docs/assets/init.js`)).text()).toContain(
      "url: '/docs/openapi.yaml'",
    );
  });

  test.each([
    ['swagger-ui.css', /^text\/css/],
    ['swagger-ui-bundle.js', /^application\/javascript/],
    ['favicon-32x32.png', /^image\/png/],
  ])('when the asset %s is requested, then it is served with its content type', async (file, type) => {
    const res = await fetch(`${server.url}/docs/assets/${file}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(type);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  test('when the bundle is served, then it is the Swagger UI bundle', async () => {
    const res = await fetch(`${server.url}/docs/assets/swagger-ui-bundle.js`);
    expect(await res.text()).toContain('SwaggerUIBundle');
  });

  test.each([
    '/docs/assets/../../package.json',
    '/docs/assets/..%2F..%2Fpackage.json',
    '/docs/assets/%2e%2e%2f%2e%2e%2fpackage.json',
    '/docs/assets/package.json',
    '/docs/assets/index.html',
    '/docs/assets/swagger-ui.js.map',
    '/docs/assets/__proto__',
    '/docs/assets/constructor',
  ])('when %s is requested, then 404 (only allow-listed assets are served)', async (path) => {
    const res = await rawGet(server.url, path);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toEqual({ error: 'Not found', code: 'not_found' });
  });

  test('when the YAML and the JSON document are fetched, then they are the same OpenAPI 3.1 document', async () => {
    const yamlRes = await fetch(`${server.url}/docs/openapi.yaml`);
    expect(yamlRes.status).toBe(200);
    expect(yamlRes.headers.get('content-type')).toMatch(/^application\/yaml/);
    const jsonRes = await fetch(`${server.url}/docs/openapi.json`);
    expect(jsonRes.status).toBe(200);
    expect(jsonRes.headers.get('content-type')).toMatch(/^application\/json/);

    const fromYaml = parse(await yamlRes.text()) as { openapi: string; paths: Record<string, unknown> };
    expect(fromYaml.openapi).toBe('3.1.0');
    expect(fromYaml.paths['/docs/openapi.yaml']).toBeDefined();
    expect(await jsonRes.json()).toEqual(fromYaml);
  });

  test.each(['/docs/openapi.yaml', '/docs/openapi.json'])(
    'when %s is fetched again with its ETag, then 304 without a body',
    async (path) => {
      const first = await fetch(`${server.url}${path}`);
      await first.arrayBuffer();
      expect(first.headers.get('cache-control')).toBe('no-cache');
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^"[^"]+"$/);

      const again = await rawGet(server.url, path, { 'If-None-Match': etag! });
      expect(again.status).toBe(304);
      expect(again.body).toBe('');

      const stale = await rawGet(server.url, path, { 'If-None-Match': '"stale"' });
      expect(stale.status).toBe(200);
      expect(stale.body.length).toBeGreaterThan(0);
    },
  );
});

describe('docsRouter with a document that cannot be read', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serve([docsRouter({ documentPath: '/nonexistent/openapi.yaml', operations: [] })]);
  });
  afterAll(() => server.stop());

  test('when the document is missing, then 500 without internals', async () => {
    const res = await fetch(`${server.url}/docs/openapi.yaml`);
    expect(res.status).toBe(500);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.error).toBe('Internal server error');
    expect(JSON.stringify(body)).not.toContain('nonexistent');
  });
});
