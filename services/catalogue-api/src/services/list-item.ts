// The items of the v2 list, written three ways that give the same bytes: from a row's columns
// (`v2Item`), from its stored pieces as text (`v2ItemJson`) and from its pieces as bytes
// (`v2ItemBytes`; docs/decisions/0070-pre-serialised-list-items.md, "Pre-serialised list
// items"). The fields after the head and before `content` are the type's LISTED_FIELDS
// (`ENTITY_TABLES` in libs/db), so a field added there is listed by all three.
import { type CatalogueEntityType, isRecord } from '@catalogue/config';
import {
  decodeFragments,
  type LangMap,
  langSlot,
  LANGUAGE_FIELDS,
  LISTED_FIELDS,
  type ListedEntity,
  type ListedField,
  type ListedPieces,
  listedValue,
  type ListFragments,
  LIST_JSON_SLOTS,
  valueSlot,
} from '@catalogue/db';
import { ByteChunks, RawJson, RawJsonBytes } from '@catalogue/http';

export type Include =
  'nested' | 'marketplace' | 'site_link' | 'rich_snippet' | 'variant' | 'languages_complete';

function present(map: unknown, langs: readonly string[]): LangMap {
  const out: LangMap = {};
  if (!isRecord(map)) return out;
  for (const lang of langs) {
    const text = map[lang];
    if (typeof text === 'string') out[lang] = text;
  }
  return out;
}

export function every<T>(
  map: Record<string, T> | undefined,
  langs: readonly string[],
  empty: T,
): Record<string, T> {
  return Object.fromEntries(langs.map((lang) => [lang, map?.[lang] ?? empty]));
}

function completeOf(stored: string[] | null | undefined, langs: readonly string[]): string[] | null {
  if (!Array.isArray(stored)) return null;
  const complete = new Set(stored);
  return langs.filter((lang) => complete.has(lang));
}

/** A v2 item from a row's columns. */
export function v2Item(
  type: CatalogueEntityType,
  row: ListedEntity,
  langs: string[],
  includes: Set<Include>,
) {
  const item: Record<string, unknown> = {
    id: row.externalId,
    guid: row.guid,
    is_visible: row.isVisible,
    is_loaded: row.isLoaded,
  };
  for (const field of LISTED_FIELDS[type]) {
    const stored = row.fields[field.column];
    item[field.key] = field.listed ? listedValue(field.listed, stored) : present(stored, langs);
  }
  item.content = {
    html: every(row.content.html, langs, ''),
    ...(includes.has('marketplace') && { marketplace: every(row.content.marketplace, langs, '') }),
    ...(includes.has('nested') && { nested: row.content.nested ?? [] }),
    // Beyond the specification, only when asked for: the requested languages whose page shows
    // only its own texts (null: the item was rendered before this was computed; its next
    // render fills it).
    ...(includes.has('languages_complete') && {
      languages_complete: completeOf(row.content.languagesComplete, langs),
    }),
  };
  if (includes.has('site_link')) {
    item.site_link = {
      html: every(row.content.siteLink?.html, langs, ''),
      list: every(row.content.siteLink?.list, langs, []),
    };
  }
  if (includes.has('rich_snippet')) {
    const json = row.content.richSnippet?.json ?? {};
    item.rich_snippet = {
      html: every(row.content.richSnippet?.html, langs, ''),
      json: Object.fromEntries(langs.filter((l) => json[l] != null).map((l) => [l, json[l]])),
    };
  }
  if (includes.has('variant')) item.variant = row.variants ?? [];
  item.created_at = row.createdAt;
  item.updated_at = row.updatedAt;
  return item;
}

/** A listed field as the pieces write it: `,"<key>":` and its slots (one per language, or its value's). */
interface PlannedField extends ListedField {
  prefix: string;
  slots: number[];
}

/** What every item of a request shares when its JSON is put together from stored pieces. */
export interface ItemPlan {
  includes: Set<Include>;
  langs: string[];
  /** `"<lang>":` for each language. */
  prefixes: string[];
  /** `prefixes` with the comma that goes before all but the first. */
  commaPrefixes: string[];
  /** The type's listed fields, in the item's order. */
  fields: PlannedField[];
  /** The slots (list-fragments.ts) of each content field's pieces, one per language. */
  content: Map<string, number[]>;
}

