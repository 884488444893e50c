/**
 * The full-HTML renderer, and the per-language resolution every other renderer builds on.
 * Rendering is a pure function of (tree, language): each element takes its value in that
 * language (falling back to `default`), values are sanitised again here whatever their origin,
 * and the output goes through the output allow-list once more, widget by widget — except for a
 * widget that nests plainly, whose HTML is written exactly as that pass would give it back.
 */
import type { ContentFallback } from '@catalogue/config';
import { isLangMap, pickLanguage, pickText, wireExtension, type ContentWidget, type Text } from '../model';
import { isLanguageNeutral } from '../neutral';
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

/**
 * What a page in one language does with a text that language does not have (an eshop setting):
 * `fallback` shows the `default` text marked with `lang="<defaultLanguage>"` (`und` when the
 * eshop has not said which language its `default` texts are in); `omit` leaves every widget with
 * such a text out of that language's page. A language equal to `defaultLanguage` reads the
 * `default` texts as its own.
 */
export interface FallbackPolicy {
  mode: ContentFallback;
  defaultLanguage: string | null;
}

export const DEFAULT_FALLBACK_POLICY: FallbackPolicy = { mode: 'fallback', defaultLanguage: null };

/** The code the `default` texts are marked with on another language's page. */
export const defaultLanguageCode = (policy: FallbackPolicy): string => policy.defaultLanguage ?? 'und';

const hasText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/**
 * Whether a value shows its `default` text on the `lang` page because it has none of its own
 * (never on the `default` page, nor on the page of the language the default texts are in).
 */
export function fallsBack(value: unknown, lang: string, policy: FallbackPolicy): boolean {
  if (lang === 'default' || lang === policy.defaultLanguage || !isLangMap(value)) return false;
  return !hasText(value[lang]) && hasText(value.default);
}

/** Whether a value has text of its own for the `lang` page (or none in any language). */
export function ownsText(value: unknown, lang: string, policy: FallbackPolicy): boolean {
  if (!isLangMap(value)) return true;
  const texts = Object.values(value).filter(hasText);
  if (texts.length === 0) return true;
  return hasText(value[lang]) || (lang === policy.defaultLanguage && hasText(value.default));
}

/**
 * Every text of a widget the renderers read per language: element values and image alt texts,
 * except language-neutral data (neutral.ts), which is every language's own.
 */
function widgetTexts(widget: ContentWidget): unknown[] {
  return widget.children.flatMap((element) => {
    if (isLanguageNeutral(element)) return [];
    const ext = element.extension;
    const alt = isLangMap(ext) && element.tag === 'img' ? [ext.alt] : [];
    return [element.value, ...alt];
  });
}

/**
 * The eshop languages in which every text of the tree is the language's own (nothing falls back
 * to `default`, nothing is missing that another language has), in the order given. Language-neutral
 * data (parameter names and values) never makes a language incomplete.
 */
export function completeLanguages(
  tree: readonly ContentWidget[],
  languages: readonly string[],
  policy: FallbackPolicy = DEFAULT_FALLBACK_POLICY,
): string[] {
  const texts = tree.flatMap(widgetTexts);
  return [...new Set(languages)].filter((lang) => texts.every((text) => ownsText(text, lang, policy)));
}

