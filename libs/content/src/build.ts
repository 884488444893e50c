/**
 * Instantiates a widget template with prepared content (values already sanitised or escaped)
 * into a content widget. Shared by filling, composition and previews, so that the three can
 * never disagree about which element a field becomes. Element ids are handed out in document
 * order by the caller's counter, which is what makes a whole tree deterministic.
 */
import type { Binding, FieldSpec, TemplateNode, WidgetDefinition } from './catalogue/types';
import {
  isEmptyLangMap,
  mapLangMap,
  wireExtension,
  type ContentElement,
  type ContentWidget,
  type LangMap,
  type SamplePart,
} from './model';
import { htmlToText } from './sanitize';

/** Content for one widget, every text already in its stored form (see `prepareText`). */
export interface WidgetContent {
  fields: Record<string, LangMap>;
  items: Array<Record<string, LangMap>>;
  images: string[];
  icons: string[];
  /** Alternative text for the widget's images (compose uses the item's name). */
  alt?: LangMap;
  /** Which of this content is the catalogue's sample: the elements it becomes are marked so. */
  sample?: SampleContent;
}

/** The parts of a {@link WidgetContent} that are sample content. */
export interface SampleContent {
  /** Roles of `fields`. */
  fields?: readonly string[];
  items?: boolean;
  images?: boolean;
  icons?: boolean;
}

export interface WidgetLimits {
  item_count: number;
  image_slot: number;
  icon_slot: number;
}

interface Proto {
  tag: string;
  class: string;
  editable: boolean;
  value: LangMap;
  extension: Record<string, unknown>;
  children: Proto[];
  /** An empty table cell: kept only when its row has content elsewhere. */
  filler: boolean;
  sample: SamplePart[];
}

interface Scope {
  item?: Record<string, LangMap>;
  itemIndex?: number;
  image?: string;
}

const CELLS = new Set(['th', 'td']);
const VOID = new Set(['hr', 'br']);

/** A language map whose only language is `default` is stored as a plain string attribute. */
function attributeValue(map: LangMap): string | LangMap {
  const langs = Object.keys(map);
  return langs.length === 1 && langs[0] === 'default' ? (map.default ?? '') : map;
}

export function widgetClass(type: string): string {
  return `ccs-widget ccs-widget--${type}`;
}

/** One instantiation: the widget's content cut to its limits, and how many images are placed. */
interface Instantiation {
  content: WidgetContent;
  items: Array<Record<string, LangMap>>;
  images: string[];
  icons: string[];
  /** Images are placed in document order: the next unplaced one. */
  imageCursor: number;
}

function lookup(run: Instantiation, binding: Binding | undefined, scope: Scope): LangMap {
  if (binding === undefined) return {};
  return 'field' in binding ? (run.content.fields[binding.field] ?? {}) : (scope.item?.[binding.item] ?? {});
}

function isSample(run: Instantiation, binding: Binding | undefined, scope: Scope): boolean {
  const sample = run.content.sample;
  if (binding === undefined || sample === undefined) return false;
  return 'field' in binding
    ? (sample.fields ?? []).includes(binding.field)
    : sample.items === true && scope.item !== undefined;
}

/** Which parts of an element come from sample content. */
function sampleOf(
  run: Instantiation,
  node: TemplateNode,
  scope: Scope,
  value: LangMap,
  extension: Record<string, unknown>,
): SamplePart[] {
  const sample = run.content.sample;
  if (sample === undefined) return [];
  const parts: SamplePart[] = [];
  if (!isEmptyLangMap(value) && isSample(run, node.text, scope)) parts.push('value');
  if (extension.src !== undefined) {
    const fromSample =
      node.src === 'image'
        ? sample.images === true
        : node.src === 'icon'
          ? sample.icons === true
          : isSample(run, node.src, scope);
    if (fromSample) parts.push('src');
  }
  if (extension.href !== undefined && isSample(run, node.href, scope)) parts.push('href');
  if (extension.title !== undefined && isSample(run, node.title, scope)) parts.push('title');
  return parts;
}

/** The node's `src`: an image in order (or the scope's), the item's icon, or a bound value. */
function sourceOf(run: Instantiation, node: TemplateNode, scope: Scope): string | LangMap | undefined {
  if (node.src === 'image') return scope.image ?? run.images[run.imageCursor++];
  if (node.src === 'icon') return run.icons[scope.itemIndex ?? 0];
  const map = lookup(run, node.src, scope);
  return isEmptyLangMap(map) ? undefined : attributeValue(map);
}

