// A design's thumbnail and preview page open in a browser without the token (an <img> cannot
// send it), only under the URL the design list gives, and are cacheable.
import { checkedFetch, expectMatchesContract } from '@catalogue/testing';
import { editorService } from './editor-client';
import { insertDesign } from './design-fixtures';

const service = editorService();

describe('design preview files', () => {
  test('when the listed image_preview and preview_url are opened without a token, then an SVG of the layout and an HTML page answer', async () => {
    const shop = await service.shop();
    const classic = (await shop.get('/design?type=product')).body.data.find(
      (d) => d.name === 'Classic product',
    );
    if (!classic) throw new Error('no Classic product design');
    const svg = await fetch(classic.image_preview);
    expectMatchesContract(
      'GET',
      new URL(classic.image_preview).pathname,
      svg.status,
      await svg.clone().text(),
      svg.headers.get('content-type'),
    );
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('access-control-allow-origin')).toBe('*');
    expect(svg.headers.get('cache-control')).toBe('public, max-age=86400');
    const drawing = await svg.text();
    expect(drawing).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(drawing).toContain('<title>Classic product</title>');
    expect(drawing).not.toMatch(/<script|on\w+=/i);

    const page = await fetch(classic.preview_url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const text = await page.text();
    expect(text).toContain('<link rel="stylesheet" href="/content/v1/ccs-content.css" />');
    expect(text).toContain((await shop.get(`/design/${classic.id}/preview`)).body.data.html);

    // fetch() adds `Cache-Control: no-cache` to a conditional request unless told otherwise.
    const again = await fetch(classic.image_preview, {
      headers: { 'If-None-Match': svg.headers.get('etag')!, 'Cache-Control': 'max-age=0' },
    });
    expect(again.status).toBe(304);
  });

  test("when the hash is wrong, or the path is not a preview file, then 404 — another eshop's custom design is not reachable by its id", async () => {
    const other = await service.shop();
    const theirs = await insertDesign(service.deps.db, { eshopId: other.id, category: 'product' });
    try {
      const listed = (await other.get('/design?type=product')).body.data.find((d) => d.id === theirs);
      if (!listed) throw new Error('the custom design is not listed');
      expect((await fetch(listed.image_preview)).status).toBe(200);
      for (const path of [
        `/design-preview/v1/${theirs}/${'0'.repeat(64)}.svg`,
        `/design-preview/v1/${theirs}/${listed.hash}.png`,
        `/design-preview/v1/0/${listed.hash}.svg`,
        `/design-preview/v1/${theirs}/..%2F${listed.hash}.svg`,
      ]) {
        const res = await fetch(`${service.url}${path}`);
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
      }
    } finally {
      await service.deps.db('designs').where({ id: theirs }).delete();
    }
  });

  test('when the editor bundle is asked for from any origin, then it is served as a module with CORS and an ETag', async () => {
    const res = await checkedFetch<string>(`${service.url}/editor/v1/ccs-editor.js`, {
      headers: { Origin: 'https://any-host.test' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.text).toContain('ccs-editor');
    expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{16}(-br|-gz)?"$/);
  });
});
