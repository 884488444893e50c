import {
  CATALOGUE_API_LANGUAGES,
  type CatalogueEntityType,
  isOneOf,
  isRecord,
  V1_LANGUAGES,
  type V1EntityType,
} from '@catalogue/config';
import {
  catalogueRepository,
  decodeFragments,
  type Eshop,
  type Knex,
  type LangMap,
  langSlot,
  LANGUAGE_FIELDS,
  LIST_JSON_SLOTS,
  type ListedEntity,
  type ListedPieces,
  type ListFragments,
  type ListOptions,
} from '@catalogue/db';
import { ByteChunks, RawJson, RawJsonBytes, ValidationError } from '@catalogue/http';
import type { Deps } from '../deps';
import type { V1ListQuery, V2ListQuery } from '../schemas/list.schema';

export type Include =
  'nested' | 'marketplace' | 'site_link' | 'rich_snippet' | 'variant' | 'languages_complete';

/**
 * The includes each entity supports: the specification's lists, plus `languages_complete`
 * (beyond the specification, opt-in so that `content` is exactly `{html}` without include).
 */
export const INCLUDES: Record<CatalogueEntityType, readonly Include[]> = {
  product: ['nested', 'marketplace', 'site_link', 'rich_snippet', 'variant', 'languages_complete'],
  category: ['nested', 'marketplace', 'rich_snippet', 'languages_complete'],
  brand: ['nested', 'marketplace', 'site_link', 'rich_snippet', 'languages_complete'],
  blog: ['nested', 'marketplace', 'site_link', 'rich_snippet', 'languages_complete'],
};

const PLURAL: Record<CatalogueEntityType, string> = {
  product: 'products',
  category: 'categories',
  brand: 'brands',
  blog: 'blogs',
};

/** The includes of a request, or 422 naming what is unknown, unsupported or switched off. */
export function parseIncludes(
  type: CatalogueEntityType,
  eshop: Eshop,
  raw: readonly string[] = [],
): Set<Include> {
  const problems: string[] = [];
  const includes = new Set<Include>();
  for (const value of raw) {
    if (!isOneOf(INCLUDES.product, value)) {
      problems.push(`The selected include value ${value} is invalid.`);
    } else if (!INCLUDES[type].includes(value)) {
      problems.push(`The include ${value} is not available for ${PLURAL[type]}.`);
    } else if (value === 'site_link' && !eshop.enableSiteLink) {
      problems.push('The include site_link requires the eshop setting enable_site_link to be on.');
    } else if (value === 'rich_snippet' && !eshop.enableRichSnippet) {
      problems.push('The include rich_snippet requires the eshop setting enable_rich_snippet to be on.');
    } else {
      includes.add(value);
    }
  }
  if (problems.length) throw new ValidationError({ include: problems });
  return includes;
}

/**
 * The languages to return: the requested ones (or every one for `all`, `default` when the
 * parameter is absent) that are active for the eshop, in the eshop's order.
 */
export function parseLanguages(eshop: Eshop, raw: readonly string[] = []): string[] {
  const requested = raw.length === 0 ? ['default'] : raw;
  const unknown = requested.filter((l) => l !== 'all' && !isOneOf(CATALOGUE_API_LANGUAGES, l));
  if (unknown.length) {
    throw new ValidationError({ lang: unknown.map((l) => `The selected lang value ${l} is invalid.`) });
  }
  const wanted = requested.includes('all') ? new Set<string>(CATALOGUE_API_LANGUAGES) : new Set(requested);
  return eshop.languages.filter((l) => wanted.has(l));
}

function present(map: unknown, langs: readonly string[]): LangMap {
  const out: LangMap = {};
  if (!isRecord(map)) return out;
  for (const lang of langs) {
    const text = map[lang];
    if (typeof text === 'string') out[lang] = text;
  }
  return out;
}

function every<T>(map: Record<string, T> | undefined, langs: readonly string[], empty: T): Record<string, T> {
  return Object.fromEntries(langs.map((lang) => [lang, map?.[lang] ?? empty]));
}

function completeOf(stored: string[] | null | undefined, langs: readonly string[]): string[] | null {
  if (!Array.isArray(stored)) return null;
  const complete = new Set(stored);
  return langs.filter((lang) => complete.has(lang));
}

