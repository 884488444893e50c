/**
 * htmlToText reads plain markup without parsing (plainMarkupText). This property holds that
 * shortcut to the parse it replaces: on generated markup — mostly of the shapes it accepts, mixed
 * with what it must refuse (entities, attributes, other tags, stray and missing end tags, blocks
 * where htmlparser2 would move them) — every text it returns is what sanitize-html gives, and
 * sanitizeHtml's shortcut for canonical plain markup returns what the value policy's parse does.
 */
import fc from 'fast-check';
import { htmlToText, sanitizeHtml } from '@catalogue/content';
import { isCanonicalPlainMarkup, parsedHtmlToText, plainMarkupText, POLICIES } from '../src/sanitize';
import { sanitize } from '../src/sanitize-html';

/** What sanitizeHtml gave before its shortcut: a parse with the value policy, every time. */
const parsedValue = (html: string) => sanitize(html, POLICIES.value!);

const TAGS = [
  'p',
  'h2',
  'h3',
  'h4',
  'div',
  'blockquote',
  'ul',
  'ol',
  'li',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'sub',
  'sup',
  'span',
  'code',
  'a',
  'h1',
  'td',
  'tr',
  'table',
  'script',
  'figcaption',
  'pre',
  'br',
];
const text = fc.oneof(
  fc.constantFrom('a', 'Tom', ' ', '\n', '  x y ', 'é ž', "it's", '\u00a0', 'd\u00a0e', '\t'),
  fc.string({ maxLength: 4 }),
);
/** Text the shortcut accepts: no `< > & "` or NUL. */
const plainText = text.map((t) => t.replace(/[<>&"\0]/g, ''));
const openTag = fc.constantFrom(...TAGS).map((t) => `<${t}>`);
const closeTag = fc.constantFrom(...TAGS).map((t) => `</${t}>`);
const odd = fc.constantFrom(
  '<br/>',
  '<br />',
  '</br>',
  '<p/>',
  '<P>',
  '<p class="x">',
  '&amp;',
  '&lt;',
  '<!-- c -->',
  '"',
  '>',
  '<',
  '<p\u00a0>',
  '<p >',
  '\0',
);

/** Well-formed markup of the accepted shapes, recursively. */
const { doc } = fc.letrec((tie) => ({
  inline: fc.oneof(
    { depthSize: 'small' },
    plainText,
    fc.constant('<br>'),
    fc
      .tuple(
        fc.constantFrom('strong', 'b', 'em', 'i', 'span', 'code'),
        fc.array(tie('inline'), { maxLength: 3 }),
      )
      .map(([t, kids]) => `<${t}>${(kids as string[]).join('')}</${t}>`),
  ),
  block: fc.oneof(
    { depthSize: 'small' },
    fc
      .tuple(fc.constantFrom('p', 'h2', 'h3', 'h4'), fc.array(tie('inline'), { maxLength: 4 }))
      .map(([t, kids]) => `<${t}>${(kids as string[]).join('')}</${t}>`),
    fc
      .tuple(fc.constantFrom('div', 'blockquote'), fc.array(tie('block'), { maxLength: 3 }))
      .map(([t, kids]) => `<${t}>${(kids as string[]).join('')}</${t}>`),
    fc
      .tuple(
        fc.constantFrom('ul', 'ol'),
        fc.array(fc.array(tie('inline'), { maxLength: 3 }), { maxLength: 3 }),
      )
      .map(
        ([t, items]) =>
          `<${t}>${(items as string[][]).map((i) => `<li>${i.join('')}</li>`).join(' ')}</${t}>`,
      ),
  ),
  doc: fc
    .array(fc.oneof(tie('block'), tie('inline')), { maxLength: 5 })
    .map((parts) => (parts as string[]).join('')),
}));

/** Well-nested markup of any of these tags in any order (htmlparser2 moves some of them). */
const { nested } = fc.letrec((tie) => ({
  nested: fc.oneof(
    { depthSize: 'small' },
    plainText,
    fc
      .tuple(
        fc.constantFrom('p', 'h2', 'div', 'blockquote', 'ul', 'ol', 'li', 'b', 'span', 'td'),
        fc.array(tie('nested'), { maxLength: 3 }),
      )
      .map(([t, kids]) => `<${t}>${(kids as string[]).join('')}</${t}>`),
  ),
}));

/** Accepted markup with tokens spliced in at random places (most of them must be refused). */
const mutated = fc
  .tuple(doc, fc.array(fc.tuple(fc.nat(), fc.oneof(openTag, closeTag, odd, text)), { maxLength: 3 }))
  .map(([html, edits]) => {
    let out = html;
    for (const [at, piece] of edits) {
      const i = out.length ? at % (out.length + 1) : 0;
      out = out.slice(0, i) + piece + out.slice(i);
    }
    return out;
  });
const tagSoup = fc.array(fc.oneof(openTag, closeTag, text, odd), { maxLength: 12 }).map((p) => p.join(''));

describe('htmlToText without parsing (plainMarkupText)', () => {
  it('when markup of the accepted shapes is given, then it is read without parsing, as the parse reads it', () => {
    fc.assert(
      fc.property(doc, (html) => {
        const fast = plainMarkupText(html);
        expect(fast).toBe(parsedHtmlToText(html));
      }),
      { numRuns: 3000 },
    );
  });

  it('when any markup is given, then a text without parsing is the parse’s text, else the parse decides', () => {
    fc.assert(
      fc.property(fc.oneof(mutated, tagSoup, nested), (html) => {
        const fast = plainMarkupText(html);
        if (fast !== undefined) expect(fast).toBe(parsedHtmlToText(html));
        expect(htmlToText(html)).toBe(parsedHtmlToText(html));
      }),
      { numRuns: 6000 },
    );
  });

  it('when markup is canonical, then the value policy keeps it as written; sanitizeHtml always gives the parse', () => {
    fc.assert(
      fc.property(fc.oneof(doc, mutated, tagSoup, nested), (html) => {
        if (isCanonicalPlainMarkup(html)) expect(parsedValue(html)).toBe(html);
        expect(sanitizeHtml(html)).toBe(parsedValue(html));
      }),
      { numRuns: 6000 },
    );
  });

  it('when a description is plain paragraphs, then no parse is needed', () => {
    const html = '<p>Robust outdoor <strong>set</strong>.</p><p>P000001 rev 0</p>';
    expect(plainMarkupText(html)).toBe('Robust outdoor set. P000001 rev 0');
    expect(plainMarkupText('<p>a</li>')).toBeUndefined();
    expect(plainMarkupText('<p class="x">a</p>')).toBeUndefined();
    expect(isCanonicalPlainMarkup(html)).toBe(true);
    expect(isCanonicalPlainMarkup('<div><p>a</p></div>')).toBe(false);
    expect(isCanonicalPlainMarkup('<p>a<br>b</p>')).toBe(false);
  });
});