export interface ResolvedTree {
  lang: string;
  /**
   * The `lang` attribute a fallback text gets on this page (the policy's code for `default`), or
   * null on a page that never falls back (`default`, or the language the default texts are in).
   */
  fallbackLang: string | null;
  policy: FallbackPolicy;
  widgets: ResolvedWidget[];
  /** h2/h3 elements with text, in document order, with their page-unique slugs. */
  headings: Map<ElementNode, HeadingLink>;
  /**
   * The item's name (plain text), the words of a content image without an alt text of its own and
   * of a video frame without a title; null when the caller has none (a widget rendered alone).
   */
  subject: Text | null;
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
  policy: FallbackPolicy = DEFAULT_FALLBACK_POLICY,
  subject: Text | null = null,
): ResolvedTree {
  const slugs = new SlugRegistry();
  const headings = new Map<ElementNode, HeadingLink>();
  const slugsFromPage = new Set<ResolvedWidget>();
  const fallbackLang =
    lang === 'default' || lang === policy.defaultLanguage ? null : defaultLanguageCode(policy);
  // `omit`: a widget that would show a `default` text is not on this language's page at all
  // (nor are its headings in the site links). Only shown texts count: an image whose alt text
  // falls back stays (marked), images being the same in every language.
  const widgets =
    policy.mode === 'omit' && fallbackLang !== null
      ? forest.filter(
          (w) => !w.widget.children.some((e) => !isLanguageNeutral(e) && fallsBack(e.value, lang, policy)),
        )
      : [...forest];
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
  return { lang, fallbackLang, policy, widgets, headings, slugsFromPage, subject };
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

/**
 * The `lang` attribute an element needs, if any: a text that falls back is marked with the code
 * of `default`; a text of the page's own language inside such an element is marked back with it.
 * `within` is the language an enclosing element declared (null: the page's).
 */
function languageMark(text: unknown, tree: ResolvedTree, within: string | null): string | null {
  if (tree.fallbackLang === null || !isLangMap(text)) return null;
  const fallback = fallsBack(text, tree.lang, tree.policy);
  if (fallback) return within === tree.fallbackLang ? null : tree.fallbackLang;
  return within !== null && hasText(text[tree.lang]) ? tree.lang : null;
}

/** An icon beside a text (a benefit's) says nothing the text does not: it is decorative. */
const isDecorative = (node: ElementNode): boolean => /(^|\s)[a-z0-9-]+__icon(\s|$)/.test(node.className);

/**
 * The words of an image: none for a decorative icon (`alt=""`), else its own alt text, else the
 * item's name, so that no content image is published without words.
 */
function altText(node: ElementNode, own: unknown, tree: ResolvedTree): unknown {
  if (isDecorative(node)) return '';
  return pickText(own, tree.lang).trim() !== '' ? own : (tree.subject ?? own);
}

/** A video frame's title when its widget has no heading: the item's name, else the player's. */
function frameTitle(src: string, tree: ResolvedTree): string {
  const name = pickText(tree.subject, tree.lang).trim();
  if (name !== '') return name;
  return src.startsWith('https://player.vimeo.com/') ? 'Vimeo' : 'YouTube';
}

function renderNode(
  node: ElementNode,
  tree: ResolvedTree,
  allowEmpty: boolean,
  extra = '',
  within: string | null = null,
): string | null {
  const ext = attributes(node.element);
  const title = pickText(ext.title, tree.lang);
  let open = node.className ? attr('class', node.className) : '';
  const heading = tree.headings.get(node);
  if (heading) open += attr('id', heading.slug);
  open += extra;
  // Language-neutral data (neutral.ts) is the page's own in every language: never marked.
  const alt = node.tag === 'img' ? altText(node, ext.alt, tree) : undefined;
  const mark = isLanguageNeutral(node.element) ? null : languageMark(alt ?? node.element.value, tree, within);
  if (mark !== null) open += attr('lang', mark);
  const declared = mark ?? within;

  if (node.tag === 'img') {
    const src = safeSrc(pickText(ext.src, tree.lang));
    if (src === null) return null;
    open += attr('src', src) + attr('alt', pickText(alt, tree.lang).trim());
    return `<img${open}${title ? attr('title', title) : ''} loading="lazy" />`;
  }
  if (node.tag === 'iframe') {
    const src = videoEmbedUrl(pickText(ext.src, tree.lang));
    if (src === null) return null;
    open += attr('src', src) + attr('title', title || frameTitle(src, tree));
    return `<iframe${open} loading="lazy" allowfullscreen referrerpolicy="strict-origin-when-cross-origin"></iframe>`;
  }
  if (node.tag === 'hr' || node.tag === 'br') return `<${node.tag}${open} />`;

  const inner = innerHtml(node, tree.lang) + renderChildren(node, tree, declared);
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

function renderChildren(node: ElementNode, tree: ResolvedTree, within: string | null): string {
  const rendered = node.children.map((child) => renderNode(child, tree, false, '', within));
  // A table row keeps all of its cells (empty ones too) as soon as one cell has content.
  if (node.tag === 'tr' && rendered.some((html) => html !== null)) {
    return node.children.map((child) => renderNode(child, tree, true, '', within) ?? '').join('');
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
export function renderHtml(
  tree: readonly ContentWidget[],
  lang: string,
  policy: FallbackPolicy = DEFAULT_FALLBACK_POLICY,
  subject: Text | null = null,
): string {
  return renderResolved(resolveTree(tree, lang, undefined, policy, subject));
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
