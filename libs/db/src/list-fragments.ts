/**
 * The pre-serialised pieces of a listed item (docs/decisions/0070-pre-serialised-list-items.md, "Pre-serialised list items"):
 * `list_json` of an entity row (its language maps, from its catalogue fields, written by every
 * import) and of a content row (its rendered outputs, written by every render and edit).
 *
 * Stored as text: slots separated by `\x01`, where each slot holds exactly what `JSON.stringify`
 * gives for the value the list would otherwise read back from the JSONB columns and serialise,
 * or nothing when there is no value. The separator cannot occur in JSON text (`JSON.stringify`
 * escapes every control character), and no JSON text is empty, so reading is one `split` with no
 * JSON parsing and every piece is found by its position: slot 0 is the layout (LIST_JSON_LAYOUT),
 * then one slot per field and language (LANGUAGE_FIELDS × LIST_LANGUAGES), then the rest (an
 * entity's listed values; a content row's nested tree and complete languages). The entity slots
 * follow from ENTITY_TABLES, so a field added there is stored, laid out and read with no change
 * here. Pieces of another layout (a field or a language added) are not served: the list reads
 * such a row from its columns (`catalogueReads.listPage`), as a row without pieces.
 *
 * A content row keeps its slots in two columns: `list_json` the list's own outputs (html,
 * marketplace, the nested tree, the complete languages) and `list_json_seo` the SEO outputs
 * (site link, rich snippet), which come last and are the larger half: a list that does not
 * include them reads the first column alone and never loads the second (contentPiecesSql).
 */
import { createHash } from 'node:crypto';
import { CATALOGUE_API_LANGUAGES, type CatalogueEntityType } from '@catalogue/config';
import { ENTITY_TABLES, listedValue } from './repositories/catalogue-tables';

const SEP = '\u0001';

/** The languages the lists can show, in slot order. */
export const LIST_LANGUAGES: readonly string[] = CATALOGUE_API_LANGUAGES;

const distinct = (values: string[]) => [...new Set(values)];
const TABLES = Object.values(ENTITY_TABLES);

/** The language-map fields of each kind of row, in slot order. */
export const LANGUAGE_FIELDS = {
  /** Every entity type's language maps (ENTITY_TABLES). */
  entity: distinct(TABLES.flatMap((t) => [...t.langFields])),
  /** The list's own outputs (in `list_json`), then the SEO outputs (in `list_json_seo`). */
  content: [
    'html',
    'marketplace',
    'site_link.html',
    'site_link.list',
    'rich_snippet.html',
    'rich_snippet.json',
  ],
} as const;
/** The content fields of `list_json`; the others are the SEO outputs of `list_json_seo`. */
const CONTENT_LIST_FIELDS = 2;
/** The listed values of the entity types (ENTITY_TABLES' `listed`), one slot each after the language maps. */
const LISTED_VALUES = distinct(
  TABLES.flatMap((t) => t.fields.flatMap((f) => (f.kind === 'data' && f.listed ? [f.listed.as] : []))),
);
/** The slots after the language maps. */
const ENTITY_VALUES = 1 + LANGUAGE_FIELDS.entity.length * LIST_LANGUAGES.length;
const CONTENT_NESTED = 1 + CONTENT_LIST_FIELDS * LIST_LANGUAGES.length;
const CONTENT_COMPLETE = CONTENT_NESTED + 1;
/** The first slot of a content row's SEO outputs: `list_json_seo` holds it and the ones after it. */
const CONTENT_SEO = CONTENT_COMPLETE + 1;

/**
 * Slot 0 of every stored `list_json` of a kind: its layout, a digest of the slots above. A field
 * or a language added to the tables gives a new layout, and pieces of another layout are not
 * read (`catalogueReads.listPage` serves such rows from their columns until their next write).
 */
function layoutOf(kind: string, slots: unknown): string {
  const digest = createHash('sha256').update(JSON.stringify(slots)).digest('hex').slice(0, 12);
  return `${kind}/${digest}`;
}
export const LIST_JSON_LAYOUT = {
  entity: layoutOf('entity', [LANGUAGE_FIELDS.entity, LIST_LANGUAGES, LISTED_VALUES]),
  content: layoutOf('content', [
    LANGUAGE_FIELDS.content.slice(0, CONTENT_LIST_FIELDS),
    LIST_LANGUAGES,
    'nested',
    'languages_complete',
    LANGUAGE_FIELDS.content.slice(CONTENT_LIST_FIELDS),
  ]),
} as const;

