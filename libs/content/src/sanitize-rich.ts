/**
 * The rich texts' policy (an html-format field written through the API, the editor's edits and
 * pastes): only the markup of markup.ts stays, whatever was sent, Word's HTML included. Built on
 * the policies of sanitize.ts.
 */
import { sanitizeMemo, type SanitizeHtml } from './sanitize-html';
import { OFFICE_LIST_MARKER, RICH_BLOCKS, RICH_DROPPED_WITH_TEXT, RICH_RENAMES, RICH_TAGS } from './markup';
import { COMMON, isCanonicalPlainMarkup, NON_TEXT_TAGS } from './sanitize';
import { safeLinkHref } from './urls';

type Attributes = SanitizeHtml.Attributes;

const RICH_TAG_SET = new Set<string>(RICH_TAGS);
const RICH_BLOCK_SET = new Set<string>(RICH_BLOCKS);
/**
 * The attributes objects of elements to drop with their text (Word's list markers). A tag is
 * never renamed to a disallowed one: sanitize-html would then close a later element at the same
 * depth with that name. It is kept as an allowed one and removed by the exclusive filter, which
 * sees the same attributes object the transform returned.
 */
const dropped = new WeakSet<Attributes>();

/**
 * A rich text's elements: renamed (b → strong, h1 → h3, …), links without an absolute
 * http(s)/mailto/tel `href` unwrapped (their text kept), Word's list markers dropped, and no
 * attribute but a link's `href` (no class such as `MsoNormal`, no style, no title).
 */
function richTag(tagName: string, attribs: Attributes): SanitizeHtml.Tag {
  if (OFFICE_LIST_MARKER.test(attribs.style ?? '')) {
    const marker: Attributes = {};
    dropped.add(marker);
    return { tagName: 'em', attribs: marker };
  }
  const name = RICH_RENAMES[tagName] ?? tagName;
  if (name !== 'a') return { tagName: name, attribs: {} };
  const href = safeLinkHref(attribs.href ?? '');
  return { tagName: 'a', attribs: href === null ? {} : { href } };
}

/**
 * Blocks and links with no readable text go (`<p>&nbsp;</p>`), a link that leads nowhere leaves
 * its text, empty bold or italics leave their space.
 */
function dropEmptyRich(frame: SanitizeHtml.IFrame): boolean | 'excludeTag' {
  if (dropped.has(frame.attribs)) return true;
  const empty = frame.text.trim() === '';
  if (frame.tag === 'a') return empty ? true : frame.attribs.href ? false : unwrap(frame);
  if (!empty) return false;
  if (RICH_BLOCK_SET.has(frame.tag)) return true;
  return frame.tag === 'strong' || frame.tag === 'em' ? unwrap(frame) : false;
}

/**
 * 'excludeTag' keeps an element's text in the output, but sanitize-html then skips giving it to
 * the parent, which would look empty: the frame's own method hands it on first.
 */
function unwrap(frame: SanitizeHtml.IFrame): 'excludeTag' {
  (frame as SanitizeHtml.IFrame & { updateParentNodeText?: () => void }).updateParentNodeText?.();
  return 'excludeTag';
}

/** The rich texts' policy (exported for the tests of sanitize-html's behaviour under it). */
export const RICH_POLICY: SanitizeHtml.IOptions = {
  ...COMMON,
  nonTextTags: [...new Set([...NON_TEXT_TAGS, ...RICH_DROPPED_WITH_TEXT])],
  allowedTags: [...RICH_TAG_SET],
  allowedAttributes: { a: ['href'] },
  allowedSchemesByTag: {},
  transformTags: { '*': richTag },
  exclusiveFilter: dropEmptyRich,
};

/**
 * Sanitises a rich text (an html-format field written through the API, the editor's edits and
 * pastes): only the markup of markup.ts stays, whatever was sent (Word's HTML included).
 */
export function sanitizeRich(value: string): string {
  return isCanonicalRich(value) ? value : parsedRich(value);
}

/** `sanitizeRich` by parsing, always (the property tests compare the shortcut with it). */
export function parsedRich(value: string): string {
  // A second pass settles what the first repaired (an element closed only by the end of the text
  // is not filtered, and may be empty once its neighbours went).
  return richPass(richPass(value));
}

const RICH_PLAIN_TAG = /<\/?(?!(?:p|ul|ol|li|strong|em|h3|h4)>)[a-z]/;
const RICH_BLOCK_SPACE = /\s<\/?(?:p|ul|ol|li|h3|h4)>|<\/?(?:p|ul|ol|li|h3|h4)>\s/;
const RICH_EMPTY = /<(\w+)>(?:\s|<[^>]*>)*<\/\1>/;

/**
 * Whether `sanitizeRich` returns `value` unchanged, known without parsing: plain markup
 * (isCanonicalPlainMarkup) of rich tags only, no line break, no space at a block's edge and no
 * element without text — what the API stored and every catalogue description already clean.
 * Conservative: anything else is parsed.
 */
function isCanonicalRich(value: string): boolean {
  return (
    !/[\r\n]/.test(value) &&
    value === value.trim() &&
    !RICH_PLAIN_TAG.test(value) &&
    !RICH_BLOCK_SPACE.test(value) &&
    !RICH_EMPTY.test(value) &&
    isCanonicalPlainMarkup(value)
  );
}

function richPass(value: string): string {
  return (
    sanitizeMemo(value, RICH_POLICY)
      // A line break in HTML source is a space; one closing a block shows nothing.
      .replace(/[ \t]*[\r\n][ \t\r\n]*/g, ' ')
      .replace(/(?:<br \/>\s*)+(<\/(?:p|li|h3|h4)>)/g, '$1')
      // Spaces between blocks are no text of the content.
      .replace(/(<\/(?:p|li|ul|ol|h3|h4)>|<(?:ul|ol)>)\s+/g, '$1')
      .replace(/\s+(<\/?(?:p|li|ul|ol|h3|h4)>)/g, '$1')
      .trim()
  );
}
