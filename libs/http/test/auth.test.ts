import { adminService } from '@catalogue/admin';
import { createKnex, tokensRepository, hashToken, type Knex } from '@catalogue/db';
import {
  apiRouter,
  eshopOf,
  NO_RATE_LIMITS,
  whiteLabelCors,
  whiteLabelRouter,
  WHITE_LABEL_TOKEN_HEADER,
} from '@catalogue/http';
import { makeEshop, testConfig } from '@catalogue/testing';
import { serve, type TestServer } from './helpers';

/** v1/v2 keep the specification's text for both cases; the code and the challenge tell them apart. */
const MISSING = { error: 'Authorization token required', code: 'token_missing' };
const INVALID = { error: 'Authorization token required', code: 'token_invalid' };

describe('auth middlewares', () => {
  let db: Knex;
  let server: TestServer;

  beforeAll(async () => {
    db = createKnex(testConfig().database);
    const deps = { db, config: { http: { bodyLimit: '1kb' } }, rateLimits: NO_RATE_LIMITS };
    const api = apiRouter(deps, { prefix: '/api' });
    api.get('/me', (ctx) => {
      ctx.body = { eshop_id: eshopOf(ctx).id };
    });
    api.post('/me', (ctx) => {
      ctx.body = { eshop_id: eshopOf(ctx).id, body: (ctx.request as { body?: unknown }).body };
    });
    const wl = whiteLabelRouter(deps, { prefix: '/wl' });
    wl.get('/me', (ctx) => {
      ctx.body = { eshop_id: eshopOf(ctx).id };
    });
    wl.post('/me', (ctx) => {
      ctx.body = { eshop_id: eshopOf(ctx).id };
    });
    server = await serve([api, wl], { middleware: [whiteLabelCors(deps, '/wl')] });
  });

  afterAll(async () => {
    await server.stop();
    await db.destroy();
  });

  describe('API token (v1/v2)', () => {
    test.each([
      ['no Authorization header', {}],
      ['another scheme', { Authorization: 'Basic dXNlcjpwYXNz' }],
      ['an empty bearer', { Authorization: 'Bearer ' }],
    ])('when the request has %s, then 401 token_missing with a Bearer challenge', async (_, headers) => {
      const res = await fetch(`${server.url}/api/me`, { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual(MISSING);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="catalogue"');
    });

    test('when the request has an unknown token, then 401 token_invalid with an invalid_token challenge', async () => {
      const res = await fetch(`${server.url}/api/me`, { headers: { Authorization: 'Bearer cat_unknown' } });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual(INVALID);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="catalogue", error="invalid_token"');
    });

    test('when the token is revoked, then 401', async () => {
      const shop = await makeEshop(db);
      const prefix = shop.apiToken.slice(0, 12);
      await adminService(db).revokeToken(shop.eshop.id, prefix);
      const res = await fetch(`${server.url}/api/me`, {
        headers: { Authorization: `Bearer ${shop.apiToken}` },
      });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual(INVALID);
    });

    test('when two eshops call with their tokens, then each request belongs to its own eshop', async () => {
      const a = await makeEshop(db);
      const b = await makeEshop(db);
      const asA = await fetch(`${server.url}/api/me`, { headers: { Authorization: `Bearer ${a.apiToken}` } });
      const asB = await fetch(`${server.url}/api/me`, { headers: { authorization: `bearer ${b.apiToken}` } });
      expect(await asA.json()).toEqual({ eshop_id: a.eshop.id });
      expect(await asB.json()).toEqual({ eshop_id: b.eshop.id });
    });

    test('when the body is malformed or too large but the token is missing, then 401 comes first', async () => {
      for (const body of ['{not json', JSON.stringify({ x: 'y'.repeat(5_000) })]) {
        const res = await fetch(`${server.url}/api/me`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body,
        });
        expect(res.status).toBe(401);
        expect(await res.json()).toEqual(MISSING);
      }
    });

    test('when an authenticated request has a malformed body, then 400; a valid one is parsed', async () => {
      const shop = await makeEshop(db);
      const headers = { Authorization: `Bearer ${shop.apiToken}`, 'Content-Type': 'application/json' };
      const bad = await fetch(`${server.url}/api/me`, { method: 'POST', headers, body: '{not json' });
      expect(bad.status).toBe(400);
      const good = await fetch(`${server.url}/api/me`, { method: 'POST', headers, body: '[{"id":"P1"}]' });
      expect(await good.json()).toEqual({ eshop_id: shop.eshop.id, body: [{ id: 'P1' }] });
    });

    test('when a white-label token is sent as a bearer token, then 401', async () => {
      const shop = await makeEshop(db);
      const res = await fetch(`${server.url}/api/me`, {
        headers: { Authorization: `Bearer ${shop.whiteLabelToken}` },
      });
      expect(res.status).toBe(401);
    });
  });

  describe('white-label token + Origin (v3)', () => {
    const ORIGIN = 'https://admin.shop-a.test';

    test('when the token is missing or unknown, then 401', async () => {
      const missing = await fetch(`${server.url}/wl/me`, { headers: { Origin: ORIGIN } });
      expect(missing.status).toBe(401);
      expect(await missing.json()).toEqual({ error: 'White-label token required', code: 'token_missing' });
      expect(missing.headers.get('www-authenticate')).toMatch(/^WhiteLabelToken realm="white-label"/);
      const unknown = await fetch(`${server.url}/wl/me`, {
        headers: { Origin: ORIGIN, [WHITE_LABEL_TOKEN_HEADER]: 'wl_nope' },
      });
      expect(unknown.status).toBe(401);
      expect(await unknown.json()).toEqual({ error: 'White-label token invalid', code: 'token_invalid' });
      expect(unknown.headers.get('www-authenticate')).toContain('error="invalid_token"');
    });

    test('when the Origin is missing, then 403', async () => {
      const shop = await makeEshop(db, { origins: [ORIGIN] });
      const res = await fetch(`${server.url}/wl/me`, {
        headers: { [WHITE_LABEL_TOKEN_HEADER]: shop.whiteLabelToken },
      });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: 'Origin header required', code: 'origin_forbidden' });
    });

    test('when a same-origin browser request has no Origin, then the service’s own origin is checked against the eshop’s allowed origins', async () => {
      // A browser leaves Origin out of a same-origin GET (the white-label /docs page's "Try it
      // out") and marks it with Sec-Fetch-Site, which no page can set.
      const docs = await makeEshop(db, { origins: [server.url] });
      const other = await makeEshop(db, { origins: [ORIGIN] });
      const sameOrigin = (token: string, site = 'same-origin') =>
        fetch(`${server.url}/wl/me`, {
          headers: { 'Sec-Fetch-Site': site, [WHITE_LABEL_TOKEN_HEADER]: token },
        });

      const allowed = await sameOrigin(docs.whiteLabelToken);
      const notAllowed = await sameOrigin(other.whiteLabelToken);
      const crossSite = await sameOrigin(docs.whiteLabelToken, 'cross-site');

      expect(allowed.status).toBe(200);
      expect(await allowed.json()).toEqual({ eshop_id: docs.eshop.id });
      expect(notAllowed.status).toBe(403);
      expect(await notAllowed.json()).toEqual({ error: 'Origin not allowed', code: 'origin_forbidden' });
      expect(crossSite.status).toBe(403);
      expect(await crossSite.json()).toEqual({ error: 'Origin header required', code: 'origin_forbidden' });
    });

    test.each([
      ['another host', 'https://evil.test'],
      ['another scheme', 'http://admin.shop-a.test'],
      ['another port', 'https://admin.shop-a.test:8443'],
      ['a subdomain', 'https://x.admin.shop-a.test'],
      ['garbage', 'null'],
    ])('when the Origin is %s, then 403 without CORS headers', async (_, origin) => {
      const shop = await makeEshop(db, { origins: [ORIGIN] });
      const res = await fetch(`${server.url}/wl/me`, {
        headers: { Origin: origin, [WHITE_LABEL_TOKEN_HEADER]: shop.whiteLabelToken },
      });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: 'Origin not allowed', code: 'origin_forbidden' });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    });

    test('when the Origin is allowed for another eshop only, then 403', async () => {
      const a = await makeEshop(db, { origins: ['https://only-a.test'] });
      const b = await makeEshop(db, { origins: ['https://only-b.test'] });
      const res = await fetch(`${server.url}/wl/me`, {
        headers: { Origin: 'https://only-a.test', [WHITE_LABEL_TOKEN_HEADER]: b.whiteLabelToken },
      });
      expect(res.status).toBe(403);
      const ok = await fetch(`${server.url}/wl/me`, {
        headers: { Origin: 'https://only-a.test', [WHITE_LABEL_TOKEN_HEADER]: a.whiteLabelToken },
      });
      expect(await ok.json()).toEqual({ eshop_id: a.eshop.id });
    });

    test('when token and Origin match, then the request passes with CORS headers for that origin', async () => {
      const shop = await makeEshop(db, { origins: [ORIGIN] });
      const res = await fetch(`${server.url}/wl/me`, {
        method: 'POST',
        headers: { Origin: ORIGIN, [WHITE_LABEL_TOKEN_HEADER]: shop.whiteLabelToken },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ eshop_id: shop.eshop.id });
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    });

    test('when the white-label token is revoked, then 401', async () => {
      const shop = await makeEshop(db, { origins: [ORIGIN] });
      const [token] = await tokensRepository.findActiveByPrefix(db, shop.eshop.id, 'wl_');
      await tokensRepository.revoke(db, shop.eshop.id, 'white-label', token!.id);
      expect(
        await tokensRepository.findEshopByTokenHash(db, 'white-label', hashToken(shop.whiteLabelToken)),
      ).toBeUndefined();
      const res = await fetch(`${server.url}/wl/me`, {
        headers: { Origin: ORIGIN, [WHITE_LABEL_TOKEN_HEADER]: shop.whiteLabelToken },
      });
      expect(res.status).toBe(401);
    });

    test('when a CORS preflight comes from an allowed origin, then it is answered with CORS headers', async () => {
      await makeEshop(db, { origins: ['https://preflight-ok.test'] });
      const res = await fetch(`${server.url}/wl/me`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://preflight-ok.test',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': `content-type,${WHITE_LABEL_TOKEN_HEADER}`,
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('https://preflight-ok.test');
      expect(res.headers.get('access-control-allow-headers')).toContain(WHITE_LABEL_TOKEN_HEADER);
    });

    test('when a CORS preflight comes from an origin no eshop allows, then 403 without CORS headers', async () => {
      const res = await fetch(`${server.url}/wl/me`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://nobody-allows-this.test', 'Access-Control-Request-Method': 'POST' },
      });
      expect(res.status).toBe(403);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    });
  });
});
