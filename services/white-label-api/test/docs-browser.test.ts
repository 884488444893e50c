// "Try it out" on the white-label /docs page, in Chromium: the browser decides which headers a
// same-origin call carries (no Origin on a GET, Sec-Fetch-Site instead), exactly as Swagger UI's
// calls from that page do.
import { launchBrowser } from '@catalogue/testing';
import type { Browser } from 'playwright-core';
import { editorService } from './editor-client';

describe('white-label-api: calls from its own /docs page in Chromium', () => {
  const service = editorService();
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(() => browser?.close());

  /** Calls `path` from the /docs page as Swagger UI does: fetch with the token header only. */
  async function fromDocsPage(token: string, method: string, path: string) {
    const page = await browser.newPage();
    try {
      const opened = await page.goto(`${service.url}/docs`);
      expect(opened?.status()).toBe(200);
      return await page.evaluate(
        async ({ token, method, path }) => {
          const res = await fetch(path, { method, headers: { 'service-white-label-token': token } });
          return { status: res.status, body: (await res.json()) as unknown };
        },
        { token, method, path },
      );
    } finally {
      await page.close();
    }
  }

  test('when the eshop allows the service’s own origin, then GET and POST from /docs pass', async () => {
    const shop = await service.shop({ origins: [service.url] });

    const credit = await fromDocsPage(shop.token, 'GET', '/api/v3/white-label/credit');
    const licence = await fromDocsPage(shop.token, 'POST', '/api/v3/white-label/check-license');

    expect(credit.status).toBe(200);
    expect(licence.status).toBe(200);
  }, 60_000);

  test('when the eshop does not allow the service’s origin, then calls from /docs are 403 origin_forbidden', async () => {
    const shop = await service.shop();

    const credit = await fromDocsPage(shop.token, 'GET', '/api/v3/white-label/credit');
    const licence = await fromDocsPage(shop.token, 'POST', '/api/v3/white-label/check-license');

    expect(credit).toEqual({ status: 403, body: { error: 'Origin not allowed', code: 'origin_forbidden' } });
    expect(licence).toEqual({ status: 403, body: { error: 'Origin not allowed', code: 'origin_forbidden' } });
  }, 60_000);
});
