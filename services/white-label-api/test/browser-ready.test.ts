// A host page calls v3 from the browser: every answer it can get (errors too) must carry the
// CORS headers for an origin some eshop allows, or the page sees only "Failed to fetch".
import { WHITE_LABEL_TOKEN_HEADER } from '@catalogue/http';
import { BASE, editorService, EXPIRED, ORIGIN } from './editor-client';

const service = editorService();
const FOREIGN = 'https://nobody-allows-this.test';

async function raw(path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  const res = await fetch(`${service.url}${BASE}${path}`, init);
  const text = await res.text();
  return { res, status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

describe('v3 from a browser', () => {
  describe('every answer to an allowed origin carries CORS headers', () => {
    test.each([
      ['no token', {}, 401],
      ['an unknown token', { [WHITE_LABEL_TOKEN_HEADER]: 'wl_unknown' }, 401],
    ])('when the request has %s, then %s with Access-Control-Allow-Origin', async (_, headers, status) => {
      await service.shop();
      const { res, body } = await raw('/entity', { headers: { Origin: ORIGIN, ...headers } });
      expect(res.status).toBe(status);
      expect(body).toHaveProperty('error');
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(res.headers.get('vary')).toMatch(/origin/i);
    });

    test('when the licence is not valid, then 403 with Access-Control-Allow-Origin', async () => {
      const shop = await service.shop(EXPIRED);
      const res = await shop.get('/entity');
      expect(res.status).toBe(403);
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    });

    test('when the origin is allowed by another eshop only, then 403 with its CORS header', async () => {
      await service.shop();
      const other = await service.shop({ origins: ['https://other-admin.test'] });
      const res = await other.get('/entity');
      expect(res.status).toBe(403);
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    });

    test('when the body is invalid or too large, then 422/413 with Access-Control-Allow-Origin', async () => {
      const shop = await service.shop();
      const invalid = await shop.post('/register-entity', { entity_id: '', type: 'nope' });
      expect(invalid.status).toBe(422);
      expect(invalid.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      const large = await raw('/register-entity', {
        method: 'POST',
        headers: {
          Origin: ORIGIN,
          [WHITE_LABEL_TOKEN_HEADER]: shop.token,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ entity_id: 'x'.repeat(6_000_000) }),
      });
      expect(large.status).toBe(413);
      expect(large.res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    });

    test('when an origin no eshop allows calls, then no CORS header on any answer', async () => {
      const shop = await service.shop();
      const ok = await shop.get('/entity', { origin: FOREIGN });
      expect(ok.status).toBe(403);
      expect(ok.headers.get('access-control-allow-origin')).toBeNull();
      const missing = await raw('/no-such-thing', { headers: { Origin: FOREIGN } });
      expect(missing.status).toBe(404);
      expect(missing.res.headers.get('access-control-allow-origin')).toBeNull();
    });
  });

  describe('unknown paths and methods', () => {
    test.each(['/no-such-thing', '/entity/P1', '/content/P1/type/product/extra', '/design/abc/structure/x'])(
      'when %s is asked for, then 404 JSON with CORS headers, with or without a token',
      async (path) => {
        const shop = await service.shop();
        const variants: Record<string, string>[] = [
          { Origin: ORIGIN },
          { Origin: ORIGIN, [WHITE_LABEL_TOKEN_HEADER]: shop.token },
        ];
        for (const headers of variants) {
          const { res, body } = await raw(path, { headers });
          expect(res.status).toBe(404);
          expect(res.headers.get('content-type')).toMatch(/application\/json/);
          expect(body).toEqual({ error: 'Not found', code: 'not_found' });
          expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
        }
      },
    );

    test.each([
      ['PATCH', '/content/P1/type/product', ['DELETE', 'GET', 'POST', 'PUT'], false],
      ['DELETE', '/entity', ['GET'], false],
      ['GET', '/check-license', ['POST'], false],
      ['PUT', '/register-entity', ['POST'], false],
      ['POST', '/generate/5', ['GET'], false],
      ['DELETE', '/content/P1/type/product', ['GET', 'POST', 'PUT'], true],
    ])('when %s %s is sent, then 405 with Allow and CORS headers', async (method, path, allow, onlyThese) => {
      const shop = await service.shop();
      const { res, body } = await raw(path, {
        method,
        headers: { Origin: ORIGIN, [WHITE_LABEL_TOKEN_HEADER]: shop.token },
      });
      expect(res.status).toBe(405);
      expect(body).toEqual({ error: 'Method not allowed', code: 'method_not_allowed' });
      const allowed = (res.headers.get('allow') ?? '')
        .split(/,\s*/)
        .filter((m) => m !== 'HEAD' && m !== 'OPTIONS');
      if (onlyThese) expect(allowed.sort()).toEqual(allow);
      else for (const m of allow) if (m !== 'DELETE' || method !== 'PATCH') expect(allowed).toContain(m);
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    });
  });

  describe('preflight', () => {
    const preflight = (path: string, origin: string) =>
      fetch(`${service.url}${BASE}${path}`, {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'PUT',
          'Access-Control-Request-Headers': `content-type,${WHITE_LABEL_TOKEN_HEADER}`,
        },
      });

    test('when an allowed origin preflights any path under the prefix, then 204 with the allowed methods and headers', async () => {
      await service.shop();
      for (const path of ['/content/P1/type/product', '/mistyped']) {
        const res = await preflight(path, ORIGIN);
        expect(res.status).toBe(204);
        expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
        expect(res.headers.get('access-control-allow-methods')).toContain('PUT');
        expect(res.headers.get('access-control-allow-headers')).toContain(WHITE_LABEL_TOKEN_HEADER);
        expect(res.headers.get('access-control-max-age')).toBe('600');
      }
    });

    test('when an origin no eshop allows preflights, then 403 JSON without CORS headers', async () => {
      const res = await preflight('/content/P1/type/product', FOREIGN);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: 'Origin not allowed', code: 'origin_forbidden' });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    });
  });

  test('when a browser reads the answer, then it may read the request id and Retry-After', async () => {
    const shop = await service.shop();
    const res = await shop.get('/entity');
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase();
    expect(exposed).toContain('x-request-id');
    expect(exposed).toContain('retry-after');
  });
});