function v2Item(type: CatalogueEntityType, row: ListedEntity, langs: string[], includes: Set<Include>) {
  const f = row.fields;
  const images: unknown[] = Array.isArray(f.images) ? f.images : [];
  const item: Record<string, unknown> = {
    id: row.externalId,
    guid: row.guid,
    is_visible: row.isVisible,
    is_loaded: row.isLoaded,
    name: present(f.name, langs),
    ...(type === 'product' && { short_description: present(f.short_description, langs) }),
    description: present(f.description, langs),
    url: present(f.url, langs),
    seo_title: present(f.seo_title, langs),
    seo_description: present(f.seo_description, langs),
    // The specification types these `string` (it marks nullable fields): '' when there is none.
    ...(type === 'product' && { image_preview: images[0] ?? '' }),
    ...(type === 'brand' && { image_preview: f.image_preview ?? '' }),
    ...(type === 'blog' && { category: f.category ?? '' }),
    content: {
      html: every(row.content.html, langs, ''),
      ...(includes.has('marketplace') && { marketplace: every(row.content.marketplace, langs, '') }),
      ...(includes.has('nested') && { nested: row.content.nested ?? [] }),
      // Beyond the specification, only when asked for: the requested languages whose page shows
      // only its own texts (null: the item was rendered before this was computed; its next
      // render fills it).
      ...(includes.has('languages_complete') && {
        languages_complete: completeOf(row.content.languagesComplete, langs),
      }),
    },
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

/** What every item of a request shares when its JSON is put together from stored pieces. */
interface ItemPlan {
  type: CatalogueEntityType;
  includes: Set<Include>;
  langs: string[];
  /** `"<lang>":` for each language. */
  prefixes: string[];
  /** The slots (list-fragments.ts) of each language-map field's pieces, one per language. */
  slots: Map<string, number[]>;
  /** `prefixes` with the comma that goes before all but the first. */
  commaPrefixes: string[];
}

function planOf(type: CatalogueEntityType, langs: string[], includes: Set<Include>): ItemPlan {
  const slots = new Map<string, number[]>();
  for (const kind of ['entity', 'content'] as const) {
    for (const field of LANGUAGE_FIELDS[kind])
      slots.set(
        field,
        langs.map((lang) => langSlot(kind, field, lang)),
      );
  }
  const prefixes = langs.map((lang) => `${JSON.stringify(lang)}:`);
  return {
    type,
    includes,
    langs,
    prefixes,
    slots,
    commaPrefixes: prefixes.map((p) => `,${p}`),
  };
}

/**
 * A language map from pieces: `{"<lang>":<piece>,…}` in the plan's language order; a language
 * without a piece is left out (`absent` null, as `present`) or given `absent` (as `every`).
 */
function mapJson(plan: ItemPlan, pieces: ListFragments | undefined, field: string, absent: string | null) {
  const slots = plan.slots.get(field)!;
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
 * serialising the texts again (docs/decisions/0070-pre-serialised-list-items.md, "Pre-serialised list items"; a test compares
 * the two on the same rows).
 */
function v2ItemJson(plan: ItemPlan, row: ListedEntity, stored: { entity: string; content: string | null }) {
  const { type, includes } = plan;
  const e = decodeFragments(stored.entity);
  const c = stored.content === null ? undefined : decodeFragments(stored.content);
  let out = `{"id":${JSON.stringify(row.externalId)},"guid":${JSON.stringify(row.guid)}`;
  out += `,"is_visible":${JSON.stringify(row.isVisible)},"is_loaded":${JSON.stringify(row.isLoaded)}`;
  out += `,"name":${mapJson(plan, e, 'name', null)}`;
  if (type === 'product') out += `,"short_description":${mapJson(plan, e, 'short_description', null)}`;
  out += `,"description":${mapJson(plan, e, 'description', null)}`;
  out += `,"url":${mapJson(plan, e, 'url', null)}`;
  out += `,"seo_title":${mapJson(plan, e, 'seo_title', null)}`;
  out += `,"seo_description":${mapJson(plan, e, 'seo_description', null)}`;
  if (type === 'product' || type === 'brand') out += `,"image_preview":${e[LIST_JSON_SLOTS.preview]!}`;
  if (type === 'blog') out += `,"category":${e[LIST_JSON_SLOTS.preview]!}`;
  out += `,"content":{"html":${mapJson(plan, c, 'html', '""')}`;
  if (includes.has('marketplace')) out += `,"marketplace":${mapJson(plan, c, 'marketplace', '""')}`;
  if (includes.has('nested')) out += `,"nested":${c?.[LIST_JSON_SLOTS.nested] || '[]'}`;
  if (includes.has('languages_complete')) {
    const complete = c?.[LIST_JSON_SLOTS.languagesComplete] || undefined;
    out += `,"languages_complete":${JSON.stringify(completeOf(complete?.split(','), plan.langs))}`;
  }
  out += '}';
  if (includes.has('site_link')) {
    out += `,"site_link":{"html":${mapJson(plan, c, 'site_link.html', '""')}`;
    out += `,"list":${mapJson(plan, c, 'site_link.list', '[]')}}`;
  }
  if (includes.has('rich_snippet')) {
    out += `,"rich_snippet":{"html":${mapJson(plan, c, 'rich_snippet.html', '""')}`;
    out += `,"json":${mapJson(plan, c, 'rich_snippet.json', null)}}`;
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

/** Writes the piece of `slot` and answers true; false when the row has none there. */
function putPiece(out: ByteChunks, pieces: Pieces | undefined, slot: number): boolean {
  if (pieces === undefined || slot + 1 >= pieces.starts.length) return false;
  const start = pieces.starts[slot]!;
  const end = pieces.starts[slot + 1]! - 1;
  if (end <= start) return false;
  out.bytes(pieces.bytes, start, end);
  return true;
}

/** Whether a piece is there (putPiece would write it). */
function hasPiece(pieces: Pieces | undefined, slot: number): boolean {
  return (
    pieces !== undefined &&
    slot + 1 < pieces.starts.length &&
    pieces.starts[slot + 1]! - 1 > pieces.starts[slot]!
  );
}

/** As `mapJson`, of pieces as bytes, written into `out`. */
function putMap(
  out: ByteChunks,
  plan: ItemPlan,
  pieces: Pieces | undefined,
  field: string,
  absent: string | null,
) {
  const slots = plan.slots.get(field)!;
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
function v2ItemBytes(plan: ItemPlan, row: ListedPieces): RawJsonBytes {
  return new RawJsonBytes((out) => {
    const { type, includes } = plan;
    const e = piecesOf(row.entity);
    const c = piecesOf(row.content);
    out.text('{"id":');
    putString(out, row.externalId);
    out.text(',"guid":');
    putString(out, row.guid);
    out.text(`,"is_visible":${row.isVisible},"is_loaded":${row.isLoaded},"name":`);
    putMap(out, plan, e, 'name', null);
    if (type === 'product') {
      out.text(',"short_description":');
      putMap(out, plan, e, 'short_description', null);
    }
    for (const field of ['description', 'url', 'seo_title', 'seo_description']) {
      out.text(`,"${field}":`);
      putMap(out, plan, e, field, null);
    }
    if (type === 'product' || type === 'brand' || type === 'blog') {
      out.text(type === 'blog' ? ',"category":' : ',"image_preview":');
      putPiece(out, e, LIST_JSON_SLOTS.preview);
    }
    out.text(',"content":{"html":');
    putMap(out, plan, c, 'html', '""');
    if (includes.has('marketplace')) {
      out.text(',"marketplace":');
      putMap(out, plan, c, 'marketplace', '""');
    }
    if (includes.has('nested')) {
      out.text(',"nested":');
      if (!putPiece(out, c, LIST_JSON_SLOTS.nested)) out.text('[]');
    }
    if (includes.has('languages_complete')) {
      const slot = LIST_JSON_SLOTS.languagesComplete;
      const complete = hasPiece(c, slot)
        ? c!.bytes.toString('utf8', c!.starts[slot]!, c!.starts[slot + 1]! - 1)
        : undefined;
      out.text(`,"languages_complete":${JSON.stringify(completeOf(complete?.split(','), plan.langs))}`);
    }
    out.text('}');
    if (includes.has('site_link')) {
      out.text(',"site_link":{"html":');
      putMap(out, plan, c, 'site_link.html', '""');
      out.text(',"list":');
      putMap(out, plan, c, 'site_link.list', '[]');
      out.text('}');
    }
    if (includes.has('rich_snippet')) {
      out.text(',"rich_snippet":{"html":');
      putMap(out, plan, c, 'rich_snippet.html', '""');
      out.text(',"json":');
      putMap(out, plan, c, 'rich_snippet.json', null);
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

/**
 * A page of the eshop's items of `type`. A replica may serve it (`deps.reads`): once it has
 * replayed the eshop's newest event it holds every import, delete and render the client can know
 * of (docs/decisions/0049-reads-from-a-replica.md, "Reads from a replica").
 */
export async function listV2(
  deps: Pick<Deps, 'reads'>,
  eshop: Eshop,
  type: CatalogueEntityType,
  query: V2ListQuery,
) {
  const includes = parseIncludes(type, eshop, query.include);
  const langs = parseLanguages(eshop, query.lang);
  return deps.reads.run(eshop.id, (db) => v2Page(db, eshop, type, query, includes, langs));
}

async function v2Page(
  db: Knex,
  eshop: Eshop,
  type: CatalogueEntityType,
  query: V2ListQuery,
  includes: Set<Include>,
  langs: string[],
) {
  const filter = { isLoaded: query.is_edited, updatedAfter: query.last_update_time_from };
  const opts: ListOptions = {
    ...filter,
    page: query.page,
    perPage: query.per_page,
    outputs: {
      marketplace: includes.has('marketplace'),
      nested: includes.has('nested'),
      siteLink: includes.has('site_link'),
      richSnippet: includes.has('rich_snippet'),
      languagesComplete: includes.has('languages_complete'),
    },
    withVariants: includes.has('variant'),
    listJson: true,
    languages: langs,
  };
  const plan = planOf(type, langs, includes);
  // Only the pieces the request sends, as bytes, with the total, in one statement (listPieces);
  // a page with a row that has no readable pieces from the columns and pieces as text (listPage).
  const pieces = await catalogueRepository.listPieces(db, type, eshop.id, opts);
  const meta = (total: number) => ({ current_page: query.page, per_page: query.per_page, total });
  if (pieces) {
    const total = pieces.total ?? (await catalogueRepository.count(db, type, eshop.id, filter));
    return { data: pieces.rows.map((row) => v2ItemBytes(plan, row)), meta: meta(total) };
  }
  const [rows, total] = await Promise.all([
    catalogueRepository.listPage(db, type, eshop.id, opts),
    catalogueRepository.count(db, type, eshop.id, filter),
  ]);
  return {
    // Rows without stored pieces (written before they existed) from their columns.
    data: rows.map((row) =>
      row.listJson ? v2ItemJson(plan, row, row.listJson) : v2Item(type, row, langs, includes),
    ),
    meta: meta(total),
  };
}

/**
 * v1: flat items (the `default` language) with html and marketplace for the v1 languages. A
 * replica may serve it, as `listV2`.
 */
export function listV1(deps: Pick<Deps, 'reads'>, eshopId: number, type: V1EntityType, query: V1ListQuery) {
  return deps.reads.run(eshopId, (db) => v1Page(db, eshopId, type, query));
}

async function v1Page(db: Knex, eshopId: number, type: V1EntityType, query: V1ListQuery) {
  const filter = { isLoaded: query.is_edited, updatedAfter: query.last_update_time_from };
  const [rows, total] = await Promise.all([
    catalogueRepository.listPage(db, type, eshopId, {
      ...filter,
      page: query.page,
      perPage: query.per_page,
      outputs: { marketplace: true },
    }),
    catalogueRepository.count(db, type, eshopId, filter),
  ]);
  const items = rows.map((row) => {
    const text = (field: string): string => {
      const map = row.fields[field];
      const value = isRecord(map) ? map.default : undefined;
      return typeof value === 'string' ? value : '';
    };
    return {
      id: row.externalId,
      name: text('name'),
      ...(type === 'product' && { short_description: text('short_description') }),
      url: text('url'),
      content: {
        html: every(row.content.html, V1_LANGUAGES, ''),
        marketplace: every(row.content.marketplace, V1_LANGUAGES, ''),
      },
    };
  });
  const from = items.length ? (query.page - 1) * query.per_page + 1 : 0;
  return {
    [PLURAL[type]]: items,
    meta: {
      current_page: query.page,
      from,
      last_page: Math.max(1, Math.ceil(total / query.per_page)),
      per_page: query.per_page,
      to: items.length ? from + items.length - 1 : 0,
      total,
    },
  };
}
