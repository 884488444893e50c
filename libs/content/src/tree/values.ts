/**
 * How the editor's values enter a tree: the same stored forms libs/content gives filled and
 * composed content (html sanitised, text escaped), so that edited content renders exactly like
 * filled content and never carries markup a renderer would have to distrust.
 */
import type { TemplateNode, WidgetTemplate } from '../catalogue/types';
import { CONTENT_LANGUAGES } from '@catalogue/config';
import { WIDGETS_BY_TYPE } from '../catalogue/widgets';
import type { ContentWidget, LangMap } from '../model';
import { normaliseTag } from '../render/structure';
import { escapeText, htmlToText } from '../sanitize';
import { sanitizeRich } from '../sanitize-rich';
import { safeHref, safeSrc, videoEmbedUrl } from '../urls';

export type ValueFormat = 'html' | 'text';

/**
 * The format of each element class of a widget type, read from its template: an element built
 * from a text-format field keeps that format when a person edits it. Classes come from the
 * template and PUT cannot change them, so the class is a reliable key. Unknown classes
 * (widgets assembled by the editor) are treated as html.
 */
export function formatsByClass(template: WidgetTemplate | undefined): Map<string, ValueFormat> {
  const formats = new Map<string, ValueFormat>();
  if (template === undefined) return formats;
  const specs = [...template.field, ...template.item_field];
  const visit = (node: TemplateNode): void => {
    if (node.text !== undefined) {
      const role = 'field' in node.text ? node.text.field : node.text.item;
      const spec = specs.find((s) => s.role === role);
      formats.set(node.class, spec?.format === 'text' ? 'text' : 'html');
    }
    (node.children ?? []).forEach(visit);
  };
  template.template.forEach(visit);
  return formats;
}

/**
 * The stored form of one language's value. Text: the readable text of what was sent, escaped —
 * so a value read from GET (`Tom &amp; Jerry`) and sent back unchanged stays the same instead
 * of being escaped twice, and markup can never get in. Html: a rich text, only the markup the
 * field allows (markup.ts; a paste from Word arrives here as the editor cleaned it, or raw from
 * another client).
 */
export function prepareValue(format: ValueFormat, raw: string): string {
  return format === 'text' ? escapeText(htmlToText(raw)) : sanitizeRich(raw.trim());
}

/**
 * Sent languages replace stored ones; a language sent empty (or emptied by sanitising) is
 * removed and falls back to `default` when rendered; languages not sent are kept.
 */
export function mergeValue(stored: LangMap, sent: LangMap, format: ValueFormat): LangMap {
  const out: LangMap = { ...stored };
  for (const [lang, raw] of Object.entries(sent)) {
    if (typeof raw !== 'string') continue;
    const value = prepareValue(format, raw);
    if (value.trim() === '') delete out[lang];
    else out[lang] = value;
  }
  return out;
}

