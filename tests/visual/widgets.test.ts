/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Code passed to page.evaluate runs in the browser: the DOM types describe it.
// Every widget type, rendered by the real renderers in English and Czech, in Debian's Chromium at
// phone, tablet and desktop widths with ccs-content.css: nothing scrolls sideways, images stay in
// their widget, no text overlaps, axe finds nothing serious. The 360 and 1280 px shots of each
// widget (English) are written to tests/visual/output for docs/widgets.md (see its last section).
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@catalogue/testing';
import type { Page } from 'playwright-core';
import { layoutProblems, seriousAccessibilityProblems } from './checks';
import { onPage, pageHtml, useBrowser } from './page';
import { sampleHtml, WIDGET_TYPES } from './samples';

const OUTPUT = join(REPO_ROOT, 'tests', 'visual', 'output');
const DOCS_SHOTS = join(REPO_ROOT, 'docs', 'widgets');
const SHOT_WIDTHS = [360, 1280];

/** A plain storefront: a heading, then the content; the page's own margins are its own. */
const STOREFRONT_CSS = `body { margin: 0; font-family: system-ui, sans-serif; color: #111; background: #fff; }
main { max-width: 1100px; margin: 0 auto; padding: 24px 20px; }`;

function storefront(lang: 'default' | 'cs'): string {
  const { nav, content } = sampleHtml(lang);
  return pageHtml({
    lang,
    hostCss: STOREFRONT_CSS,
    body: `<main><h1>${lang === 'cs' ? 'Městský batoh' : 'City backpack'}</h1>${nav}${content}</main>`,
  });
}

/**
 * Each widget with a margin of page around it. The viewport is made as tall as the shot and
 * scrolled to it rather than shooting the full page: a full-page shot leaves the (out-of-process)
 * video frame black.
 */
async function screenshotWidgets(page: Page, width: number): Promise<void> {
  mkdirSync(OUTPUT, { recursive: true });
  // As a reader first meets the questions: the first answer open, the others closed.
  await page.evaluate(() => document.querySelectorAll('details').forEach((d, i) => (d.open = i === 0)));
  const margin = 16;
  for (const type of WIDGET_TYPES) {
    const widget = page.locator(`.ccs-widget--${type}`);
    const { height } = (await widget.boundingBox())!;
    await page.setViewportSize({ width, height: Math.ceil(height) + 2 * margin });
    await widget.evaluate(
      (el, m) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - m),
      margin,
    );
    const box = (await widget.boundingBox())!;
    const x = Math.max(0, box.x - margin);
    const clip = {
      x,
      y: Math.max(0, box.y - margin),
      width: Math.min(width - x, box.width + 2 * margin),
      height: box.height + 2 * margin,
    };
    const file = `${type}-${width}.png`;
    await page.screenshot({ path: join(OUTPUT, file), clip });
    // UPDATE_WIDGET_DOCS=1 refreshes the committed gallery (docs/widgets.md) from this run.
    if (process.env.UPDATE_WIDGET_DOCS === '1') copyFileSync(join(OUTPUT, file), join(DOCS_SHOTS, file));
  }
}

// A page is measured whole (axe, every text box); the shared machine makes that slow, never wrong.
jest.setTimeout(120_000);

describe('ccs-content.css in a browser: every widget type', () => {
  const chromium = useBrowser();
  afterAll(() => console.log(`widget screenshots (360 and 1280 px): ${OUTPUT}`));

  describe.each(['default', 'cs'] as const)('content in %s', (lang) => {
    test.each([360, 768, 1280])(
      'when shown at %i px, then nothing scrolls sideways, images stay inside, no text overlaps and axe finds nothing serious',
      async (width) => {
        await onPage(chromium.browser, storefront(lang), width, async (page) => {
          const rendered = await page
            .locator('.ccs-widget')
            .evaluateAll((els) =>
              els.map((el) => [...el.classList].find((c) => c.startsWith('ccs-widget--'))),
            );
          expect(rendered).toEqual(WIDGET_TYPES.map((type) => `ccs-widget--${type}`));
          expect(await layoutProblems(page)).toEqual([]);
          expect(await seriousAccessibilityProblems(page)).toEqual([]);
          if (lang === 'default' && SHOT_WIDTHS.includes(width)) await screenshotWidgets(page, width);
        });
      },
    );
  });

  test('when the layout is checked, then the widgets are laid out as designed at phone and desktop widths', async () => {
    const measure = (width: number) =>
      onPage(chromium.browser, storefront('default'), width, (page) =>
        page.evaluate(() => {
          const top = (s: string) => document.querySelector(s)!.getBoundingClientRect();
          // Items side by side on the first row.
          const columns = (s: string) => {
            const items = [...document.querySelector(s)!.children].map(
              (el) => el.getBoundingClientRect().top,
            );
            return items.filter((y) => Math.abs(y - items[0]!) < 1).length;
          };
          return {
            galleryColumns: columns('.ccs-gallery__list'),
            benefitColumns: columns('.ccs-benefit__list'),
            imageBesideText: top('.ccs-image-text__media').right <= top('.ccs-image-text__body').left,
            videoRatio: top('.ccs-video__frame').width / top('.ccs-video__frame').height,
            buttonHeight: top('.ccs-cta__button').height,
          };
        }),
      );
    const phone = await measure(360);
    const desktop = await measure(1280);
    expect(phone).toMatchObject({ galleryColumns: 2, benefitColumns: 1, imageBesideText: false });
    expect(desktop).toMatchObject({ galleryColumns: 3, benefitColumns: 3, imageBesideText: true });
    for (const m of [phone, desktop]) {
      expect(m.videoRatio).toBeCloseTo(16 / 9, 1);
      // A comfortable touch target (WCAG 2.5.8 asks 24 px; 44 px is the usual advice).
      expect(m.buttonHeight).toBeGreaterThanOrEqual(44);
    }
  });

  test('when answers are closed, then they open without script, and print shows them all', async () => {
    await onPage(chromium.browser, storefront('default'), 768, async (page) => {
      const answer = page.locator('.ccs-faq__answer').first();
      expect(await page.locator('details.ccs-faq__item[open]').count()).toBe(0);
      expect(await answer.isVisible()).toBe(false);
      await page.locator('.ccs-faq__question').first().click();
      expect(await answer.isVisible()).toBe(true);
      await page.locator('.ccs-faq__question').first().click();
      await page.emulateMedia({ media: 'print' });
      const heights = await page
        .locator('.ccs-faq__answer')
        .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height));
      expect(heights.every((h) => h > 0)).toBe(true);
    });
  });

  test('when the reader asks for reduced motion, then nothing animates', async () => {
    await onPage(chromium.browser, storefront('default'), 768, async (page) => {
      await page.emulateMedia({ reducedMotion: 'reduce' });
      const durations = await page.evaluate(() =>
        [...document.querySelectorAll('.ccs-widget *')].flatMap((el) => [
          getComputedStyle(el).transitionDuration,
          getComputedStyle(el, '::after').transitionDuration,
        ]),
      );
      expect(new Set(durations)).toEqual(new Set(['0s']));
    });
  });
});
