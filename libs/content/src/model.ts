/**
 * The widget tree, exactly as the white-label specification shows it: an entity's content is an
 * ordered list of content widgets, each with a FLAT list of elements that point at their parent.
 * The flat shape is what the editor sends back (PUT replaces children), so the library never
 * requires a nested copy to exist; renderers rebuild the hierarchy from `parent_id`.
 */

import { CONTENT_LANGUAGES, type LangMap, type Language } from '@catalogue/config';

export type { Language };

/** A language map of content (its one definition is in libs/config's languages.ts). */
export type { LangMap } from '@catalogue/config';

/** A text as callers send it: one string for every language, or a language map. */
export type Text = string | LangMap;

export interface ContentElement {
  id: number;
  /** Id of the parent element; 0 = top level of the widget. */
  parent_id: number;
  /** Order among siblings (0-based when built by this library; only the relative order counts). */
  child_id: number;
  class: string;
  is_editable: boolean;
  tag: string;
  /** Inner HTML per language (text-format fields are stored HTML-escaped). */
  value: LangMap;
  /** Attributes; see README.md (`src`, `alt`, `href`, `title`). `[]` means none. */
  extension: unknown[] | Record<string, unknown>;
  /**
   * The parts of this element that still hold the catalogue's sample content (what the editor
   * shows as "to fill"): `value` = its `default` value, `src`/`href`/`title` = that attribute.
   * Public renderers leave them out (see `publicTree`). Absent when nothing is sample.
   */
  sample?: SamplePart[];
}

/** A part of an element that can hold sample content. */
export type SamplePart = 'value' | 'src' | 'href' | 'title';

export interface ContentWidget {
  id: number;
  /** Order of the widget in the tree (0-based when built by this library). */
  key: number;
  /** Id of the widget type in the widget catalogue (`widgets.id`). */
  widget_id: number;
  children: ContentElement[];
  /** Rendered HTML of this widget alone, in one language (see README.md). */
  html: string;
  /** True while the widget is as fill/compose built it; the editor clears it on edit. */
  is_original: boolean;
}

/** One node of the language-independent `nested` output. */
export interface NestedNode {
  id: number;
  class: string;
  tag: string;
  children: NestedNode[];
}

export function isLangMap(value: unknown): value is LangMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A language's value, falling back to `default` when the language has none. */
export function pickLanguage(map: LangMap | undefined, lang: string): string {
  const own = map?.[lang];
  if (typeof own === 'string' && own.trim() !== '') return own;
  const fallback = map?.default;
  return typeof fallback === 'string' ? fallback : '';
}

/** Like {@link pickLanguage}, for attributes that may be a plain string or a language map. */
export function pickText(value: unknown, lang: string): string {
  if (typeof value === 'string') return value;
  if (isLangMap(value)) return pickLanguage(value, lang);
  return '';
}

/** A caller's text as a language map; a plain string becomes the `default` for every language. */
export function toLangMap(text: Text | null | undefined): LangMap {
  if (typeof text === 'string') return { default: text };
  if (!isLangMap(text)) return {};
  const out: LangMap = {};
  for (const [lang, value] of Object.entries(text)) if (typeof value === 'string') out[lang] = value;
  return out;
}

/** Applies `fn` to every language of a map, dropping languages that end up empty. */
export function mapLangMap(map: LangMap, fn: (value: string) => string): LangMap {
  const out: LangMap = {};
  for (const [lang, value] of Object.entries(map)) {
    if (typeof value !== 'string') continue;
    const mapped = fn(value);
    if (mapped.trim() !== '') out[lang] = mapped;
  }
  return out;
}

const LANGUAGE_SET: ReadonlySet<string> = new Set(CONTENT_LANGUAGES);

/**
 * An element's `extension` as the API shows it: `[]` when it holds nothing, never `{}` (the
 * specification's "array", a PHP-style empty array), also for each language of the favourites'
 * language-map shape (`{"default": {"src": …}, "cs": []}`). Stored trees may hold `{}`.
 */
export function wireExtension(extension: unknown): unknown[] | Record<string, unknown> {
  if (!isLangMap(extension)) return [];
  const entries = Object.entries(extension).map(([key, value]) => [
    key,
    LANGUAGE_SET.has(key) && isLangMap(value) && Object.keys(value).length === 0 ? [] : value,
  ]);
  return entries.length > 0 ? Object.fromEntries(entries) : [];
}

export function isEmptyLangMap(map: LangMap): boolean {
  return Object.values(map).every((v) => typeof v !== 'string' || v.trim() === '');
}