/** A value as a language map: `[]` (the PHP-style empty map) and null are empty; a string is `default`. */
export function asLangMap(value: unknown): LangMap {
  if (typeof value === 'string') return { default: value };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/**
 * The languages that have text of their own somewhere in a tree (a non-blank element value).
 * Other languages show the tree only through the `default` fallback.
 */
export function ownLanguages(tree: readonly ContentWidget[]): Set<string> {
  const found = new Set<string>();
  for (const widget of tree)
    for (const element of widget.children)
      for (const [lang, value] of Object.entries(asLangMap(element.value)))
        if (typeof value === 'string' && value.trim() !== '') found.add(lang);
  return found;
}

/**
 * The root classes of the widget types whose texts are the catalogue item's data (the
 * parameters table): composed from the item, never written by a person or a generation.
 */
const FROM_DATA = new Set(
  [...WIDGETS_BY_TYPE.values()]
    .filter((w) => !w.fillable && w.reason === 'filled_from_data')
    .map((w) => `ccs-widget--${w.type}`),
);

/** Whether a stored widget is one filled from the item's data (by its root element's class). */
export function isDataWidget(widget: ContentWidget): boolean {
  const root = widget.children.find((element) => element.parent_id === 0);
  return (root?.class ?? '').split(/\s+/).some((c) => FROM_DATA.has(c));
}

/**
 * The languages that have text of their own outside the widgets filled from the item's data:
 * the texts a person or a generation wrote. A parameters table's names and values are the
 * catalogue's, in whatever languages the catalogue sends them.
 */
export function writtenLanguages(tree: readonly ContentWidget[]): Set<string> {
  return ownLanguages(tree.filter((widget) => !isDataWidget(widget)));
}

/** Same content, ignoring languages whose value is blank (the order of keys does not count). */
export function sameLangMap(a: LangMap, b: LangMap): boolean {
  const norm = (m: LangMap) =>
    Object.entries(m)
      .filter(([, v]) => typeof v === 'string' && v.trim() !== '')
      .sort(([x], [y]) => x.localeCompare(y));
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}

/**
 * The tag an element is stored with: the one the renderers will use (libs/content
 * `normaliseTag`), which keeps `script`, `iframe` (outside video embeds), `object`… out of the
 * `children` the editor builds its DOM from.
 */
export const elementTag = (tag: string): string => normaliseTag(tag);

const MARKUP = /<[a-zA-Z!/?]/;
const SUPPORTED = new Set<string>(CONTENT_LANGUAGES);

/** An attribute value: a string or a language map of strings. */
type Attribute = string | LangMap;

function eachText(value: Attribute): string[] {
  return typeof value === 'string'
    ? [value]
    : Object.values(value).filter((v): v is string => typeof v === 'string');
}

function mapAttribute(value: Attribute, fn: (v: string) => string): Attribute {
  if (typeof value === 'string') return fn(value);
  return Object.fromEntries(Object.entries(value).map(([lang, v]) => [lang, fn(v ?? '')]));
}

/**
 * Checks and prepares an element's attributes (`extension`): `src` of images (http/https), of
 * iframes (a YouTube/Vimeo link, stored as its embed URL), `href` (http/https/mailto) and the
 * plain texts `alt` and `title`. Problems are message tails keyed by attribute name.
 */
export function prepareExtension(
  tag: string,
  raw: Record<string, Attribute>,
): { extension: Record<string, Attribute>; problems: Record<string, string> } {
  const extension: Record<string, Attribute> = {};
  const problems: Record<string, string> = {};
  const lower = tag.trim().toLowerCase();
  for (const [name, sent] of Object.entries(raw)) {
    let value = sent;
    if (typeof value !== 'string') {
      const bad = Object.keys(value).find((lang) => !SUPPORTED.has(lang));
      if (bad !== undefined) {
        problems[`${name}.${bad}`] = 'is not allowed';
        continue;
      }
    }
    if (name === 'alt' || name === 'title') {
      if (eachText(value).some((v) => MARKUP.test(v))) problems[name] = 'must not contain HTML';
      else extension[name] = mapAttribute(value, (v) => v.trim());
      continue;
    }
    // The renderers read `src` and `href` as one string (libs/content render/html.ts), so a
    // language map is only accepted when it names one URL for every language.
    if (typeof value !== 'string') {
      const urls = new Set(eachText(value).filter((v) => v.trim() !== ''));
      if (urls.size > 1) {
        problems[name] = 'must be one URL for every language';
        continue;
      }
      value = [...urls][0] ?? '';
    }
    const check = name === 'href' ? safeHref : lower === 'iframe' ? videoEmbedUrl : safeSrc;
    const url = value.trim() === '' ? '' : check(value);
    if (url === null) {
      problems[name] =
        lower === 'iframe' && name === 'src' ? 'must be a YouTube or Vimeo video URL' : 'must be a valid URL';
    } else {
      // The parser's serialisation percent-encodes quotes and angle brackets, so what is stored
      // (and answered in `children`) reads as a URL, not as markup, wherever it is shown.
      extension[name] = url === '' ? '' : new URL(url).href;
    }
  }
  return { extension, problems };
}
