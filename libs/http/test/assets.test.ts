import { request } from 'node:http';
import { contentHash, publicAssetsRouter } from '@catalogue/http';
import { serve, type TestServer } from './helpers';

/** fetch marks requests with If-None-Match as uncacheable, so revalidation is sent raw. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.once('error', reject);
    req.end();
  });
}

describe('publicAssetsRouter', () => {
  const script = Buffer.from('export const x = 1;\n');
  let loads = 0;
  let server: TestServer;
  beforeAll(async () => {
    server = await serve([
      publicAssetsRouter([
        {
          path: '/editor/v1/x.js',
          contentType: 'text/javascript; charset=utf-8',
          load: () => {
            loads += 1;
            return Promise.resolve(script);
          },
        },
      ]),
    ]);
  });
  afterAll(() => server.stop());

  test('when a page on any origin loads the asset, then it is served with CORS, nosniff and revalidation', async () => {
    const res = await fetch(`${server.url}/editor/v1/x.js`, { headers: { Origin: 'https://any.host.test' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(script.toString());
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300, must-revalidate');
    expect(res.headers.get('etag')).toBe(`"${contentHash(script)}"`);
  });

  test('when the URL carries the current content hash, then it is cached as immutable', async () => {
    const res = await fetch(`${server.url}/editor/v1/x.js?v=${contentHash(script)}`);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const stale = await fetch(`${server.url}/editor/v1/x.js?v=old`);
    expect(stale.headers.get('cache-control')).toBe('public, max-age=300, must-revalidate');
  });

  test('when the client has the current ETag, then 304 and the file is read once in all', async () => {
    const res = await rawGet(`${server.url}/editor/v1/x.js`, { 'If-None-Match': `"${contentHash(script)}"` });
    expect(res.status).toBe(304);
    expect(res.body).toBe('');
    expect(loads).toBe(1);
  });
});