export function planOf(type: CatalogueEntityType, langs: string[], includes: Set<Include>): ItemPlan {
  const content = new Map<string, number[]>();
  for (const field of LANGUAGE_FIELDS.content)
    content.set(
      field,
      langs.map((lang) => langSlot('content', field, lang)),
    );
  const fields = LISTED_FIELDS[type].map((field) => ({
    ...field,
    prefix: `,${JSON.stringify(field.key)}:`,
    slots: field.listed
      ? [valueSlot(field.listed.as)]
      : langs.map((lang) => langSlot('entity', field.column, lang)),
  }));
  const prefixes = langs.map((lang) => `${JSON.stringify(lang)}:`);
  return { includes, langs, prefixes, commaPrefixes: prefixes.map((p) => `,${p}`), fields, content };
}

/**
 * A language map from pieces: `{"<lang>":<piece>,…}` in the plan's language order; a language
 * without a piece is left out (`absent` null, as `present`) or given `absent` (as `every`).
 */
function mapJson(plan: ItemPlan, pieces: ListFragments | undefined, slots: number[], absent: string | null) {
  let out = '{';
  let first = true;
  for (let i = 0; i < slots.length; i++) {
    const piece = pieces?.[slots[i]!] || absent;
    if (piece === null) continue;
    out += `${first ? '' : ','}${plan.prefixes[i]!}${piece}`;
    first = false;
  }
  return `${out}}`;
}

/**
 * `v2Item` of a row with stored pieces (ListedEntity.listJson), put together as JSON text: the
 * same bytes `JSON.stringify(v2Item(…))` gives for the row's columns, without parsing them or
 * serialising the texts again (a test compares the two on the same rows).
 */
export function v2ItemJson(
  plan: ItemPlan,
  row: ListedEntity,
  stored: { entity: string; content: string | null },
) {
  const { includes, content } = plan;
  const e = decodeFragments(stored.entity);
  const c = stored.content === null ? undefined : decodeFragments(stored.content);
  const contentMap = (field: string, absent: string | null) => mapJson(plan, c, content.get(field)!, absent);
  let out = `{"id":${JSON.stringify(row.externalId)},"guid":${JSON.stringify(row.guid)}`;
  out += `,"is_visible":${JSON.stringify(row.isVisible)},"is_loaded":${JSON.stringify(row.isLoaded)}`;
  for (const field of plan.fields)
    out += field.prefix + (field.listed ? e[field.slots[0]!]! : mapJson(plan, e, field.slots, null));
  out += `,"content":{"html":${contentMap('html', '""')}`;
  if (includes.has('marketplace')) out += `,"marketplace":${contentMap('marketplace', '""')}`;
  if (includes.has('nested')) out += `,"nested":${c?.[LIST_JSON_SLOTS.nested] || '[]'}`;
  if (includes.has('languages_complete')) {
    const complete = c?.[LIST_JSON_SLOTS.languagesComplete] || undefined;
    out += `,"languages_complete":${JSON.stringify(completeOf(complete?.split(','), plan.langs))}`;
  }
  out += '}';
  if (includes.has('site_link')) {
    out += `,"site_link":{"html":${contentMap('site_link.html', '""')}`;
    out += `,"list":${contentMap('site_link.list', '[]')}}`;
  }
  if (includes.has('rich_snippet')) {
    out += `,"rich_snippet":{"html":${contentMap('rich_snippet.html', '""')}`;
    out += `,"json":${contentMap('rich_snippet.json', null)}}`;
  }
  if (includes.has('variant')) out += `,"variant":${JSON.stringify(row.variants ?? [])}`;
  out += `,"created_at":${JSON.stringify(row.createdAt)},"updated_at":${JSON.stringify(row.updatedAt)}}`;
  return new RawJson(out);
}

/**
 * Where each slot of a row's pieces read as bytes (ListedPieces) starts: slot `i` is the bytes
 * from `starts[i]` to `starts[i + 1] - 1` (the separator's place). Offsets, not views: no Buffer
 * is made per piece.
 */
function startsOf(bytes: Buffer): number[] {
  const starts = [0];
  for (let at = bytes.indexOf(1); at >= 0; at = bytes.indexOf(1, at + 1)) starts.push(at + 1);
  starts.push(bytes.length + 1);
  return starts;
}

/** A row's pieces as bytes and where its slots start. */
interface Pieces {
  bytes: Buffer;
  starts: number[];
}

const piecesOf = (bytes: Buffer | null): Pieces | undefined =>
  bytes === null ? undefined : { bytes, starts: startsOf(bytes) };

