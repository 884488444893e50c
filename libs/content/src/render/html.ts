/**
 * The full-HTML renderer, and the per-language resolution every other renderer builds on.
 * Rendering is a pure function of (tree, language): each element takes its value in that
 * language (falling back to `default`), values are sanitised again here whatever their origin,
 * and the output goes through the output allow-list once more, widget by widget — except for a
 * widget that nests plainly, whose HTML is written exactly as that pass would give it back.
 */
import { pickLanguage, pickText, wireExtension, type ContentWidget } from '../model';
import { htmlToText, sanitizeHtml, sanitizeOutput, sanitizePhrasing } from '../sanitize';
import { slugifyHeading, SlugRegistry } from '../slug';
import { safeHref, safeSrc, videoEmbedUrl } from '../urls';
import {
  CELL_TAGS,
  elementForest,
  nestsPlainly,
  PHRASING_TAGS,
  widgetsOf,
  type ElementNode,
} from './structure';

export interface HeadingLink {
  level: 2 | 3;
  heading: string;
  slug: string;
}

export interface ResolvedWidget {
  widget: ContentWidget;
  roots: ElementNode[];
  /** See `nestsPlainly`: the output pass would give this widget's HTML back unchanged. */
  plain: boolean;
}

export interface ResolvedTree {
  lang: string;
  widgets: ResolvedWidget[];
  /** h2/h3 elements with text, in document order, with their page-unique slugs. */
  headings: Map<ElementNode, HeadingLink>;
  /**
   * Widgets with a heading whose slug the widgets before it changed (a second "Size" is
   * `size-2`): only these render differently on the page than alone.
   */
  slugsFromPage: Set<ResolvedWidget>;
}

function attributes(element: ElementNode['element']): Record<string, unknown> {
  const ext = element.extension;
  return typeof ext === 'object' && ext !== null && !Array.isArray(ext) ? ext : {};
}

function innerHtml(node: ElementNode, lang: string): string {
  const value = pickLanguage(node.element.value, lang);
  if (value === '') return '';
  return PHRASING_TAGS.has(node.tag) ? sanitizePhrasing(value, node.tag === 'a') : sanitizeHtml(value);
}

/** The element hierarchy of every widget (language independent), built once for all languages. */
export type WidgetForest = readonly ResolvedWidget[];

export function widgetForest(tree: readonly ContentWidget[]): WidgetForest {
  return widgetsOf(tree).map((widget) => {
    const roots = elementForest(widget);
    return { widget, roots, plain: nestsPlainly(roots) };
  });
}

export function resolveTree(
  tree: readonly ContentWidget[],
  lang: string,
  forest: WidgetForest = widgetForest(tree),
): ResolvedTree {
  const slugs = new SlugRegistry();
  const headings = new Map<ElementNode, HeadingLink>();
  const slugsFromPage = new Set<ResolvedWidget>();
  const widgets = [...forest];
  for (const widget of widgets) {
    const alone = new SlugRegistry();
    const visit = (node: ElementNode): void => {
      if (node.tag === 'h2' || node.tag === 'h3') {
        const heading = htmlToText(innerHtml(node, lang));
        if (heading !== '') {
          const base = slugifyHeading(heading);
          const slug = slugs.claim(base);
          if (alone.claim(base) !== slug) slugsFromPage.add(widget);
          headings.set(node, { level: node.tag === 'h2' ? 2 : 3, heading, slug });
        }
      }
      node.children.forEach(visit);
    };
    widget.roots.forEach(visit);
  }
  return { lang, widgets, headings, slugsFromPage };
}

const ATTRIBUTE_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
};

/** An attribute as sanitize-html writes one: `& < > "` escaped, nothing else. */
const attr = (name: string, value: string): string =>
  ` ${name}="${/[&<>"]/.test(value) ? value.replace(/[&<>"]/g, (ch) => ATTRIBUTE_ESCAPES[ch]!) : value}"`;

