import fc from 'fast-check';
import {
  renderAll,
  renderComposed,
  renderHtml,
  renderMarketplace,
  renderNested,
  renderSiteLink,
  withWidgetHtml,
} from '@catalogue/content';
import { entity, lang, tree } from './arbitraries';
import { dangers, marketplaceDangers, snippetDangers } from './inspect';

describe('renderer properties', () => {
  it('when any tree with any strings is rendered, then no output contains a script tag except the one JSON-LD tag', () => {
    fc.assert(
      fc.property(tree, entity, lang, (t, e, l) => {
        const all = renderAll(t, e, [l]);
        for (const html of [
          renderHtml(t, l),
          renderSiteLink(t, l).html,
          all.html[l] ?? '',
          all.site_link.html[l] ?? '',
        ]) {
          expect(html).not.toMatch(/<script/i);
          expect(dangers(html)).toEqual([]);
        }
        const snippet = all.rich_snippet.html[l] ?? '';
        expect((snippet.match(/<script/gi) ?? []).length).toBeLessThanOrEqual(1);
        expect(snippetDangers(snippet)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('when any tree is rendered for a marketplace, then there is no class or style attribute and no attribute at all', () => {
    fc.assert(
      fc.property(tree, lang, (t, l) => {
        const html = renderMarketplace(t, l);
        expect(html).not.toMatch(/class=|style=|<script/i);
        expect(marketplaceDangers(html)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('when a composed tree is rendered with its widget html, then it equals renderAll and withWidgetHtml in every language', () => {
    // The tree followed by a copy of itself: every heading of the copy collides with the original's.
    fc.assert(
      fc.property(tree, entity, lang, fc.boolean(), (t, e, l, repeat) => {
        const source = repeat ? [...t, ...structuredClone(t)] : t;
        const composed = structuredClone(source);
        const languages = ['default', 'cs', l];
        expect(renderComposed(composed, e, languages, l)).toEqual(renderAll(source, e, languages));
        expect(composed.map((w) => w?.html)).toEqual(withWidgetHtml(source, l).map((w) => w.html));
      }),
      { numRuns: 300 },
    );
  });

  it('when any tree is rendered twice, then the outputs are deep-equal', () => {
    fc.assert(
      fc.property(tree, entity, (t, e) => {
        expect(renderAll(t, e, ['default', 'cs'])).toEqual(
          renderAll(structuredClone(t), structuredClone(e), ['default', 'cs']),
        );
        expect(renderNested(t)).toEqual(renderNested(t));
      }),
      { numRuns: 100 },
    );
  });

  it('when site links are rendered, then every slug is unique and appears as a heading id in the html', () => {
    fc.assert(
      fc.property(tree, lang, (t, l) => {
        const { list } = renderSiteLink(t, l);
        const slugs = list.map((item) => item.slug);
        expect(new Set(slugs).size).toBe(slugs.length);
        const html = renderHtml(t, l);
        for (const slug of slugs) {
          expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
          expect(html).toContain(`id="${slug}"`);
        }
      }),
      { numRuns: 300 },
    );
  });
});
