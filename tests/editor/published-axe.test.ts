/**
 * The HTML a storefront publishes passes the accessibility checks storefronts run: axe-core over
 * the stored outputs (`html`, served as v2 `content.html`, and `marketplace`) of every design and
 * of every widget type alone, rendered by renderAll (what a content write stores), in Chromium
 * with the content stylesheet. No serious or critical finding is accepted; images published with
 * no alt text of their own and a video whose widget has no heading are rendered too.
 */
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import {
  CONTENT_STYLESHEET_FILE,
  designPreviewTree,
  renderAll,
  SEED_DESIGNS,
  SEED_WIDGETS,
  type ContentWidget,
  type DesignDefinition,
} from '@catalogue/content';
import { launchBrowser } from '@catalogue/testing';

const CSS = readFileSync(CONTENT_STYLESHEET_FILE, 'utf8');
const ITEM = { type: 'product' as const, name: { default: 'Storm jacket', cs: 'Bunda Storm' } };
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Every seed design, and a design of each widget type alone (every type, listed or not). */
const DESIGNS: DesignDefinition[] = [
  ...SEED_DESIGNS,
  ...SEED_WIDGETS.map((w): DesignDefinition => ({
    key: `only-${w.type}`,
    name: w.name,
    name_translation: {},
    category: 'product',
    type: 'public',
    widgets: [{ widget: w.type }],
  })),
];

/** The tree as a person may leave it: images without alt texts, frames and headings without words. */
function withoutWords(tree: ContentWidget[]): ContentWidget[] {
  return tree.map((widget) => ({
    ...widget,
    children: widget.children
      .filter((e) => !/__heading$/.test(e.class))
      .map((e) => {
        if (Array.isArray(e.extension)) return e;
        const { alt: _alt, title: _title, ...rest } = e.extension as Record<string, unknown>;
        return { ...e, extension: rest };
      }),
  }));
}

/** A storefront page showing each output in its own article, in its language. */
const page = (outputs: ReadonlyArray<{ html: string; lang: string }>): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Storm jacket</title>` +
  `<style>${CSS}</style></head><body><main><h1>Storm jacket</h1>` +
  outputs.map((o) => `<article lang="${o.lang}">${o.html}</article>`).join('') +
  `</main></body></html>`;

describe('published HTML of every widget type in every design', () => {
  let browser: Browser;
  let tab: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    tab = await (await browser.newContext()).newPage();
    // The published images and players are on other hosts: images answer a pixel, frames nothing.
    await tab.route('**/*', (route) =>
      route.request().resourceType() === 'image'
        ? route.fulfill({ status: 200, contentType: 'image/png', body: PNG })
        : route.fulfill({
            status: 200,
            contentType: 'text/html',
            body: '<!doctype html><title>player</title>',
          }),
    );
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Serious and critical findings of axe on a page of published outputs. */
  async function findings(outputs: ReadonlyArray<{ html: string; lang: string }>): Promise<string[]> {
    await tab.setContent(page(outputs));
    const result = await new AxeBuilder({ page: tab }).analyze();
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 120)).join(' | ')}`);
  }

  test.each(DESIGNS.map((d) => [d.key, d] as const))(
    'when %s is published (html and marketplace, as filled and without words), then axe finds nothing serious',
    async (_key, design) => {
      const filled = designPreviewTree(design);
      expect(filled.length).toBeGreaterThan(0);
      const outputs: Array<{ html: string; lang: string }> = [];
      for (const tree of [filled, withoutWords(filled)]) {
        const out = renderAll(tree, ITEM, ['default', 'cs']);
        expect(out.html.cs).not.toBe('');
        for (const lang of ['default', 'cs']) {
          const shown = lang === 'default' ? 'en' : lang;
          outputs.push({ html: out.html[lang]!, lang: shown }, { html: out.marketplace[lang]!, lang: shown });
          // Words for every content image and frame; decorative icons say nothing.
          for (const img of out.html[lang]!.match(/<img[^>]*>/g) ?? []) {
            if (/__icon/.test(img)) expect(img).toContain('alt=""');
            else expect(img).toMatch(/ alt="[^"]+"/);
          }
          for (const frame of out.html[lang]!.match(/<iframe[^>]*>/g) ?? [])
            expect(frame).toMatch(/ title="[^"]+"/);
        }
      }
      const found = await findings(outputs);
      expect(found).toEqual([]);
    },
  );
});
