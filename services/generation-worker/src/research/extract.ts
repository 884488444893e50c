/**
 * Readable text out of HTML, one string per block (paragraph, heading, list item, table row, …).
 * Block boundaries matter to the callers: the builtin provider recognises questions and answers
 * by them, and cutting a long text is nicer between blocks than inside one.
 */
import { htmlToText } from '@catalogue/content';

/** Elements whose content is never readable text; removed together with what they hold. */
const NOISE_TAGS = [
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'head',
  'iframe',
  'object',
  'textarea',
  'select',
  'nav',
  'footer',
  'aside',
  'form',
];
const NOISE_OPEN = new RegExp(`<(${NOISE_TAGS.join('|')})\\b`, 'gi');

const BLOCK_TAG =
  /<\/?(?:p|div|br|li|ul|ol|dl|dt|dd|h[1-6]|blockquote|pre|tr|table|thead|tbody|tfoot|caption|section|article|main|header|figure|figcaption|hr|address|details|summary)\b[^>]*>/gi;
/** Private-use character marking a block boundary while htmlToText collapses whitespace. */
const MARK = '\uE000';

/**
 * Removes comments and noise elements. Linear: each opening tag is matched with the next closing
 * tag of the same name (an unclosed one swallows the rest of the document), so a hostile page
 * cannot make this backtrack.
 */
export function stripNoise(html: string): string {
  let out = '';
  let cursor = 0;
  for (;;) {
    const comment = html.indexOf('<!--', cursor);
    NOISE_OPEN.lastIndex = cursor;
    const open = NOISE_OPEN.exec(html);
    const openAt = open === null ? -1 : open.index;
    if (comment === -1 && openAt === -1) break;
    if (comment !== -1 && (openAt === -1 || comment < openAt)) {
      out += html.slice(cursor, comment);
      const end = html.indexOf('-->', comment + 4);
      cursor = end === -1 ? html.length : end + 3;
      continue;
    }
    out += html.slice(cursor, openAt);
    const close = new RegExp(`</${open?.[1] ?? ''}\\s*>`, 'gi');
    close.lastIndex = openAt;
    const end = close.exec(html);
    cursor = end === null ? html.length : end.index + end[0].length;
  }
  return out + html.slice(cursor);
}

/** The readable text of an HTML fragment or document, one entry per non-empty block. */
export function htmlBlocks(html: string): string[] {
  const marked = stripNoise(html.replaceAll(MARK, ' ')).replace(BLOCK_TAG, ` ${MARK} `);
  return htmlToText(marked)
    .split(MARK)
    .map((block) => block.replace(/\s+/g, ' ').trim())
    .filter((block) => block !== '');
}

/** Plain text as blocks: one per non-blank line, whitespace collapsed. */
export function plainBlocks(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '');
}
