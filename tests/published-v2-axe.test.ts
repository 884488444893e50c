// What a storefront reads from v2 passes the accessibility checks it runs: a product imported
// with a Word description and images without alt texts, then given every widget of the
// catalogue and a video through the editor's API, is read back from `GET /api/v2/rest/products`
// (`content.html` and `marketplace`, every language) and checked with axe-core in Chromium:
// no serious or critical finding, words on every content image and frame, no Office markup.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { CONTENT_STYLESHEET_FILE } from '@catalogue/content';
import type { Schemas } from '@catalogue/client';
import { eventually, launchBrowser, makeEshop } from '@catalogue/testing';
import { shopCallers, useFullStack } from './full-stack';

const PREFIX = `${process.env.TEST_QUEUE_PREFIX}-published-axe`;
const ORIGIN = 'https://admin.axe.test';
const WORD = readFileSync(join(__dirname, '../libs/content/test/fixtures/word-paste.html'), 'utf8');
const CSS = readFileSync(CONTENT_STYLESHEET_FILE, 'utf8');
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

jest.setTimeout(120_000);

describe('published v2 content of every widget type passes axe', () => {
  const { wl, catalogue } = useFullStack(PREFIX);
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  test('when a Word description, images without alt and every widget are published, then v2 html and marketplace have no serious finding', async () => {
    const shop = await makeEshop(wl.deps.db, { origins: [ORIGIN], languages: ['default', 'cs'] });
    const { host, backOffice } = shopCallers({ wl: wl.url, catalogue: catalogue.url }, shop, ORIGIN);

    const imported = await backOffice('POST', '/api/v2/rest/products', [
      {
        id: 'AXE-1',
        name: { default: 'Storm jacket', cs: 'Bunda Storm' },
        description: {
          default: WORD,
          cs: '<p class="MsoNormal">Nepromokavá bunda<o:p></o:p></p><p>&nbsp;</p>',
        },
        images: ['https://cdn.axe.test/jacket-1.jpg', 'https://cdn.axe.test/jacket-2.jpg'],
        url: { default: 'https://shop.axe.test/jacket' },
      },
    ]);
    expect(imported.status).toBe(200);
    await eventually(async () => {
      expect(await wl.deps.db('products').where({ eshop_id: shop.eshop.id }).pluck('status')).toEqual([
        'ready',
      ]);
    }, 20_000);

    // Every widget of the catalogue, from the item's data; the video gets a link.
    expect(
      (await host('POST', '/register-entity', { entity_id: 'AXE-1', type: 'product', title: 'Storm jacket' }))
        .status,
    ).toBe(201);
    const widgets = (await host('GET', '/widget')).body.data;
    let tree: Schemas['WlContentWidget'][] = [];
    for (const widget of widgets) {
      const added = await host('POST', '/content/AXE-1/type/product', { widget_id: widget.id });
      expect(added.status).toBe(200);
      tree = added.body;
    }
    const video = tree.find((w) => w.children.some((e) => e.tag === 'iframe'))!;
    const frame = video.children.find((e) => e.tag === 'iframe')!;
    const put = await host('PUT', '/content/AXE-1/type/product', {
      [video.id]: {
        children: [{ id: frame.id, extension: { src: 'https://youtu.be/M7lc1UVf-VE' } }],
      },
    });
    expect(put.status).toBe(200);

    const listed = await backOffice('GET', '/api/v2/rest/products?lang=all&include=marketplace');
    expect(listed.status).toBe(200);
    const item = listed.body.data.find((i) => i.id === 'AXE-1')!;
    const page = await (await browser.newContext()).newPage();
    await page.route('**/*', (route) =>
      route.request().resourceType() === 'image'
        ? route.fulfill({ status: 200, contentType: 'image/png', body: PNG })
        : route.fulfill({
            status: 200,
            contentType: 'text/html',
            body: '<!doctype html><title>player</title>',
          }),
    );
    const found: string[] = [];
    for (const lang of ['default', 'cs']) {
      const html = item.content.html[lang]!;
      const marketplace = item.content.marketplace![lang]!;
      expect(html).toContain('<iframe');
      expect(html).not.toMatch(
        /Mso|mso-|o:p|style=|<table[^>]*Mso|clip_image|<p>\s*(&nbsp;|\u00a0)?\s*<\/p>/,
      );
      for (const img of html.match(/<img[^>]*>/g) ?? [])
        if (!/__icon/.test(img)) expect(img).toMatch(/ alt="[^"]+"/);
      for (const iframe of html.match(/<iframe[^>]*>/g) ?? []) expect(iframe).toMatch(/ title="[^"]+"/);
      for (const [name, body] of [
        ['html', html],
        ['marketplace', marketplace],
      ] as const) {
        await page.setContent(
          `<!doctype html><html lang="${lang === 'default' ? 'en' : lang}"><head><meta charset="utf-8">` +
            `<title>Storm jacket</title><style>${CSS}</style></head><body><main><h1>Storm jacket</h1>${body}</main></body></html>`,
        );
        const result = await new AxeBuilder({ page }).analyze();
        for (const v of result.violations)
          if (v.impact === 'serious' || v.impact === 'critical')
            found.push(`${name}.${lang} ${v.id}: ${v.nodes.map((n) => n.html.slice(0, 100)).join(' | ')}`);
      }
    }
    expect(found).toEqual([]);
  });
});
