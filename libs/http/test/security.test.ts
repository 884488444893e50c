import { docsRouter } from '@catalogue/http';
import { serve, type TestServer } from './helpers';

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
