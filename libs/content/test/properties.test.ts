import fc from 'fast-check';
import {
  renderAll,
  renderHtml,
  renderMarketplace,
  renderNested,
  renderSiteLink,
  type ContentElement,
  type ContentWidget,
  type SnippetEntity,
} from '@catalogue/content';
import { dangers, marketplaceDangers, snippetDangers } from './inspect';

const NASTY = [
  '<',
  '>',
  '"',
  "'",
  '&',
  '</script>',
  '<script>',
  '<img src=x onerror=alert(1)>',
  'javascript:',
  '<!--',
  ' ',
];

/** Strings mixing ordinary text with markup characters and fragments. */
const nastyString = fc
  .array(fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom(...NASTY)), { maxLength: 6 })
  .map((parts) => parts.join(''));

const langMap = fc.dictionary(fc.constantFrom('default', 'cs', 'sk', 'en', 'de', 'xx'), nastyString, {
  maxKeys: 4,
});
const tag = fc.constantFrom(
  'section',
  'div',
  'h1',
  'h2',
  'h3',
  'p',
  'a',
  'img',
  'iframe',
  'ul',
  'li',
  'script',
  'style',
  'svg',
  'td',
  'tr',
  'table',
  'blockquote',
  'x',
);
const extension = fc.oneof(
  fc.constant([] as unknown[]),
  fc.record(
    {
      src: fc.oneof(nastyString, fc.constant('https://cdn.test/a.jpg')),
      href: nastyString,
      alt: nastyString,
      title: langMap,
    },
    { requiredKeys: [] },
  ),
);

const element = (count: number) =>
  fc.record({
    id: fc.integer({ min: 0, max: count }),
    parent_id: fc.integer({ min: 0, max: count }),
    child_id: fc.integer({ min: -2, max: 5 }),
    class: nastyString,
    is_editable: fc.boolean(),
    tag,
    value: langMap,
    extension,
  }) as fc.Arbitrary<ContentElement>;

const contentWidget = fc.record({
  id: fc.integer({ min: -1, max: 20 }),
  key: fc.nat(10),
  widget_id: fc.nat(10),
  children: fc.array(element(12), { maxLength: 12 }),
  html: nastyString,
  is_original: fc.boolean(),
}) as fc.Arbitrary<ContentWidget>;

const tree = fc.array(contentWidget, { maxLength: 4 });
const entity = fc.record({
  type: fc.constantFrom('product', 'category', 'brand', 'blog', 'page'),
  name: langMap,
  description: langMap,
  images: fc.array(nastyString, { maxLength: 2 }),
  brand: nastyString,
  category: nastyString,
  url: nastyString,
  variants: fc.array(fc.record({ code: nastyString, ean: fc.oneof(fc.constant(null), nastyString) }), {
    maxLength: 3,
  }),
}) as fc.Arbitrary<SnippetEntity>;

const lang = fc.constantFrom('default', 'cs', 'en');

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
