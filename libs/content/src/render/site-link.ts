/**
 * Site links: the content's h2/h3 headings as an in-page navigation. The slugs are the ids that
 * `renderHtml` puts on the same headings (both come from `resolveTree`), so the links land.
 */
import type { ContentWidget } from '../model';
import { resolveTree, type ResolvedTree } from './html';

export interface SiteLinkItem {
  heading: string;
  slug: string;
}

export interface SiteLink {
  html: string;
  list: SiteLinkItem[];
}

/** Text as sanitize-html writes it: only `& < >` escaped (quotes are plain text outside attributes). */
const asText = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The navigation is built only from fixed markup, slugs (`[a-z0-9-]`) and escaped text, so
 * nothing in it can open a tag or an attribute; it is written in the form the output allow-list
 * gives back, so that pass is not run on it (a property test checks that it would change nothing).
 */
export function siteLinkFromResolved(tree: ResolvedTree): SiteLink {
  const headings = [...tree.headings.values()];
  if (headings.length === 0) return { html: '', list: [] };
  const items = headings
    .map(
      (h) =>
        `<li class="ccs-site-link__item ccs-site-link__item--h${h.level}">` +
        `<a href="#${h.slug}">${asText(h.heading)}</a></li>`,
    )
    .join('');
  return {
    html: `<nav class="ccs-site-link"><ul class="ccs-site-link__list">${items}</ul></nav>`,
    list: headings.map(({ heading, slug }) => ({ heading, slug })),
  };
}

export function renderSiteLink(tree: readonly ContentWidget[], lang: string): SiteLink {
  return siteLinkFromResolved(resolveTree(tree, lang));
}