function renderNode(node: ElementNode, tree: ResolvedTree, allowEmpty: boolean, extra = ''): string | null {
  const ext = attributes(node.element);
  const title = pickText(ext.title, tree.lang);
  let open = node.className ? attr('class', node.className) : '';
  const heading = tree.headings.get(node);
  if (heading) open += attr('id', heading.slug);
  open += extra;

  if (node.tag === 'img') {
    const src = safeSrc(pickText(ext.src, tree.lang));
    if (src === null) return null;
    open += attr('src', src) + attr('alt', pickText(ext.alt, tree.lang));
    return `<img${open}${title ? attr('title', title) : ''} loading="lazy" />`;
  }
  if (node.tag === 'iframe') {
    const src = videoEmbedUrl(pickText(ext.src, tree.lang));
    if (src === null) return null;
    open += attr('src', src) + (title ? attr('title', title) : '');
    return `<iframe${open} loading="lazy" allowfullscreen referrerpolicy="strict-origin-when-cross-origin"></iframe>`;
  }
  if (node.tag === 'hr' || node.tag === 'br') return `<${node.tag}${open} />`;

  const inner = innerHtml(node, tree.lang) + renderChildren(node, tree);
  if (inner.trim() === '' && !(allowEmpty && CELL_TAGS.has(node.tag))) return null;
  let tag = node.tag;
  if (tag === 'a') {
    const href = safeHref(pickText(ext.href, tree.lang));
    // A link whose target is unsafe or missing keeps its text and loses the link.
    if (href === null) tag = 'span';
    else open += attr('href', href);
  }
  if (title) open += attr('title', title);
  return `<${tag}${open}>${inner}</${tag}>`;
}

function renderChildren(node: ElementNode, tree: ResolvedTree): string {
  const rendered = node.children.map((child) => renderNode(child, tree, false));
  // A table row keeps all of its cells (empty ones too) as soon as one cell has content.
  if (node.tag === 'tr' && rendered.some((html) => html !== null)) {
    return node.children.map((child) => renderNode(child, tree, true) ?? '').join('');
  }
  return rendered.filter((html): html is string => html !== null).join('');
}

function widgetIdAttribute(widget: ContentWidget): string {
  return Number.isSafeInteger(widget.id) ? attr('data-widget-id', String(widget.id)) : '';
}

/** A widget's HTML inside its wrapper, or '' when nothing of it renders in this language. */
export function renderResolvedWidget(resolved: ResolvedWidget, tree: ResolvedTree): string {
  const idAttribute = widgetIdAttribute(resolved.widget);
  const [only, ...rest] = resolved.roots;
  const wrapped =
    only !== undefined &&
    rest.length === 0 &&
    (only.tag === 'section' || only.tag === 'div') &&
    only.className.split(' ').includes('ccs-widget');
  if (wrapped) return renderNode(only, tree, false, idAttribute) ?? '';
  const inner = resolved.roots
    .map((root) => renderNode(root, tree, false))
    .filter((html): html is string => html !== null)
    .join('');
  return inner === '' ? '' : `<div class="ccs-widget"${idAttribute}>${inner}</div>`;
}

/**
 * Each widget's final HTML, through the output allow-list one widget at a time. A widget's HTML is
 * balanced (its wrapper closes everything it opens), so this is what one pass over the whole
 * page gives (a property test checks it), and a widget rendered before — while composing, in
 * another language that falls back to the same values, for another item with the same
 * parameters — is not parsed again.
 */
export function renderResolvedWidgets(tree: ResolvedTree): string[] {
  return tree.widgets.map((w) => {
    const html = renderResolvedWidget(w, tree);
    return w.plain ? html : sanitizeOutput(html);
  });
}

export function renderResolved(tree: ResolvedTree): string {
  return renderResolvedWidgets(tree).join('');
}

/** The full HTML of a tree in one language. */
export function renderHtml(tree: readonly ContentWidget[], lang: string): string {
  return renderResolved(resolveTree(tree, lang));
}

/** The tree with each widget's `html` field re-rendered (alone, in one language), e.g. after an edit. */
export function withWidgetHtml(tree: readonly ContentWidget[], lang = 'default'): ContentWidget[] {
  return tree.map((widget) => ({
    ...widget,
    // Every v3 answer and editor write passes here: trees stored with `{}` come out as `[]`.
    children: widget.children.map((element) => ({ ...element, extension: wireExtension(element.extension) })),
    html: renderHtml([widget], lang),
  }));
}
