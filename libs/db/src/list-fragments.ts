/**
 * The pre-serialised pieces of a listed item (docs/decisions.md, "Pre-serialised list items"):
 * `list_json` of an entity row (its language maps, from its catalogue fields, written by every
 * import) and of a content row (its rendered outputs, written by every render and edit).
 *
 * Stored as text: `key \x01 json \x01 key \x01 json …`, where `json` is exactly what
 * `JSON.stringify` gives for the value that the list would otherwise read back from the JSONB
 * columns and serialise. The separator cannot occur in JSON text (`JSON.stringify` escapes every
 * control character) nor in a key (field names and language codes), so reading is one `split`,
 * with no JSON parsing. Keys: `<field>:<lang>` for language maps, single names otherwise.
 */
import { ENTITY_TABLES, type EntityType, type LangMap } from './repositories/catalogue-tables';

const SEP = '\u0001';

/** The pieces of one item by key, as stored. */
export type ListFragments = Map<string, string>;

export function encodeFragments(entries: ReadonlyArray<readonly [string, string]>): string {
  let out = '';
  for (let i = 0; i < entries.length; i++) {
    out += `${i ? SEP : ''}${entries[i]![0]}${SEP}${entries[i]![1]}`;
  }
  return out;
}

export function decodeFragments(text: string): ListFragments {
  const parts = text.split(SEP);
  const map: ListFragments = new Map();
  for (let i = 0; i + 1 < parts.length; i += 2) map.set(parts[i]!, parts[i + 1]!);
  return map;
}

const NON_ASCII = /[^\x00-\x7f]/;

function utf8Order(a: string, b: string): number {
  // ASCII (every key the renderers write): one byte per code unit, so code-unit order is byte order.
  if (!NON_ASCII.test(a) && !NON_ASCII.test(b)) return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length - y.length || Buffer.compare(x, y);
}

/**
 * `value` with its objects' keys in the order PostgreSQL's JSONB keeps them (shorter keys
 * first, then by their UTF-8 bytes; the last of duplicate keys wins): what reading the value
 * back from a JSONB column gives, so that the stored piece has the bytes the list gave when it
 * parsed the column and serialised it again.
 */
export function inJsonbOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(inJsonbOrder);
  if (value === null || typeof value !== 'object') return value;
  // What JSON.stringify would call (a Date, for one) before the value reaches the column.
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return inJsonbOrder(JSON.parse(JSON.stringify(value)) as unknown);
  const out: Record<string, unknown> = {};
  const entries = Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== 'function');
  for (const [key, v] of entries.sort(([a], [b]) => utf8Order(a, b))) out[key] = inJsonbOrder(v);
  return out;
}

/** The JSON of a value as the list serialises it after reading it from a JSONB column. */
export function jsonbJson(value: unknown): string {
  return JSON.stringify(inJsonbOrder(value));
}

/** The pieces of language maps: `<field>:<lang>` → the JSON of each string value. */
export function langMapEntries(field: string, map: unknown, into: [string, string][]): void {
  if (map === null || typeof map !== 'object') return;
  for (const [lang, value] of Object.entries(map as LangMap)) {
    if (typeof value === 'string') into.push([`${field}:${lang}`, JSON.stringify(value)]);
  }
}

/** The text of a list-item preview column: '' when there is none, as the list shows it. */
function previewOf(type: EntityType, fields: Record<string, unknown>): string | undefined {
  if (type === 'product') return ((fields.images ?? []) as unknown[])[0] as string | undefined;
  if (type === 'brand') return fields.image_preview as string | undefined;
  if (type === 'blog') return fields.category as string | undefined;
  return undefined;
}

/** An entity row's `list_json`: its language maps, and its preview (product, brand) or category (blog). */
export function entityListJson(type: EntityType, fields: Record<string, unknown>): string {
  const entries: [string, string][] = [];
  for (const field of ENTITY_TABLES[type].langFields) langMapEntries(field, fields[field], entries);
  if (type !== 'category') entries.push(['preview', JSON.stringify(previewOf(type, fields) ?? '')]);
  return encodeFragments(entries);
}

/** The rendered outputs a content row's `list_json` is made of (ContentOutputs, loosely typed). */
export interface ListedOutputs {
  html?: Partial<Record<string, unknown>> | null;
  marketplace?: Partial<Record<string, unknown>> | null;
  nested?: unknown[] | null;
  site_link?: { html?: Partial<Record<string, unknown>>; list?: Partial<Record<string, unknown>> } | null;
  rich_snippet?: { html?: Partial<Record<string, unknown>>; json?: Partial<Record<string, unknown>> } | null;
  languages_complete?: string[] | null;
}

function outputEntries(
  key: string,
  map: Partial<Record<string, unknown>> | null | undefined,
  into: [string, string][],
): void {
  for (const [lang, value] of Object.entries(map ?? {})) {
    if (value != null) into.push([`${key}:${lang}`, jsonbJson(value)]);
  }
}

/** A content row's `list_json`: every rendered output by language, the nested tree, the complete languages. */
export function contentListJson(content: ListedOutputs): string {
  const entries: [string, string][] = [];
  outputEntries('html', content.html, entries);
  outputEntries('marketplace', content.marketplace, entries);
  entries.push(['nested', jsonbJson(content.nested ?? [])]);
  outputEntries('site_link.html', content.site_link?.html, entries);
  outputEntries('site_link.list', content.site_link?.list, entries);
  outputEntries('rich_snippet.html', content.rich_snippet?.html, entries);
  outputEntries('rich_snippet.json', content.rich_snippet?.json, entries);
  if (Array.isArray(content.languages_complete)) {
    entries.push(['languages_complete', content.languages_complete.join(',')]);
  }
  return encodeFragments(entries);
}