/** Whether a piece is there (putPiece would write it). */
function hasPiece(pieces: Pieces | undefined, slot: number): pieces is Pieces {
  return (
    pieces !== undefined &&
    slot + 1 < pieces.starts.length &&
    pieces.starts[slot + 1]! - 1 > pieces.starts[slot]!
  );
}

/** Writes the piece of `slot` and answers true; false when the row has none there. */
function putPiece(out: ByteChunks, pieces: Pieces | undefined, slot: number): boolean {
  if (!hasPiece(pieces, slot)) return false;
  out.bytes(pieces.bytes, pieces.starts[slot]!, pieces.starts[slot + 1]! - 1);
  return true;
}

/** As `mapJson`, of pieces as bytes, written into `out`. */
function putMap(
  out: ByteChunks,
  plan: ItemPlan,
  pieces: Pieces | undefined,
  slots: number[],
  absent: string | null,
) {
  let first = true;
  out.text('{');
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]!;
    if (hasPiece(pieces, slot)) {
      out.text(first ? plan.prefixes[i]! : plan.commaPrefixes[i]!);
      putPiece(out, pieces, slot);
    } else if (absent !== null) {
      out.text(first ? plan.prefixes[i]! : plan.commaPrefixes[i]!);
      out.text(absent);
    } else continue;
    first = false;
  }
  out.text('}');
}

/** The bytes of a JSON string of `value` (UTF-8 text): as they are when nothing needs escaping. */
function putString(out: ByteChunks, value: Buffer): void {
  for (let i = 0; i < value.length; i++) {
    const byte = value[i]!;
    if (byte < 0x20 || byte === 0x22 || byte === 0x5c) {
      out.text(JSON.stringify(value.toString()));
      return;
    }
  }
  out.text('"');
  out.bytes(value);
  out.text('"');
}

/**
 * `v2ItemJson` of a row read as bytes (`listPieces`): the same bytes, written straight into the
 * answer's chunks when the item's turn comes; no piece is decoded or copied anywhere else.
 */
export function v2ItemBytes(plan: ItemPlan, row: ListedPieces): RawJsonBytes {
  return new RawJsonBytes((out) => {
    const { includes } = plan;
    const e = piecesOf(row.entity);
    const c = piecesOf(row.content);
    const contentMap = (key: string, field: string, absent: string | null) => {
      out.text(key);
      putMap(out, plan, c, plan.content.get(field)!, absent);
    };
    out.text('{"id":');
    putString(out, row.externalId);
    out.text(',"guid":');
    putString(out, row.guid);
    out.text(`,"is_visible":${row.isVisible},"is_loaded":${row.isLoaded}`);
    for (const field of plan.fields) {
      out.text(field.prefix);
      if (field.listed) putPiece(out, e, field.slots[0]!);
      else putMap(out, plan, e, field.slots, null);
    }
    contentMap(',"content":{"html":', 'html', '""');
    if (includes.has('marketplace')) contentMap(',"marketplace":', 'marketplace', '""');
    if (includes.has('nested')) {
      out.text(',"nested":');
      if (!putPiece(out, c, LIST_JSON_SLOTS.nested)) out.text('[]');
    }
    if (includes.has('languages_complete')) {
      const slot = LIST_JSON_SLOTS.languagesComplete;
      const complete = hasPiece(c, slot)
        ? c.bytes.toString('utf8', c.starts[slot]!, c.starts[slot + 1]! - 1)
        : undefined;
      out.text(`,"languages_complete":${JSON.stringify(completeOf(complete?.split(','), plan.langs))}`);
    }
    out.text('}');
    if (includes.has('site_link')) {
      contentMap(',"site_link":{"html":', 'site_link.html', '""');
      contentMap(',"list":', 'site_link.list', '[]');
      out.text('}');
    }
    if (includes.has('rich_snippet')) {
      contentMap(',"rich_snippet":{"html":', 'rich_snippet.html', '""');
      contentMap(',"json":', 'rich_snippet.json', null);
      out.text('}');
    }
    if (includes.has('variant')) {
      // The variants' JSON as JSON.stringify writes it (listPieces: VARIANTS_JSON_SQL).
      out.text(',"variant":');
      if (row.variants === null) out.text('[]');
      else out.bytes(row.variants);
    }
    out.text(',"created_at":"');
    out.bytes(row.createdAt);
    out.text('","updated_at":"');
    out.bytes(row.updatedAt);
    out.text('"}');
  });
}