/** The slot of a field's piece in one language (-1: a language the lists never show). */
export function langSlot(kind: keyof typeof LANGUAGE_FIELDS, field: string, lang: string): number {
  const fields: readonly string[] = LANGUAGE_FIELDS[kind];
  const f = fields.indexOf(field);
  const l = LIST_LANGUAGES.indexOf(lang);
  if (f < 0) throw new Error(`no ${kind} list piece ${field}`);
  if (l < 0) return -1;
  // A content row's SEO outputs come after its nested tree and complete languages.
  const seo = kind === 'content' && f >= CONTENT_LIST_FIELDS;
  return seo
    ? CONTENT_SEO + (f - CONTENT_LIST_FIELDS) * LIST_LANGUAGES.length + l
    : 1 + f * LIST_LANGUAGES.length + l;
}

/** The entity slot of a listed value (`ListedAs.as`: `image_preview`, `category`). */
export function valueSlot(as: string): number {
  const at = LISTED_VALUES.indexOf(as);
  if (at < 0) throw new Error(`no listed value ${as}`);
  return ENTITY_VALUES + at;
}
export const SLOTS = { nested: CONTENT_NESTED, languagesComplete: CONTENT_COMPLETE };
/** How many slots a stored `list_json` of each kind has. */
const SLOT_COUNT = {
  entity: ENTITY_VALUES + LISTED_VALUES.length,
  content: CONTENT_SEO + (LANGUAGE_FIELDS.content.length - CONTENT_LIST_FIELDS) * LIST_LANGUAGES.length,
} as const;

/** What a list request sends: its languages, and the outputs of its includes. */
export interface PiecesWanted {
  languages: readonly string[];
  /**
   * The languages the rows hold pieces in (the eshop's): the slots of any other are empty.
   * Absent: every language the lists can show.
   */
  stored?: readonly string[];
  outputs: {
    marketplace?: boolean;
    nested?: boolean;
    siteLink?: boolean;
    richSnippet?: boolean;
    languagesComplete?: boolean;
  };
}

/** The slots of a row's pieces that a request sends (the layout's among them). */
export function wantedSlots(kind: keyof typeof LANGUAGE_FIELDS, wanted: PiecesWanted): number[] {
  const { outputs } = wanted;
  const fields: readonly string[] =
    kind === 'entity'
      ? LANGUAGE_FIELDS.entity
      : [
          'html',
          ...(outputs.marketplace ? ['marketplace'] : []),
          ...(outputs.siteLink ? ['site_link.html', 'site_link.list'] : []),
          ...(outputs.richSnippet ? ['rich_snippet.html', 'rich_snippet.json'] : []),
        ];
  const slots = [0];
  for (const field of fields) {
    for (const lang of wanted.languages) {
      const slot = langSlot(kind, field, lang);
      if (slot >= 0) slots.push(slot);
    }
  }
  if (kind === 'entity') slots.push(...LISTED_VALUES.map(valueSlot));
  if (kind === 'content' && outputs.nested) slots.push(CONTENT_NESTED);
  if (kind === 'content' && outputs.languagesComplete) slots.push(CONTENT_COMPLETE);
  return slots.sort((a, b) => a - b);
}

/**
 * SQL of an entity row's stored `list_json` (the row's table alias `alias`) with only the pieces
 * a request sends (`wantedSlots`): the others are left empty, so every piece keeps its slot and a
 * row reads as one that has no such pieces. The request then reads from the database only what it
 * sends (the outputs of its includes, its languages), not every output and language the row holds.
 */
export function entityPiecesSql(alias: string, wanted: PiecesWanted): string {
  return slotsSql(`${alias}.list_json`, SLOT_COUNT.entity, 'entity', wanted);
}

/**
 * entityPiecesSql of a content row: its `list_json` alone when no SEO output is wanted, so the
 * larger `list_json_seo` is never loaded; else the two joined (empty slots where a row has no
 * `list_json_seo`).
 */
export function contentPiecesSql(alias: string, wanted: PiecesWanted): string {
  const { siteLink, richSnippet } = wanted.outputs;
  if (!siteLink && !richSnippet) return slotsSql(`${alias}.list_json`, CONTENT_SEO, 'content', wanted);
  const noSeo = `repeat(chr(1), ${SLOT_COUNT.content - CONTENT_SEO - 1})`;
  const both = `(${alias}.list_json || chr(1) || coalesce(${alias}.list_json_seo, ${noSeo}))`;
  return slotsSql(both, SLOT_COUNT.content, 'content', wanted);
}

/**
 * Every output but the complete languages: a few bytes a row, never worth splitting a row to
 * leave out.
 */
const HELD_OUTPUTS = { marketplace: true, nested: true, siteLink: true, richSnippet: true };