/** The element's attributes (src, alt, href, title), or null when it needs a source it has not. */
function extensionOf(run: Instantiation, node: TemplateNode, scope: Scope): Record<string, unknown> | null {
  const extension: Record<string, unknown> = {};
  if (node.src !== undefined) {
    const src = sourceOf(run, node, scope);
    if (src === undefined) return null;
    extension.src = src;
    if (node.tag === 'img') extension.alt = run.content.alt ? attributeValue(run.content.alt) : '';
  }
  const href = lookup(run, node.href, scope);
  if (!isEmptyLangMap(href)) extension.href = attributeValue(href);
  // Values are stored as HTML; an attribute wants the text a reader sees.
  const title = mapLangMap(lookup(run, node.title, scope), htmlToText);
  if (!isEmptyLangMap(title)) extension.title = attributeValue(title);
  return extension;
}

/** One template node as an element, or null when it has nothing to show. */
function instantiateNode(run: Instantiation, node: TemplateNode, scope: Scope): Proto | null {
  const value = lookup(run, node.text, scope);
  const extension = extensionOf(run, node, scope);
  if (extension === null) return null;
  const kids = (node.children ?? []).flatMap((child) => instantiateMany(run, child, scope));
  const rowIsEmpty = node.tag === 'tr' && kids.every((k) => k.filler);
  const children = node.tag === 'tr' ? (rowIsEmpty ? [] : kids) : kids.filter((k) => !k.filler);
  const hasContent =
    !isEmptyLangMap(value) || extension.src !== undefined || VOID.has(node.tag) || children.length > 0;
  if (!hasContent && !CELLS.has(node.tag)) return null;
  return {
    tag: node.tag,
    class: node.class,
    editable: node.text !== undefined || node.src !== undefined || node.href !== undefined,
    value,
    extension,
    children,
    filler: !hasContent,
    sample: sampleOf(run, node, scope, value, extension),
  };
}

/** A template node as elements: once per item or per remaining image when it repeats. */
function instantiateMany(run: Instantiation, node: TemplateNode, scope: Scope): Proto[] {
  if (node.repeat === 'items') {
    return run.items.flatMap(
      (item, itemIndex) => instantiateNode(run, node, { ...scope, item, itemIndex }) ?? [],
    );
  }
  if (node.repeat === 'images') {
    const rest = run.images.slice(run.imageCursor);
    run.imageCursor = run.images.length;
    return rest.flatMap((image) => instantiateNode(run, node, { ...scope, image }) ?? []);
  }
  const single = instantiateNode(run, node, scope);
  return single === null ? [] : [single];
}

function instantiate(
  definition: WidgetDefinition,
  content: WidgetContent,
  limits: WidgetLimits,
): Proto | null {
  const run: Instantiation = {
    content,
    items: content.items.slice(0, limits.item_count),
    images: content.images.slice(0, limits.image_slot),
    icons: content.icons.slice(0, limits.icon_slot),
    imageCursor: 0,
  };
  const children = definition.template
    .flatMap((node) => instantiateMany(run, node, {}))
    .filter((k) => !k.filler);
  if (children.length === 0) return null;
  return {
    tag: 'section',
    class: widgetClass(definition.type),
    editable: false,
    value: {},
    extension: {},
    children,
    filler: false,
    sample: [],
  };
}

export interface WidgetIds {
  /** Content widget id. */
  id: number;
  key: number;
  widget_id: number;
  /** Hands out element ids. */
  nextElementId: () => number;
}

/** The content widget, or null when the content leaves nothing to show. */
export function buildWidget(
  definition: WidgetDefinition,
  content: WidgetContent,
  limits: WidgetLimits,
  ids: WidgetIds,
): ContentWidget | null {
  const root = instantiate(definition, content, limits);
  if (root === null) return null;
  const elements: ContentElement[] = [];
  const flatten = (proto: Proto, parentId: number, childId: number): void => {
    const id = ids.nextElementId();
    elements.push({
      id,
      parent_id: parentId,
      child_id: childId,
      class: proto.class,
      is_editable: proto.editable,
      tag: proto.tag,
      value: proto.value,
      extension: wireExtension(proto.extension),
      ...(proto.sample.length > 0 && { sample: proto.sample }),
    });
    proto.children.forEach((child, index) => flatten(child, id, index));
  };
  flatten(root, 0, 0);
  return {
    id: ids.id,
    key: ids.key,
    widget_id: ids.widget_id,
    children: elements,
    html: '',
    is_original: true,
  };
}

/** Counter for the element ids of one tree: 1, 2, 3, … */
export function idCounter(start = 1): () => number {
  let next = start;
  return () => next++;
}

export function findSpec(specs: readonly FieldSpec[], role: string): FieldSpec | undefined {
  return specs.find((spec) => spec.role === role);
}
