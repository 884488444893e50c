import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import koaHelmet from 'koa-helmet';
import { docsRouter } from '@catalogue/http';
import { API_HELMET_OPTIONS } from '../src/middleware/security';
import { serve, type TestServer } from './helpers';

/** The headers koa-helmet itself sets with the API's options, on a bare Koa app. */
async function helmetsOwnHeaders(): Promise<Record<string, string>> {
  const app = new Koa();
  app.use(koaHelmet(API_HELMET_OPTIONS));
  app.use((ctx) => {
    ctx.body = 'ok';
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await res.text();
    const plain = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);
    return Object.fromEntries([...res.headers].filter(([name]) => !plain.has(name)));
  } finally {
    server.close();
  }
}

describe('security headers', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await serve([docsRouter({ operations: ['/api/v2/'] })]);
  });

  afterAll(() => server.stop());

  test.each(['/healthz', '/no-such-route'])(
    'when %s answers JSON, then it is not sniffed, sends no referrer and may not be framed',
    async (path) => {
      const res = await fetch(`${server.url}${path}`);

      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    },
  );

  test('when any answer is sent, then its security headers are exactly the ones helmet sets with the API options', async () => {
    const expected = await helmetsOwnHeaders();
    const res = await fetch(`${server.url}/healthz`);

    expect(Object.keys(expected).length).toBeGreaterThanOrEqual(10);
    const sent = Object.fromEntries(Object.keys(expected).map((name) => [name, res.headers.get(name)]));
    expect(sent).toEqual(expected);
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  test('when /docs is served, then its policy allows its own scripts only and framing by itself only, and the page has no inline script', async () => {
    const res = await fetch(`${server.url}/docs`);
    const html = await res.text();

    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).not.toContain("script-src 'self' 'unsafe-inline'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(html.match(/<script(?![^>]*\ssrc=)[^>]*>/g)).toBeNull();
    expect((await fetch(`${server.url}/docs/assets/init.js`)).status).toBe(200);
  });
});
