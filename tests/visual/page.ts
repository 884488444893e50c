/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Code passed to page.evaluate runs in the browser: the DOM types describe it.
/**
 * A storefront page in headless Chromium, with no network: the page, the stylesheet, the images
 * and the video player are answered by request routes, anything else is refused.
 */
import { readFileSync } from 'node:fs';
import { CONTENT_STYLESHEET_FILE, CONTENT_STYLESHEET_PATH } from '@catalogue/content';
import { launchBrowser } from '@catalogue/testing';
import type { Browser, Page, Route } from 'playwright-core';

const ORIGIN = 'https://shop.test';
const API = 'https://api.shop.test';

export interface HostPage {
  lang: 'default' | 'cs';
  /** The rendered content (site links and widgets). */
  body: string;
  /** The host's own CSS, loaded after the content stylesheet (so it wins every tie). */
  hostCss?: string;
  withStylesheet?: boolean;
}

export function pageHtml({ lang, body, hostCss = '', withStylesheet = true }: HostPage): string {
  const link = withStylesheet ? `<link rel="stylesheet" href="${API}${CONTENT_STYLESHEET_PATH}">` : '';
  return `<!doctype html>
<html lang="${lang === 'default' ? 'en' : lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sample product</title>
${link}
<style>${hostCss}</style>
</head>
<body>${body}</body>
</html>`;
}

/** A placeholder picture of the size the URL names (`/800x600/photo-1.png`), as SVG. */
function placeholder(url: string): string {
  const [, w = '800', h = '600', name = ''] = /\/(\d+)x(\d+)\/([\w-]+)/.exec(new URL(url).pathname) ?? [];
  const label = name.replace(/-/g, ' ').replace(/\.png$/, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#c9d6e3"/><stop offset="1" stop-color="#8fa6bd"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>
<circle cx="50%" cy="45%" r="${Math.min(+w, +h) / 6}" fill="#ffffff" fill-opacity="0.55"/>
<text x="50%" y="${+h > 100 ? '82%' : '62%'}" font-family="sans-serif" font-size="${Math.max(+h / 10, 14)}" text-anchor="middle" fill="#1f2d3a">${label}</text>
</svg>`;
}

const PLAYER = `<!doctype html><html lang="en"><head><title>Video player</title></head>
<body style="margin:0;height:100vh;display:grid;place-items:center;background:#16191d;color:#fff;font:18px sans-serif">
<p>&#9654; Video player</p></body></html>`;

/** Opens the page at a viewport width, with every image and video frame loaded (lazy ones too). */
export async function openPage(browser: Browser, html: string, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const css = readFileSync(CONTENT_STYLESHEET_FILE);
  await page.route('**/*', (route: Route) => {
    const url = route.request().url();
    const fulfil = (contentType: string, body: string | Buffer) =>
      route.fulfill({ status: 200, contentType, body });
    if (url === `${ORIGIN}/`) return fulfil('text/html; charset=utf-8', html);
    if (url.startsWith(`${API}${CONTENT_STYLESHEET_PATH}`)) return fulfil('text/css; charset=utf-8', css);
    if (url.startsWith('https://img.shop.test/')) return fulfil('image/svg+xml', placeholder(url));
    if (url.startsWith('https://www.youtube-nocookie.com/embed/'))
      return fulfil('text/html; charset=utf-8', PLAYER);
    return route.abort();
  });
  await page.goto(`${ORIGIN}/`);
  await page.evaluate(async () => {
    const images = [...document.images];
    for (const img of images) img.loading = 'eager';
    for (const frame of document.querySelectorAll('iframe')) frame.loading = 'eager';
    await Promise.all(images.map((img) => img.decode().catch(() => undefined)));
  });
  for (const frame of await page.locator('iframe').all()) await frame.contentFrame().locator('p').waitFor();
  return page;
}

/** One Chromium for the tests of the enclosing describe block. */
export function useBrowser(): { readonly browser: Browser } {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    get browser() {
      if (!browser) throw new Error('the browser runs inside tests and hooks only');
      return browser;
    },
  };
}

/** `fn` on the page opened at a width (see openPage); the page's context is closed afterwards. */
export async function onPage<T>(
  browser: Browser,
  html: string,
  width: number,
  fn: (page: Page) => Promise<T>,
): Promise<T> {
  const page = await openPage(browser, html, width);
  try {
    return await fn(page);
  } finally {
    await page.context().close();
  }
}
