/**
 * The renderers parse each text once per policy (a memo) and sanitise a page one widget at a
 * time. These properties hold those shortcuts to what sanitize-html itself does and to what one
 * output pass over the whole page gave before, for hostile trees and strings.
 */
import fc from 'fast-check';
import {
  renderAll,
  renderHtml,
  renderMarketplace,
  renderSiteLink,
  type ContentWidget,
} from '@catalogue/content';
import { sanitize, sanitizeMemo } from '../src/sanitize-html';
import { POLICIES, sanitizeOutput } from '../src/sanitize';
import { RICH_POLICY } from '../src/sanitize-rich';
import { hasNoMarketplaceText, MARKETPLACE_POLICY, toMarketplaceHtml } from '../src/render/marketplace';
import { renderResolvedWidget, resolveTree } from '../src/render/html';
import { lang, nastyString, tree } from './arbitraries';

const ALL_POLICIES = { ...POLICIES, rich: RICH_POLICY, marketplace: MARKETPLACE_POLICY };
const policyName = fc.constantFrom(...Object.keys(ALL_POLICIES));
const policyOf = (name: string) => ALL_POLICIES[name as keyof typeof ALL_POLICIES]!;

/** Any text, control characters and astral planes included, without the four that start markup. */
const plainText = fc
  .oneof(fc.string({ unit: 'binary', maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 60 }))
  .filter((text) => !/[<>&"]/.test(text));

/** The page as it was sanitised before: the widgets' raw HTML, then one output pass over all of it. */
function onePassPage(t: readonly ContentWidget[], l: string): string {
  const resolved = resolveTree(t, l);
  return sanitizeOutput(resolved.widgets.map((w) => renderResolvedWidget(w, resolved)).join(''));
}

describe('sanitising each text once', () => {
  it('when a text has none of < > & ", then sanitize-html returns it unchanged under every policy', () => {
    fc.assert(
      fc.property(plainText, policyName, (text, name) => {
        expect(sanitize(text, policyOf(name))).toBe(text);
      }),
      { numRuns: 2_000 },
    );
  });

  it('when a text is sanitised again with the same policy, then the remembered result is what a fresh parse gives', () => {
    fc.assert(
      fc.property(fc.oneof(nastyString, plainText), policyName, (text, name) => {
        const policy = policyOf(name);
        const fresh = sanitize(text, policy);
        expect(sanitizeMemo(text, policy)).toBe(fresh);
        expect(sanitizeMemo(text, policy)).toBe(fresh);
      }),
      { numRuns: 1_000 },
    );
  });

  it('when more texts than the memo holds are sanitised, then every result is still what a fresh parse gives', () => {
    const policy = POLICIES.value!;
    // About 1.5 M characters in and out: the memo drops and renews its generations on the way.
    const texts = Array.from({ length: 600 }, (_, n) => `<p onclick="x">${n} ${'text '.repeat(240)}</p>`);

    const first = texts.map((text) => sanitizeMemo(text, policy));
    const again = texts.map((text) => sanitizeMemo(text, policy));

    const fresh = texts.map((text) => sanitize(text, policy));
    expect(first).toEqual(fresh);
    expect(again).toEqual(fresh);
  });

  it('when two policies sanitise the same text, then each gets its own result', () => {
    const text = '<h2>Title</h2><p>text <a href="https://shop.test/">link</a></p>';

    const value = sanitizeMemo(text, POLICIES.value!);
    const phrasing = sanitizeMemo(text, POLICIES.phrasing!);

    expect(value).toBe('<h2>Title</h2><p>text <a href="https://shop.test/">link</a></p>');
    expect(phrasing).toBe('Titletext <a href="https://shop.test/">link</a>');
  });
});

describe('sanitising a page one widget at a time', () => {
  it('when any tree is rendered, then the html equals one output pass over the whole page', () => {
    fc.assert(
      fc.property(tree, lang, (t, l) => {
        expect(renderHtml(t, l)).toBe(onePassPage(t, l));
      }),
      { numRuns: 500 },
    );
  });

  it('when any tree is rendered for a marketplace, then it equals the marketplace pass over the whole page', () => {
    fc.assert(
      fc.property(tree, lang, (t, l) => {
        const expected = toMarketplaceHtml(onePassPage(t, l));
        expect(renderMarketplace(t, l)).toBe(expected);
        expect(renderAll(t, null, [l]).marketplace[l]).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });
});

describe('widgets that nest plainly skip the output pass', () => {
  it('when a widget nests plainly, then the output pass gives its html back unchanged', () => {
    let plain = 0;
    fc.assert(
      fc.property(tree, lang, (t, l) => {
        const resolved = resolveTree(t, l);
        for (const w of resolved.widgets.filter((widget) => widget.plain)) {
          const html = renderResolvedWidget(w, resolved);
          expect(sanitizeOutput(html)).toBe(html);
          if (html !== '') plain += 1;
        }
      }),
      { numRuns: 1_000 },
    );
    // Not vacuous: many generated widgets render something and nest plainly.
    expect(plain).toBeGreaterThan(100);
  });

  it('when a paragraph holds a block element or a list item holds markup, then the widget does not nest plainly', () => {
    const el = (id: number, parent: number, tag: string, value: Record<string, string> = {}) => ({
      id,
      parent_id: parent,
      child_id: id,
      class: '',
      is_editable: true,
      tag,
      value,
      extension: [],
    });
    const widget = (children: ReturnType<typeof el>[]) => ({
      id: 1,
      key: 0,
      widget_id: 1,
      html: '',
      is_original: true,
      children,
    });
    const plainOf = (w: ContentWidget) => resolveTree([w], 'default').widgets[0]!.plain;

    expect(plainOf(widget([el(1, 0, 'p', { default: 'a' }), el(2, 1, 'div', { default: 'b' })]))).toBe(false);
    expect(plainOf(widget([el(1, 0, 'li', { default: '<p>a</p>' })]))).toBe(false);
    expect(plainOf(widget([el(1, 0, 'ul'), el(2, 1, 'li', { default: 'a' })]))).toBe(true);
    expect(
      renderHtml([widget([el(1, 0, 'p', { default: 'a' }), el(2, 1, 'div', { default: 'b' })])], 'default'),
    ).toBe('<div class="ccs-widget" data-widget-id="1"><p>a</p><div>b</div><p></p></div>');
  });
});

describe('widgets without text in marketplace output', () => {
  it('when a widget renders no text, then its marketplace html is empty without parsing it', () => {
    let textless = 0;
    fc.assert(
      fc.property(tree, lang, (t, l) => {
        const resolved = resolveTree(t, l);
        for (const w of resolved.widgets) {
          const html = sanitizeOutput(renderResolvedWidget(w, resolved));
          if (html === '' || !hasNoMarketplaceText(html)) continue;
          textless += 1;
          expect(toMarketplaceHtml(html)).toBe('');
        }
      }),
      { numRuns: 3_000 },
    );
    expect(textless).toBeGreaterThan(10);
  });

  it('when a widget holds only an empty cell or a line break, then it is parsed like any other', () => {
    expect(hasNoMarketplaceText('<div class="ccs-widget"><table><tr><td></td></tr></table></div>')).toBe(
      false,
    );
    expect(hasNoMarketplaceText('<div class="ccs-widget"><br /></div>')).toBe(false);
    expect(hasNoMarketplaceText('<div class="ccs-widget"><blockquote></blockquote></div>')).toBe(false);
    expect(toMarketplaceHtml('<div class="ccs-widget"><blockquote></blockquote></div>')).toBe('<p></p>');
    expect(
      hasNoMarketplaceText(
        '<section class="ccs-widget"><figure><img src="https://cdn.test/a.jpg" alt="a &gt; b" /></figure></section>',
      ),
    ).toBe(true);
  });
});

describe('site links without an output pass', () => {
  it('when any tree is rendered, then the output allow-list would leave the site-link navigation unchanged', () => {
    fc.assert(
      fc.property(tree, lang, (t, l) => {
        const { html } = renderSiteLink(t, l);
        expect(sanitizeOutput(html)).toBe(html);
      }),
      { numRuns: 500 },
    );
  });

  it('when a heading holds markup characters and quotes, then the navigation shows them as text', () => {
    const heading = {
      id: 1,
      parent_id: 0,
      child_id: 0,
      class: '',
      is_editable: true,
      tag: 'h2',
      extension: [],
    };
    const tree = [
      {
        id: 1,
        key: 0,
        widget_id: 1,
        html: '',
        is_original: true,
        children: [{ ...heading, value: { default: 'Tom &amp; "Jerry" &lt;3 it&#39;s' } }],
      },
    ];

    const { html, list } = renderSiteLink(tree, 'default');

    expect(list).toEqual([{ heading: `Tom & "Jerry" <3 it's`, slug: 'tom-jerry-3-its' }]);
    expect(html).toContain(`<a href="#tom-jerry-3-its">Tom &amp; "Jerry" &lt;3 it's</a>`);
  });
});
