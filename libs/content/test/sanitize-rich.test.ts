/**
 * Rich texts (html-format fields) keep only the markup of markup.ts, whatever a client sends:
 * a paste from Word is the case every shop owner meets.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { RICH_TAGS, SEED_WIDGETS, sanitizeRich } from '@catalogue/content';
import { parsedRich } from '../src/sanitize-rich';
import { prepareText } from '../src/text';
import { prepareValue } from '../src/tree/values';
import { nastyString } from './arbitraries';
import { openTags } from './inspect';

const WORD = readFileSync(join(__dirname, 'fixtures', 'word-paste.html'), 'utf8');
const RICH = new Set<string>(RICH_TAGS);

/** What a rich text may not hold, as readable findings (empty when it is clean). */
function richFindings(html: string): string[] {
  const found: string[] = [];
  for (const { name, attribs } of openTags(html)) {
    if (!RICH.has(name)) found.push(`tag <${name}>`);
    for (const [attribute, value] of Object.entries(attribs)) {
      if (name !== 'a' || attribute !== 'href') found.push(`attribute ${attribute} on <${name}>`);
      else if (!/^(https?:\/\/[^/\s]|mailto:|tel:)/i.test(value)) found.push(`href ${value}`);
    }
  }
  if (/<(p|li|h3|h4|a)\b[^>]*>(\s|&nbsp;|\u00a0|<br \/>)*<\/\1>/.test(html)) found.push('empty block');
  // Office markup left as markup: its tags (`<o:p>`) and styles are found above; its conditional
  // comments here. The same words as text (`o:P` typed in a sentence) are text.
  if (/<!--|<!\[/.test(html)) found.push('Office markup');
  return found;
}

describe('sanitizeRich', () => {
  it('when Word HTML is sent, then only its paragraphs, bold, italics and absolute links stay', () => {
    expect(sanitizeRich(WORD)).toBe(
      '<p><strong>Bold Word</strong> text with <em>italic</em> words</p>' +
        '<p>Waterproof to 20\u00a0000 mm</p>' +
        '<p>Taped seams</p>' +
        '<p>Unfold the hood</p><p>Zip it up</p>' +
        '<p>js link <a href="https://shop.example/storm-jacket">ok link</a> relative link ' +
        '<a href="tel:+420123456789">call us</a> bookmark</p>',
    );
  });

  it('when Word HTML is sent, then no class, style, Office tag, image, table or empty paragraph is kept', () => {
    const clean = sanitizeRich(WORD);
    expect(richFindings(clean)).toEqual([]);
    expect(clean).not.toMatch(/<img|<table|cell|Normal|WordDocument|clip_image/);
  });

  it('when a link is relative, scripted or a bookmark, then its text stays without the link', () => {
    expect(sanitizeRich('<p><a href="/a">a</a> <a href="javascript:x()">b</a> <a name="n">c</a></p>')).toBe(
      '<p>a b c</p>',
    );
    expect(sanitizeRich('<p><a href="mailto:shop@shop.test" target="_blank" class="x">mail</a></p>')).toBe(
      '<p><a href="mailto:shop@shop.test">mail</a></p>',
    );
  });

  it('when the toolbar writes b, i and lists, then they are kept as strong, em and lists', () => {
    expect(sanitizeRich('<b>a</b> <i>b</i><ul><li>c</li><li><br></li></ul><ol><li>d</li></ol>')).toBe(
      '<strong>a</strong> <em>b</em><ul><li>c</li></ul><ol><li>d</li></ol>',
    );
  });

  it('when any text is sent, then the result holds only rich markup and sanitising again changes nothing', () => {
    const fragment = fc.oneof(
      nastyString,
      fc.constantFrom(
        '<p class="MsoNormal" style="color:red">',
        '</p>',
        '<o:p>&nbsp;</o:p>',
        '<p>&nbsp;</p>',
        '<span style="mso-list:Ignore">·</span>',
        '<img src="clip.png">',
        '<img src="https://cdn.test/a.jpg">',
        '<table><tr><td>cell</td></tr></table>',
        '<a href="page.html">',
        '<a href="https://shop.test/">',
        '</a>',
        '<b>',
        '</b>',
        '<ul><li>',
        '</li></ul>',
        '<h1>',
        '</h1>',
        '<br>',
        '<!--[if !supportLists]-->',
        '<![if !vml]>',
        '<![endif]>',
        '\n',
      ),
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 12 }), (parts) => {
        const clean = sanitizeRich(parts.join(''));
        expect(richFindings(clean)).toEqual([]);
        expect(sanitizeRich(clean)).toBe(clean);
      }),
      { numRuns: 400 },
    );
  });
});

describe('sanitizeRich without parsing', () => {
  it('when a text is plain markup of any tags, then the shortcut gives exactly what parsing gives', () => {
    const part = fc.oneof(
      fc.constantFrom('a', ' ', '\u00a0', 'x y', '\n', '&', '"', '<br>', '<b>', '</b>', '<span>', '</span>'),
      fc.constantFrom(
        ...['p', 'ul', 'ol', 'li', 'strong', 'em', 'h3', 'h4', 'h2', 'div'].flatMap((t) => [
          `<${t}>`,
          `</${t}>`,
        ]),
      ),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 14 }), (parts) => {
        const value = parts.join('');
        expect(sanitizeRich(value)).toBe(parsedRich(value));
      }),
      { numRuns: 3000 },
    );
    for (const clean of [
      '<p>a <strong>b</strong></p><ul><li>c</li></ul>',
      'text',
      '<h3>a</h3><p><em>b</em> c</p>',
    ])
      expect(sanitizeRich(clean)).toBe(parsedRich(clean));
  });
});

describe('each field keeps only its allowed markup', () => {
  const fields = SEED_WIDGETS.flatMap((w) =>
    [...w.field, ...w.item_field].map((spec) => ({ type: w.type, spec })),
  );

  it.each(fields.map((f) => [`${f.type}.${f.spec.role}`, f] as const))(
    'when Word HTML fills %s, then it keeps only what its format allows',
    (_name, { spec }) => {
      const stored = prepareText(spec, { default: WORD }).default ?? '';
      if (spec.format === 'html') expect(richFindings(stored)).toEqual([]);
      else if (spec.format === 'text') expect(stored).not.toMatch(/<[a-z!]/i);
      else expect(stored).toBe('');
    },
  );

  it('when an editor value of an html field is prepared, then it is the rich text; of a text field, plain text', () => {
    expect(prepareValue('html', WORD)).toBe(sanitizeRich(WORD));
    expect(prepareValue('text', '<p class="MsoNormal"><b>Storm</b> jacket</p>')).toBe('Storm jacket');
  });
});
