/**
 * Sample content in stored trees. A widget added from the catalogue starts with the catalogue's
 * sample texts and images wherever the item has no data of its own (see `starterWidget`); each
 * element records which of its parts are still sample (`ContentElement.sample`). The editor shows
 * them as "to fill"; a storefront never receives them: every public output is rendered from
 * {@link publicTree}, which leaves the sample parts out, drops an element that had nothing but
 * sample (and a container left with nothing in it), and drops a widget left with no content.
 */
import { isOneOf, isRecord } from '@catalogue/config';
import { isLangMap, type ContentElement, type ContentWidget, type SamplePart } from './model';
import { normaliseTag } from './render/structure';

const PARTS: ReadonlySet<string> = new Set<SamplePart>(['value', 'src', 'href', 'title']);
const VOID = new Set(['hr', 'br']);

/** The element's sample parts (stored trees come from JSON: anything unknown is ignored). */
export function sampleParts(element: ContentElement): SamplePart[] {
  const parts: unknown = element.sample;
  return Array.isArray(parts)
    ? parts.filter((p): p is SamplePart => typeof p === 'string' && PARTS.has(p))
    : [];
}

const elementsOf = (widget: ContentWidget): ContentElement[] =>
  Array.isArray(widget?.children) ? widget.children.filter((e) => typeof e === 'object' && e !== null) : [];

/** True when some element of the tree still holds sample content. */
export function hasSample(tree: readonly ContentWidget[]): boolean {
  return Array.isArray(tree) && tree.some((w) => elementsOf(w).some((e) => sampleParts(e).length > 0));
}

/**
 * The tree as answered in `lang`: an element with a text of its own in `lang` is no longer a
 * sample in that language (its sample `value` is the `default` text, which that language's page
 * does not show, while a storefront publishes the own text), so `value` leaves its `sample`
 * there. `default` (and a tree without sample) is answered as stored.
 */
export function sampleIn(tree: readonly ContentWidget[], lang: string): ContentWidget[] {
  if (lang === 'default' || !hasSample(tree)) return [...tree];
  const own = (e: ContentElement): boolean => {
    const text = isRecord(e.value) ? e.value[lang] : undefined;
    return typeof text === 'string' && text.trim() !== '';
  };
  return tree.map((widget) => {
    const elements = elementsOf(widget);
    if (!elements.some((e) => sampleParts(e).includes('value') && own(e))) return widget;
    return {
      ...widget,
      children: elements.map((e) =>
        sampleParts(e).includes('value') && own(e) ? adoptSample(e, ['value']) : e,
      ),
    };
  });
}

/** The element with `parts` no longer marked as sample (the person wrote them). */
export function adoptSample(element: ContentElement, parts: readonly SamplePart[]): ContentElement {
  const marked = sampleParts(element);
  if (marked.length === 0 || !parts.some((p) => marked.includes(p))) return element;
  const rest = marked.filter((p) => !parts.includes(p));
  const { sample: _dropped, ...plain } = element;
  return rest.length > 0 ? { ...plain, sample: rest } : plain;
}

function attributesOf(element: ContentElement): Record<string, unknown> {
  const ext = element.extension;
  return isRecord(ext) ? ext : {};
}

/** The element without its sample parts (the sample `value` is its `default` language). */
function stripped(element: ContentElement, parts: readonly SamplePart[]): ContentElement {
  const value = { ...(isLangMap(element.value) ? element.value : {}) };
  if (parts.includes('value')) delete value.default;
  const attributes = Object.fromEntries(
    Object.entries(attributesOf(element)).filter(([name]) => !isOneOf(parts, name)),
  );
  const { sample: _dropped, ...plain } = element;
  return { ...plain, value, extension: Object.keys(attributes).length > 0 ? attributes : [] };
}

const filled = (value: unknown): boolean =>
  (typeof value === 'string' && value.trim() !== '') ||
  (isLangMap(value) && Object.values(value).some((v) => typeof v === 'string' && v.trim() !== ''));

/** Something of its own to show: a value, an image/video source, or a rule or break. */
function ownContent(element: ContentElement): boolean {
  return filled(element.value) || filled(attributesOf(element).src) || VOID.has(normaliseTag(element.tag));
}

/** The widget as a storefront sees it, or null when nothing but sample was in it. */
function publicWidget(widget: ContentWidget): ContentWidget | null {
  const elements = elementsOf(widget);
  if (!elements.some((e) => sampleParts(e).length > 0)) return widget;
  const strippedIds = new Set<number>();
  const shown = elements.map((e) => {
    const parts = sampleParts(e);
    if (parts.length === 0) return e;
    strippedIds.add(e.id);
    return stripped(e, parts);
  });
  const byParent = new Map<number, ContentElement[]>();
  for (const e of shown) byParent.set(e.parent_id, [...(byParent.get(e.parent_id) ?? []), e]);
  const kept: ContentElement[] = [];
  const visited = new Set<ContentElement>();
  // Answers whether the element (with what is kept below it) has content; keeps it unless it
  // lost everything it had to sample: its own sample parts, or every child.
  const visit = (element: ContentElement): boolean => {
    if (visited.has(element)) return false;
    visited.add(element);
    const below = element.id === 0 ? [] : (byParent.get(element.id) ?? []);
    const mark = kept.length;
    kept.push(element);
    const before = kept.length;
    const childContent = below.map(visit);
    const keptChildren = kept.slice(before).filter((e) => e.parent_id === element.id).length;
    const content = ownContent(element) || childContent.some(Boolean);
    const lostChildren = below.length > 0 && keptChildren === 0;
    if (!content && (strippedIds.has(element.id) || lostChildren)) kept.splice(mark);
    return content;
  };
  const rootContent = (byParent.get(0) ?? []).map(visit);
  if (!rootContent.some(Boolean)) return null;
  return { ...widget, children: kept };
}

/**
 * The tree a storefront receives: without sample content (see the module comment). A tree
 * without sample is answered as it is (the same array), so renderers can tell nothing changed.
 */
export function publicTree(tree: readonly ContentWidget[]): readonly ContentWidget[] {
  if (!hasSample(tree)) return tree;
  return tree.flatMap((widget) => {
    if (typeof widget !== 'object' || widget === null) return [];
    const shown = publicWidget(widget);
    return shown === null ? [] : [shown];
  });
}
