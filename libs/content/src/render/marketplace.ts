/**
 * Marketplace HTML: the same content reduced to what marketplaces (Heureka, Allegro, eMAG, …)
 * accept in a description — bare structural and emphasis tags, no attributes at all, so no
 * classes, styles, ids, data attributes, links, images, iframes or scripts. Built from the full
 * rendering, then cut down by its own strict allow-list rather than trusting the first pass.
 */
import { sanitizeMemo, type SanitizeHtml } from '../sanitize-html';
import type { ContentWidget } from '../model';
import { renderResolvedWidgets, resolveTree } from './html';
import { NON_TEXT_TAGS } from '../sanitize';

/** Containers that must not stay behind once everything inside them has been removed. */
// `summary` (a FAQ question) is renamed to h3 below; the check sees the name it had.
const DROP_WHEN_EMPTY = new Set('h2 h3 h4 p ul ol li strong em table tr summary'.split(' '));

export const MARKETPLACE_TAGS = [
  'h2',
  'h3',
  'h4',
  'p',
  'ul',
  'ol',
  'li',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'strong',
  'em',
  'br',
] as const;

export const MARKETPLACE_POLICY: SanitizeHtml.IOptions = {
  allowedTags: [...MARKETPLACE_TAGS],
  allowedAttributes: {},
  allowedSchemes: [],
  allowedStyles: {},
  parseStyleAttributes: false,
  disallowedTagsMode: 'discard',
  nonTextTags: NON_TEXT_TAGS,
  transformTags: {
    h1: 'h2',
    h5: 'h4',
    h6: 'h4',
    b: 'strong',
    i: 'em',
    blockquote: 'p',
    figcaption: 'p',
    caption: 'p',
    tfoot: 'tbody',
    // A FAQ question (the `summary` of its `details`) stays a heading; `details` itself is unwrapped.
    summary: 'h3',
  },
  exclusiveFilter: (frame) => DROP_WHEN_EMPTY.has(frame.tag) && frame.text.trim() === '',
};

export function toMarketplaceHtml(html: string): string {
  return sanitizeMemo(html, MARKETPLACE_POLICY);
}

/**
 * Tags this policy can keep with nothing inside: allowed ones not in DROP_WHEN_EMPTY, and those
 * renamed by `transformTags` (the empty-check sees the name they had: an empty `blockquote`
 * stays as `<p></p>`).
 */
const KEPT_WHEN_EMPTY = /<(br|td|th|thead|tbody|tfoot|blockquote|figcaption|caption|b|i|h1|h5|h6)\b/i;

/**
 * A widget's HTML without any text (only tags: a gallery, an image) and without a tag kept when
 * empty: the marketplace pass would return '' for it (a property test checks this), so it is not
 * parsed. Attribute values cannot hide a `>`: the renderer and sanitize-html escape it.
 */
export const hasNoMarketplaceText = (html: string): boolean =>
  html.replace(/<[^>]*>/g, '') === '' && !KEPT_WHEN_EMPTY.test(html);

/** The marketplace HTML of a page from its widgets' HTML, cut down one widget at a time (see `renderResolvedWidgets`). */
export function marketplaceFromWidgets(widgetsHtml: readonly string[]): string {
  return widgetsHtml.map((html) => (hasNoMarketplaceText(html) ? '' : toMarketplaceHtml(html))).join('');
}

export function renderMarketplace(tree: readonly ContentWidget[], lang: string): string {
  return marketplaceFromWidgets(renderResolvedWidgets(resolveTree(tree, lang)));
}