/**
 * The SQL of a stored text of `count` slots (the expression `column`) with only the pieces a
 * request sends. When it sends every piece the rows can hold there (the slots of the stored
 * languages; the others are empty), the text as it is: splitting and joining it again cost
 * PostgreSQL more than the few bytes it would leave out cost on the way. A narrower request (a
 * language of several, an output left out) is split: the bytes it would not send cost Node more
 * than the split costs PostgreSQL (docs/decisions/0102-list-pieces-as-bytes.md, as measured).
 */
function slotsSql(
  column: string,
  count: number,
  kind: keyof typeof LANGUAGE_FIELDS,
  wanted: PiecesWanted,
): string {
  const slots = wantedSlots(kind, wanted);
  const keep = new Set(slots);
  const held = wantedSlots(kind, { languages: wanted.stored ?? LIST_LANGUAGES, outputs: HELD_OUTPUTS });
  if (held.every((slot) => slot >= count || keep.has(slot))) return column;
  const last = Math.max(...slots);
  const items = Array.from({ length: last + 1 }, (_, slot) => (keep.has(slot) ? `a[${slot + 1}]` : `''`));
  // A slot past the end of a shorter row is null: '' keeps the positions of the rest.
  const pick = `array_to_string(array[${items.join(',')}], chr(1), '')`;
  return `case when ${column} is null then null else (select ${pick} from string_to_array(${column}, chr(1)) as a) end`;
}

/** The pieces of one row by slot, as stored ('' where there is none). */
export type ListFragments = string[];

export function decodeFragments(text: string): ListFragments {
  return text.split(SEP);
}

function slots(kind: keyof typeof LIST_JSON_LAYOUT, count: number): string[] {
  const out = new Array<string>(count).fill('');
  out[0] = LIST_JSON_LAYOUT[kind];
  return out;
}

const NON_ASCII = /[\u0080-\uffff]/;

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
  const toJSON = 'toJSON' in value ? value.toJSON : undefined;
  if (typeof toJSON === 'function') {
    const parsed: unknown = JSON.parse(JSON.stringify(value));
    return inJsonbOrder(parsed);
  }
  const out: Record<string, unknown> = {};
  const entries = Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== 'function');
  for (const [key, v] of entries.sort(([a], [b]) => utf8Order(a, b))) out[key] = inJsonbOrder(v);
  return out;
}

/** The JSON of a value as the list serialises it after reading it from a JSONB column. */
export function jsonbJson(value: unknown): string {
  return JSON.stringify(inJsonbOrder(value));
}

/** An entity row's `list_json`: its language maps and its listed values (ENTITY_TABLES). */
export function entityListJson(type: CatalogueEntityType, fields: Record<string, unknown>): string {
  const out = slots('entity', SLOT_COUNT.entity);
  for (const field of ENTITY_TABLES[type].fields) {
    if (field.kind === 'data') {
      if (field.listed)
        out[valueSlot(field.listed.as)] = JSON.stringify(listedValue(field.listed, fields[field.column]));
      continue;
    }
    const map = fields[field.column];
    if (map === null || typeof map !== 'object') continue;
    for (const [lang, value] of Object.entries(map)) {
      const slot = langSlot('entity', field.column, lang);
      if (slot >= 0 && typeof value === 'string') out[slot] = JSON.stringify(value);
    }
  }
  return out.join(SEP);
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

/**
 * A content row's pieces: every rendered output by language, the nested tree, the complete
 * languages; `listJson` up to the SEO outputs, `listJsonSeo` those (the columns `list_json` and
 * `list_json_seo`).
 */
export function contentListJson(content: ListedOutputs): { listJson: string; listJsonSeo: string } {
  const out = slots('content', SLOT_COUNT.content);
  const put = (field: string, map: Partial<Record<string, unknown>> | null | undefined) => {
    for (const [lang, value] of Object.entries(map ?? {})) {
      const slot = langSlot('content', field, lang);
      if (slot >= 0 && value != null) out[slot] = jsonbJson(value);
    }
  };
  put('html', content.html);
  put('marketplace', content.marketplace);
  put('site_link.html', content.site_link?.html);
  put('site_link.list', content.site_link?.list);
  put('rich_snippet.html', content.rich_snippet?.html);
  put('rich_snippet.json', content.rich_snippet?.json);
  out[CONTENT_NESTED] = jsonbJson(content.nested ?? []);
  // A language list, not JSON: '' is no list (null), ',' alone an empty one.
  if (Array.isArray(content.languages_complete))
    out[CONTENT_COMPLETE] = `,${content.languages_complete.join(',')}`;
  return { listJson: out.slice(0, CONTENT_SEO).join(SEP), listJsonSeo: out.slice(CONTENT_SEO).join(SEP) };
}
