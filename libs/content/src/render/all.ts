/**
 * Every stored output of one entity for its active languages (render on write, serve on read).
 * Each language is resolved once and shared by the html, marketplace and site-link outputs, so
 * the heading ids in `html` and the slugs in `site_link` always agree.
 */
import type { ContentWidget, LangMap, NestedNode } from '../model';
import { publicTree } from '../sample';
import { buildRichSnippet, type JsonLd, type SnippetEntity } from '../snippet';
import {
  completeLanguages,
  DEFAULT_FALLBACK_POLICY,
  renderHtml,
  renderResolvedWidgets,
  resolveTree,
  widgetForest,
  type FallbackPolicy,
  type ResolvedTree,
} from './html';
import { marketplaceFromWidgets } from './marketplace';
import { nestedFromForest } from './nested';
import { siteLinkFromResolved, type SiteLinkItem } from './site-link';

export interface RenderedContent {
  html: LangMap;
  marketplace: LangMap;
  nested: NestedNode[][];
  site_link: { html: LangMap; list: Record<string, SiteLinkItem[]> };
  rich_snippet: { html: LangMap; json: Record<string, JsonLd> };
  /** The languages whose page shows only texts of its own (see `completeLanguages`). */
  languages_complete: string[];
}

/**
 * Every output is a storefront's: rendered from {@link publicTree}, never with sample content.
 * Every language gets a key in every language map (an empty string when nothing renders) and in
 * `site_link.list`; `rich_snippet.json` only has the languages that have a snippet.
 */
export function renderAll(
  tree: readonly ContentWidget[],
  entity: SnippetEntity | null,
  languages: readonly string[],
  policy: FallbackPolicy = DEFAULT_FALLBACK_POLICY,
): RenderedContent {
  return renderOutputs(publicTree(tree), entity, languages, policy);
}

/**
 * {@link renderAll} for a tree just composed or filled (its widgets' `html` not written yet):
 * also writes each widget's `html` (the widget alone, in `htmlLanguage`, as `withWidgetHtml`
 * would). A widget renders alone as it does on the page unless widgets before it changed one of
 * its heading slugs, so the page's rendering in that language is reused for all other widgets.
 */
export function renderComposed(
  tree: ContentWidget[],
  entity: SnippetEntity | null,
  languages: readonly string[],
  htmlLanguage = 'default',
  policy: FallbackPolicy = DEFAULT_FALLBACK_POLICY,
): RenderedContent {
  // A widget's own `html` is what the editor shows: never omitted, whatever the page does.
  const alone: FallbackPolicy = { ...policy, mode: 'fallback' };
  const written = new Set<ContentWidget>();
  const shown = publicTree(tree);
  const out = renderOutputs(shown, entity, languages, policy, (resolved, widgetsHtml) => {
    // A widget's own `html` is the editor's (sample included): only reused when they agree.
    if (resolved.lang !== htmlLanguage || shown !== tree) return;
    resolved.widgets.forEach((w, i) => {
      // The page names images and frames after the item; the editor's widget alone does not.
      w.widget.html =
        resolved.slugsFromPage.has(w) || (resolved.subject !== null && hasMedia(w.widget))
          ? renderHtml([w.widget], htmlLanguage, alone)
          : widgetsHtml[i]!;
      written.add(w.widget);
    });
  });
  for (const widget of tree)
    if (!written.has(widget)) widget.html = renderHtml([widget], htmlLanguage, alone);
  return out;
}

const hasMedia = (widget: ContentWidget): boolean =>
  widget.children.some((e) => e.tag === 'img' || e.tag === 'iframe');

function renderOutputs(
  tree: readonly ContentWidget[],
  entity: SnippetEntity | null,
  languages: readonly string[],
  policy: FallbackPolicy,
  onPage?: (resolved: ResolvedTree, widgetsHtml: readonly string[]) => void,
): RenderedContent {
  const forest = widgetForest(tree);
  const out: RenderedContent = {
    html: {},
    marketplace: {},
    nested: nestedFromForest(forest),
    site_link: { html: {}, list: {} },
    rich_snippet: { html: {}, json: {} },
    languages_complete: completeLanguages(tree, languages, policy),
  };
  for (const lang of new Set(languages)) {
    const resolved = resolveTree(tree, lang, forest, policy, entity?.name ?? null);
    const widgetsHtml = renderResolvedWidgets(resolved);
    onPage?.(resolved, widgetsHtml);
    out.html[lang] = widgetsHtml.join('');
    out.marketplace[lang] = marketplaceFromWidgets(widgetsHtml);
    const siteLink = siteLinkFromResolved(resolved);
    out.site_link.html[lang] = siteLink.html;
    out.site_link.list[lang] = siteLink.list;
    const snippet = entity === null ? { html: '', json: null } : buildRichSnippet(entity, lang);
    out.rich_snippet.html[lang] = snippet.html;
    if (snippet.json !== null) out.rich_snippet.json[lang] = snippet.json;
  }
  return out;
}
