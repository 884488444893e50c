// The content stylesheet as a storefront loads it: from either API, from any origin, cached for a
// year under its versioned URL and revalidated cheaply under the plain one. Every response is
// checked against docs/openapi.yaml.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { CONTENT_STYLESHEET_FILE, CONTENT_STYLESHEET_PATH } from '@catalogue/content';
import { contentStylesheetHref } from '@catalogue/http';
import { expectMatchesContract, serveServiceForTests } from '@catalogue/testing';
import { catalogueApi } from '../services/catalogue-api/src/service';
import { whiteLabelApi } from '../services/white-label-api/src/service';

/** fetch marks requests with If-None-Match as uncacheable, so revalidation is sent raw. */
function rawGet(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', reject);
    req.end();
  });
}

const services = [
  ['catalogue-api', serveServiceForTests(catalogueApi)],
  ['white-label-api', serveServiceForTests(whiteLabelApi)],
] as const;

describe.each(services)('%s serves /content/v1/ccs-content.css', (_name, service) => {
  const file = readFileSync(CONTENT_STYLESHEET_FILE, 'utf8');

  const get = async (path: string) => {
    // A storefront's <link> from another origin, without any token.
    const res = await fetch(`${service.url}${path}`, { headers: { Origin: 'https://shop.example' } });
    const text = await res.text();
    expectMatchesContract('GET', path, res.status, text, res.headers.get('content-type'));
    return { res, text };
  };

  test('when a storefront on any origin loads it, then it gets the file as CSS with CORS and a short revalidated cache', async () => {
    const { res, text } = await get(CONTENT_STYLESHEET_PATH);
    expect(res.status).toBe(200);
    expect(text).toBe(file);
    expect(res.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300, must-revalidate');
    expect(res.headers.get('etag')).toMatch(/^"[\w-]{16}(-br|-gz)?"$/);
  });

  test('when it is loaded under its versioned URL, then it is cached for a year, and a current ETag gets 304', async () => {
    const href = await contentStylesheetHref();
    expect(href).toMatch(/^\/content\/v1\/ccs-content\.css\?v=[\w-]{16}$/);
    const { res, text } = await get(href);
    expect(text).toBe(file);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = res.headers.get('etag') ?? '';
    expect(etag).toMatch(new RegExp(`^"${href.split('?v=')[1]}(-br|-gz)?"$`));
    const status = await rawGet(`${service.url}${CONTENT_STYLESHEET_PATH}`, { 'If-None-Match': etag });
    expect(status).toBe(304);
    expectMatchesContract('GET', CONTENT_STYLESHEET_PATH, status, undefined, null);
  });
});

test('when the API lives on another origin, then the versioned URL is absolute on it', async () => {
  expect(await contentStylesheetHref('https://wl.example.com/')).toMatch(
    /^https:\/\/wl\.example\.com\/content\/v1\/ccs-content\.css\?v=[\w-]{16}$/,
  );
});
