/**
 * Allow-list sanitising with sanitize-html. Three policies:
 * - `VALUE_POLICY` for HTML that people or models write into an element (`sanitizeHtml`);
 * - `PHRASING_POLICY` for the inside of headings, paragraphs and links, where block tags would
 *   make the browser re-nest the document;
 * - `OUTPUT_POLICY` for the renderers' own output (defence in depth: it also admits the markup
 *   only renderers produce — widget wrappers, heading ids, allow-listed video iframes).
 * Anything not listed is dropped; the text of a dropped tag is kept (escaped) unless the tag
 * holds no readable text (script, style, svg, iframe, …), in which case its content goes too.
 */
import { sanitizeMemo, type SanitizeHtml } from './sanitize-html';
import { RICH_LINK_SCHEMES } from './markup';
import { safeLinkHref, safeSrc, videoEmbedUrl, VIDEO_EMBED_HOSTS } from './urls';

const TEXT_TAGS = ['strong', 'b', 'em', 'i', 'u', 's', 'sub', 'sup', 'span', 'br', 'code'];
const BLOCK_TAGS = [
  'p',
  'h2',
  'h3',
  'h4',
  'ul',
  'ol',
  'li',
  'blockquote',
  'hr',
  'pre',
  'figure',
  'figcaption',
];
const TABLE_TAGS = ['table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td'];

/** Tags dropped together with everything inside them. */
export const NON_TEXT_TAGS = [
  'script',
  'style',
  'textarea',
  'option',
  'xmp',
  'noscript',
  'noembed',
  'noframes',
  'iframe',
  'frame',
  'object',
  'embed',
  'svg',
  'math',
  'template',
  'title',
  'select',
  'head',
];

const CLASS_TOKEN = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/** Results of `cleanClass`: a tree repeats a handful of class strings on every element. */
const cleanClasses = new Map<string, string>();
const MAX_CLEAN_CLASSES = 1_000;

/** Keeps only plain class names: no quotes, braces or escapes can reach the attribute. */
export function cleanClass(value: unknown): string {
  if (typeof value !== 'string') return '';
  const known = cleanClasses.get(value);
  if (known !== undefined) return known;
  const clean = value
    .split(/\s+/)
    .filter((token) => CLASS_TOKEN.test(token))
    .slice(0, 12)
    .join(' ');
  if (cleanClasses.size < MAX_CLEAN_CLASSES && value.length <= 200) cleanClasses.set(value, clean);
  return clean;
}

type Attributes = SanitizeHtml.Attributes;

/** Re-checks every URL with our own parser and cleans classes, whatever tag they sit on. */
function checkAttributes(tagName: string, attribs: Attributes, fragmentLinks: boolean): SanitizeHtml.Tag {
  const out: Attributes = { ...attribs };
  if ('class' in out) {
    const cls = cleanClass(out.class);
    if (cls) out.class = cls;
    else delete out.class;
  }
  if ('href' in out) {
    const href = out.href ?? '';
    const fragment = fragmentLinks && /^#[a-z0-9][a-z0-9-]{0,100}$/.test(href);
    if (!fragment && safeLinkHref(href) === null) delete out.href;
  }
  if ('src' in out) {
    const src = tagName === 'iframe' ? videoEmbedUrl(out.src) : safeSrc(out.src);
    if (src === null) delete out.src;
    else out.src = src;
  }
  return { tagName, attribs: out };
}

/** Media that cannot show anything without a source is removed rather than left broken. */
const dropSourceless = (frame: SanitizeHtml.IFrame): boolean =>
  (frame.tag === 'img' || frame.tag === 'iframe') && !frame.attribs.src;

const HEADING_MAP = { h1: 'h2', h5: 'h4', h6: 'h4' } as const;

