/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Code passed to page.evaluate runs in the browser: the DOM types describe it.
//
// ccs-content.css inside a storefront whose own CSS is hostile to embedded content (rules on `*`,
// `img`, `h2`, `div`, tables, lists, loaded AFTER the stylesheet so they win every tie): the
// widgets keep the layout they have on a plain page, and nothing outside the content changes.
import type { Page } from 'playwright-core';
import { onPage, pageHtml, useBrowser } from './page';
import { sampleHtml } from './samples';

const AGGRESSIVE_CSS = `
* { margin: 12px; padding: 6px; box-sizing: content-box; border: 1px dotted #999; color: #c00;
    background: #ffe; line-height: 2.4; letter-spacing: 0.08em; word-spacing: 0.3em;
    text-transform: uppercase; text-align: right; font-weight: 300; font-style: oblique; }
img { width: 100%; height: 300px; border: 6px solid #000; object-fit: fill; }
h2 { font-size: 4rem; margin: 2em 0; text-decoration: underline; }
h3 { font-size: 3rem; }
p { font-size: 1.5em; margin: 3em 0; }
ul, ol { list-style: square; padding: 4em; }
li { display: inline-block; width: 40%; }
div { display: inline; }
section { display: flex; padding: 40px; }
table { width: 50%; border: 4px double; }
th, td { padding: 20px; text-align: right; }
a { color: hotpink; font-size: 2em; }
details, summary { display: block; }
iframe { width: 200px; height: 100px; }
figure, blockquote { margin: 5em; }
`;

/** The host's own page around the content, with look-alike class names outside any widget. */
const HOST_MARKUP = {
  before: `<header><nav><ul><li><a href="https://shop.test/">Home</a></li><li><a href="https://shop.test/bags">Bags</a></li></ul></nav></header>
<h1>City backpack</h1><p class="price">59 €</p><img src="https://img.shop.test/400x300/host-photo.png" alt="Host photo">
<div class="ccs-gallery__list"><h2 class="ccs-faq__question">Not a widget</h2><p class="ccs-cta__text">Host text</p></div>`,
  after: `<section><h2>Reviews</h2><details><summary>Open</summary><p>Host answer</p></details>
<table><tr><th>Size</th><td>M</td></tr></table><blockquote>Host quote</blockquote><button>Add to basket</button></section>`,
};

function page(width: number, hostCss: string, withStylesheet = true): string {
  const { nav, content } = sampleHtml('default');
  return pageHtml({
    lang: 'default',
    withStylesheet,
    hostCss: `body { font-family: sans-serif; } main { display: block; width: ${width - 40}px; } ${hostCss}`,
    body: `${HOST_MARKUP.before}<main>${nav}${content}</main>${HOST_MARKUP.after}`,
  });
}

/** Every element of the content, its box relative to its widget (or the site-link navigation). */
function contentBoxes(p: Page): Promise<Record<string, number[]>> {
  return p.evaluate(() => {
    const out: Record<string, number[]> = {};
    document.querySelectorAll('.ccs-widget, .ccs-site-link').forEach((root, w) => {
      const origin = root.getBoundingClientRect();
      [root, ...root.querySelectorAll('*')].forEach((el, i) => {
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) return; // not shown (e.g. the comparison's corner on a phone)
        const key = `${w}:${i} ${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`;
        out[key] = [r.left - origin.left, r.top - origin.top, r.width, r.height].map((n) => Math.round(n));
      });
    });
    return out;
  });
}

/** Computed styles of every element outside the content and of its pseudo-elements, as `name:value;…`. */
function hostStyles(p: Page): Promise<Record<string, string>> {
  return p.evaluate(() => {
    // Ancestors of the content grow with it: their size-derived values are not the stylesheet's doing.
    const SIZE_DERIVED = new Set(['height', 'block-size', 'transform-origin', 'perspective-origin']);
    const out: Record<string, string> = {};
    // The page's elements (the head differs by the stylesheet's <link> itself).
    [document.documentElement, document.body, ...document.body.querySelectorAll('*')].forEach((el, i) => {
      if (el.closest('.ccs-widget, .ccs-site-link')) return;
      const holdsContent = el.querySelector('.ccs-widget, .ccs-site-link') !== null;
      for (const pseudo of [null, '::before', '::after', '::marker']) {
        const style = getComputedStyle(el, pseudo);
        let values = '';
        for (let k = 0; k < style.length; k += 1) {
          const name = style.item(k);
          if (!(holdsContent && SIZE_DERIVED.has(name))) values += `${name}:${style.getPropertyValue(name)};`;
        }
        out[`${i} ${el.tagName.toLowerCase()}.${[...el.classList].join('.')}${pseudo ?? ''}`] = values;
      }
    });
    return out;
  });
}

/** The declarations of `b` that differ from `a`, readable. */
function differences(a: string, b: string | undefined): string[] {
  const before = new Set(a.split(';'));
  return (b ?? '').split(';').filter((d) => !before.has(d));
}

// A page is measured whole, several times; the shared machine makes that slow, never wrong.
jest.setTimeout(120_000);

describe('ccs-content.css in a hostile storefront', () => {
  const chromium = useBrowser();
  const measure = <T>(html: string, width: number, fn: (p: Page) => Promise<T>): Promise<T> =>
    onPage(chromium.browser, html, width, fn);

  test.each([360, 1280])(
    'when the host styles *, img, h2, div, lists and tables after it, then at %i px every widget keeps the layout it has on a plain page',
    async (width) => {
      const plain = await measure(page(width, ''), width, contentBoxes);
      const hostile = await measure(page(width, AGGRESSIVE_CSS), width, contentBoxes);
      expect(Object.keys(plain).length).toBeGreaterThan(100);
      const moved = Object.keys(plain).filter((key) =>
        plain[key]!.some((n, i) => Math.abs(n - (hostile[key]?.[i] ?? Infinity)) > 1),
      );
      expect(moved.map((key) => `${key}: ${plain[key]!.join(',')} → ${hostile[key]?.join(',')}`)).toEqual([]);
    },
  );

  test('when the stylesheet is added to the hostile page, then nothing outside the content changes', async () => {
    const without = await measure(page(1280, AGGRESSIVE_CSS, false), 1280, hostStyles);
    const withSheet = await measure(page(1280, AGGRESSIVE_CSS, true), 1280, hostStyles);
    expect(Object.keys(without).length).toBeGreaterThan(40);
    const changed = Object.keys(without)
      .filter((key) => without[key] !== withSheet[key])
      .map((key) => `${key}: ${differences(without[key]!, withSheet[key]).join('; ')}`);
    expect(changed).toEqual([]);
  });
});
