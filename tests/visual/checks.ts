/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Code passed to page.evaluate runs in the browser: the DOM types describe it.
/** What a storefront developer would look for on a page of rendered content, measured in the browser. */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/**
 * Layout problems: the page or a widget scrolling sideways, an image or a video outside its
 * widget (or not shown at all), text outside its widget, and text boxes of different text nodes
 * overlapping each other, with every FAQ answer open. Each problem is a readable sentence; none
 * means the layout holds.
 */
export function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    // Closed answers keep stale boxes: open them, so their text is checked where it shows.
    for (const details of document.querySelectorAll('details')) details.open = true;
    const SLACK = 1; // sub-pixel rounding
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth)
      problems.push(`the page scrolls sideways (${root.scrollWidth} > ${root.clientWidth})`);
    const name = (el: Element): string =>
      `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}${el.closest('[data-widget-id]') ? ` in widget ${el.closest('[data-widget-id]')?.getAttribute('data-widget-id')}` : ''}`;
    const outside = (r: DOMRect, box: DOMRect): boolean =>
      r.left < box.left - SLACK ||
      r.right > box.right + SLACK ||
      r.top < box.top - SLACK ||
      r.bottom > box.bottom + SLACK;

    for (const widget of document.querySelectorAll('.ccs-widget, .ccs-site-link')) {
      const box = widget.getBoundingClientRect();
      if (widget.scrollWidth > widget.clientWidth)
        problems.push(`${name(widget)} scrolls sideways (${widget.scrollWidth} > ${widget.clientWidth})`);
      for (const media of widget.querySelectorAll('img, iframe')) {
        const r = media.getBoundingClientRect();
        if (r.width < 1 || r.height < 1) problems.push(`${name(media)} is not shown`);
        else if (outside(r, box)) problems.push(`${name(media)} is outside its widget`);
      }
      const texts: { rect: DOMRect; node: Text }[] = [];
      const walker = document.createTreeWalker(widget, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim() || !node.parentElement?.checkVisibility()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const rect of range.getClientRects()) {
          if (rect.width < 1 || rect.height < 1) continue;
          if (outside(rect, box))
            problems.push(`text "${node.textContent.trim().slice(0, 30)}" sticks out of ${name(widget)}`);
          texts.push({ rect, node: node as Text });
        }
      }
      for (let i = 0; i < texts.length; i += 1) {
        for (let j = i + 1; j < texts.length; j += 1) {
          const a = texts[i]!;
          const b = texts[j]!;
          if (a.node === b.node) continue;
          const w = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left);
          const h = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top);
          if (w > SLACK && h > SLACK)
            problems.push(
              `text "${a.node.textContent?.trim().slice(0, 30)}" overlaps "${b.node.textContent?.trim().slice(0, 30)}"`,
            );
        }
      }
    }
    return problems;
  });
}

/** axe-core's WCAG 2.x A/AA and best-practice rules; the serious and critical findings, readable. */
export async function seriousAccessibilityProblems(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary ?? v.help}`),
    );
}