/** What every policy shares (sanitize-rich.ts builds the rich texts' on it). */
export const COMMON: SanitizeHtml.IOptions = {
  disallowedTagsMode: 'discard',
  nonTextTags: NON_TEXT_TAGS,
  allowedSchemes: [...RICH_LINK_SCHEMES],
  allowedSchemesByTag: { img: ['http', 'https'], iframe: ['https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite', 'action', 'formaction', 'srcset'],
  allowProtocolRelative: false,
  allowedStyles: {},
  parseStyleAttributes: false,
  enforceHtmlBoundary: false,
  exclusiveFilter: dropSourceless,
};

const VALUE_ATTRIBUTES: Record<string, SanitizeHtml.AllowedAttribute[]> = {
  '*': ['class', 'title'],
  a: ['href'],
  img: ['src', 'alt'],
  th: ['colspan', 'rowspan'],
  td: ['colspan', 'rowspan'],
};

const VALUE_POLICY: SanitizeHtml.IOptions = {
  ...COMMON,
  allowedTags: [...TEXT_TAGS, ...BLOCK_TAGS, ...TABLE_TAGS, 'a', 'img'],
  allowedAttributes: VALUE_ATTRIBUTES,
  transformTags: { ...HEADING_MAP, '*': (tag, attribs) => checkAttributes(tag, attribs, false) },
};

const PHRASING_POLICY: SanitizeHtml.IOptions = {
  ...VALUE_POLICY,
  allowedTags: [...TEXT_TAGS, 'a'],
};

const LINK_TEXT_POLICY: SanitizeHtml.IOptions = { ...VALUE_POLICY, allowedTags: TEXT_TAGS };

/**
 * Sanitises HTML written into a widget (html-format fields, element values). Plain markup that
 * the policy keeps as written (isCanonicalPlainMarkup) is returned without a parse: every
 * language's description reaches here once per item.
 */
export function sanitizeHtml(value: string): string {
  if (isCanonicalPlainMarkup(value)) return value;
  return sanitizeMemo(value, VALUE_POLICY);
}

/** Sanitises HTML that must stay phrasing content (inside h2, p, a, …); `a` is dropped inside links. */
export function sanitizePhrasing(value: string, insideLink = false): string {
  return sanitizeMemo(value, insideLink ? LINK_TEXT_POLICY : PHRASING_POLICY);
}

const OUTPUT_POLICY: SanitizeHtml.IOptions = {
  ...COMMON,
  allowedTags: [
    ...TEXT_TAGS,
    ...BLOCK_TAGS,
    ...TABLE_TAGS,
    'a',
    'img',
    'section',
    'div',
    'nav',
    'cite',
    'details',
    'summary',
    'iframe',
  ],
  allowedAttributes: {
    ...VALUE_ATTRIBUTES,
    // `lang` marks text in another language than the page's (a fallback); the renderer writes it,
    // values never carry it (their own pass drops it).
    '*': [...VALUE_ATTRIBUTES['*']!, 'lang'],
    img: ['src', 'alt', 'loading'],
    h2: ['id'],
    h3: ['id'],
    section: ['data-widget-id'],
    div: ['data-widget-id'],
    iframe: ['src', 'loading', 'allowfullscreen', 'referrerpolicy'],
  },
  allowedIframeHostnames: [...VIDEO_EMBED_HOSTS],
  allowIframeRelativeUrls: false,
  transformTags: { ...HEADING_MAP, '*': (tag, attribs) => checkAttributes(tag, attribs, true) },
};

/** Final pass over a renderer's complete output. */
export function sanitizeOutput(html: string): string {
  return sanitizeMemo(html, OUTPUT_POLICY);
}

/** Escapes a plain text for use as HTML text or a quoted attribute value. */
export function escapeText(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const TEXT_ONLY: SanitizeHtml.IOptions = {
  ...COMMON,
  // Block boundaries are kept as tags for a moment so that they become spaces below.
  allowedTags: ['p', 'br', 'li', 'h2', 'h3', 'h4', 'td', 'th', 'div', 'blockquote', 'figcaption', 'tr'],
  allowedAttributes: {},
  transformTags: HEADING_MAP,
};

/** Tags TEXT_ONLY keeps for a moment (each becomes a space) that the fast path accepts. */
const TEXT_BLOCKS = new Set(['p', 'h2', 'h3', 'h4', 'div', 'blockquote']);
/** Inline tags TEXT_ONLY drops (their text stays, nothing else): they never close a block. */
const TEXT_INLINE = new Set(['strong', 'b', 'em', 'i', 'u', 's', 'sub', 'sup', 'span', 'code']);
/** Text without `< > & "` or NUL, or one lower-case tag without attributes (HTML's own spaces). */
const TEXT_TOKEN = /[^<>&"\0]+|<(\/?)([a-z][a-z0-9]*)[ \t\n\f\r]*(\/?)>/y;

/** What scanPlainMarkup read: the text, and whether sanitizeHtml would return the input as is. */
interface PlainMarkup {
  text: string;
  /** No `div` (VALUE_POLICY drops it), no `br` (written `<br />`), no spaces inside tags. */
  canonical: boolean;
}

/**
 * Plain markup read without parsing, the shape of most catalogue descriptions: text with no
 * `< > & "`, blocks (`p`, `h2`–`h4`, `div`, `blockquote`) holding inline tags and `br`, and
 * lists (`ul`/`ol` of `li`), every tag closed in order and none with attributes. Anything else
 * (entities, attributes, other tags, a block inside an inline tag or a `p`, a stray or missing
 * end tag — all that htmlparser2 repairs) returns undefined, and the caller parses. On what it
 * accepts, sanitize-html's TEXT_ONLY output is the input minus the inline and list tags, so the
 * text is the input with block tags and `li`/`br` as spaces and the others removed; and
 * VALUE_POLICY keeps every tag but `div` as written (property tests compare both with the parse).
 */
function scanPlainMarkup(html: string): PlainMarkup | undefined {
  let out = '';
  let canonical = true;
  const open: string[] = [];
  TEXT_TOKEN.lastIndex = 0;
  while (TEXT_TOKEN.lastIndex < html.length) {
    const token = TEXT_TOKEN.exec(html);
    if (token === null) return undefined;
    const name = token[2];
    if (name === undefined) {
      out += token[0];
      continue;
    }
    if (token[0].length !== name.length + 2 + token[1]!.length) canonical = false;
    const closing = token[1] === '/';
    const top = open.at(-1);
    if (name === 'br') {
      // <br>, <br/>, <br />: a line break inside text (never </br>, which htmlparser2 repairs).
      if (closing) return undefined;
      canonical = false;
      out += ' ';
    } else if (token[3] === '/') {
      return undefined;
    } else if (closing) {
      if (top !== name) return undefined;
      open.pop();
      out += TEXT_INLINE.has(name) || name === 'ul' || name === 'ol' ? '' : ' ';
    } else if (TEXT_INLINE.has(name)) {
      // Inside a block, a list item or at the top; never directly in a list.
      if (top === 'ul' || top === 'ol') return undefined;
      open.push(name);
    } else if (name === 'li') {
      if (top !== 'ul' && top !== 'ol') return undefined;
      open.push(name);
      out += ' ';
    } else if (TEXT_BLOCKS.has(name) || name === 'ul' || name === 'ol') {
      // Blocks only at the top level, or inside a div or blockquote (never a p, a heading, a
      // list item or an inline tag, whose end htmlparser2 would move).
      if (top !== undefined && top !== 'div' && top !== 'blockquote') return undefined;
      if (name === 'div') canonical = false;
      open.push(name);
      if (TEXT_BLOCKS.has(name)) out += ' ';
    } else {
      return undefined;
    }
  }
  if (open.length > 0) return undefined;
  return { text: out.replace(/\s+/g, ' ').trim(), canonical };
}

/** `htmlToText` without parsing, for plain markup (scanPlainMarkup); undefined otherwise. */
export function plainMarkupText(html: string): string | undefined {
  return scanPlainMarkup(html)?.text;
}

/** Whether sanitizeHtml returns `html` unchanged, known without parsing (scanPlainMarkup). */
export function isCanonicalPlainMarkup(html: string): boolean {
  return scanPlainMarkup(html)?.canonical === true;
}

/** `htmlToText` by parsing: what sanitize-html's TEXT_ONLY policy leaves, decoded and tidied. */
export function parsedHtmlToText(html: string): string {
  // sanitize-html's output escapes exactly & < > " in text, so those four are all there is to decode.
  return sanitizeMemo(html, TEXT_ONLY)
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The readable text of an HTML fragment: tags removed, entities decoded, whitespace collapsed.
 * Used for lengths, heading texts and the plain-text descriptions of rich snippets. Plain markup
 * (plainMarkupText) is read without parsing: the rich snippet of every language reads its
 * description, which a parse made the largest part of it.
 */
export function htmlToText(html: string): string {
  return plainMarkupText(html) ?? parsedHtmlToText(html);
}

/** The fixed policies of this module, for the tests that check sanitize-html's behaviour under them. */
export const POLICIES: Readonly<Record<string, SanitizeHtml.IOptions>> = {
  value: VALUE_POLICY,
  phrasing: PHRASING_POLICY,
  linkText: LINK_TEXT_POLICY,
  output: OUTPUT_POLICY,
  textOnly: TEXT_ONLY,
};
