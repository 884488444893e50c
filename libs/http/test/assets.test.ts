import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { contentHash, publicAssetsRouter } from '@catalogue/http';
import { serve, type TestServer } from './helpers';

/** fetch marks requests with If-None-Match as uncacheable, so revalidation is sent raw. */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{
  status: number;
  body: string;
  bytes: Buffer;
  headers: Record<string, string | string[] | undefined>;
}> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, body: bytes.toString('utf8'), bytes, headers: res.headers });
      });
    });
    req.once('error', reject);
    req.end();
  });
}

describe('publicAssetsRouter', () => {
  const script = Buffer.from(
    `export const x = 1;\n${'export const words = "a repeated line";\n'.repeat(50)}`,
  );
  let loads = 0;
  let server: TestServer;
  beforeAll(async () => {
    server = await serve([
      publicAssetsRouter([
        {
          path: '/editor/v1/x.js',
          hashedPath: '/editor/v1/x.:hash.js',
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
    expect(res.headers.get('etag')).toMatch(new RegExp(`^"${contentHash(script)}(-br|-gz)?"$`));
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

  test('when the client accepts brotli, then the bytes come brotli-compressed, with Vary and an ETag of their own', async () => {
    const res = await rawGet(`${server.url}/editor/v1/x.js`, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/Accept-Encoding/);
    expect(res.headers.etag).toBe(`"${contentHash(script)}-br"`);
    expect(res.bytes.length).toBeLessThan(script.length / 4);
    expect(brotliDecompressSync(res.bytes).equals(script)).toBe(true);
    const again = await rawGet(`${server.url}/editor/v1/x.js`, {
      'Accept-Encoding': 'br',
      'If-None-Match': `"${contentHash(script)}-br"`,
    });
    expect(again.status).toBe(304);
  });

  test('when the client accepts gzip only, then gzip; when it accepts none, then the plain bytes', async () => {
    const gz = await rawGet(`${server.url}/editor/v1/x.js`, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.bytes).equals(script)).toBe(true);
    const plain = await rawGet(`${server.url}/editor/v1/x.js`, { 'Accept-Encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);
    expect(plain.bytes.equals(script)).toBe(true);
  });

  test('when the content-hashed URL is asked for, then it is immutable, and the stable URL names it', async () => {
    const hash = contentHash(script);
    const stable = await rawGet(`${server.url}/editor/v1/x.js`, {});
    expect(stable.headers.link).toBe(`</editor/v1/x.${hash}.js>; rel="canonical"`);
    const hashed = await rawGet(`${server.url}/editor/v1/x.${hash}.js`, { 'Accept-Encoding': 'br' });
    expect(hashed.status).toBe(200);
    expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(hashed.headers['access-control-allow-origin']).toBe('*');
    expect(brotliDecompressSync(hashed.bytes).equals(script)).toBe(true);
    // A page cached across a deployment asks for the previous hash: it gets today's bytes, not cached for long.
    const stale = await rawGet(`${server.url}/editor/v1/x.AAAAAAAAAAAAAAAA.js`, {});
    expect(stale.status).toBe(200);
    expect(stale.headers['cache-control']).toBe('public, max-age=300, must-revalidate');
  });
});
