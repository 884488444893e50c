import {
  CATALOGUE_API_LANGUAGES,
  type CatalogueEntityType,
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
import { RawJson, RawJsonBytes, ValidationError } from '@catalogue/http';
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
    if (!(INCLUDES.product as readonly string[]).includes(value)) {
      problems.push(`The selected include value ${value} is invalid.`);
    } else if (!INCLUDES[type].includes(value as Include)) {
      problems.push(`The include ${value} is not available for ${PLURAL[type]}.`);
    } else if (value === 'site_link' && !eshop.enableSiteLink) {
      problems.push('The include site_link requires the eshop setting enable_site_link to be on.');
    } else if (value === 'rich_snippet' && !eshop.enableRichSnippet) {
      problems.push('The include rich_snippet requires the eshop setting enable_rich_snippet to be on.');
    } else {
      includes.add(value as Include);
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
  const unknown = requested.filter(
    (l) => l !== 'all' && !(CATALOGUE_API_LANGUAGES as readonly string[]).includes(l),
  );
  if (unknown.length) {
    throw new ValidationError({ lang: unknown.map((l) => `The selected lang value ${l} is invalid.`) });
  }
  const wanted = requested.includes('all') ? new Set<string>(CATALOGUE_API_LANGUAGES) : new Set(requested);
  return eshop.languages.filter((l) => wanted.has(l));
}

function present(map: unknown, langs: readonly string[]): LangMap {
  const source = (map ?? {}) as LangMap;
  const out: LangMap = {};
  for (const lang of langs) if (typeof source[lang] === 'string') out[lang] = source[lang];
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
  const images = (f.images ?? []) as string[];
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
    ...(type === 'brand' && { image_preview: (f.image_preview as string | null) ?? '' }),
    ...(type === 'blog' && { category: (f.category as string | null) ?? '' }),
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
  /** `prefixes` as UTF-8 bytes, with the comma that goes before all but the first. */
  prefixBytes: Buffer[];
  commaPrefixBytes: Buffer[];
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
    prefixBytes: prefixes.map((p) => Buffer.from(p)),
    commaPrefixBytes: prefixes.map((p) => Buffer.from(`,${p}`)),
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

/** The pieces of a row read as bytes (ListedPieces), by slot: views of the bytes, none copied. */
function slotsOf(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let start = 0; ;) {
    const end = bytes.indexOf(1, start);
    if (end < 0) {
      out.push(bytes.subarray(start));
      return out;
    }
    out.push(bytes.subarray(start, end));
    start = end + 1;
  }
}

const ASCII = (text: string) => Buffer.from(text, 'latin1');
const B = {
  open: ASCII('{'),
  close: ASCII('}'),
  emptyString: ASCII('""'),
  emptyList: ASCII('[]'),
  quote: ASCII('"'),
};

/**
 * `v2ItemJson` of a row read as bytes (`listPieces`): the same bytes, as parts that are either
 * the stored pieces themselves or the short texts between them; no piece is decoded.
 */
class ItemBytes {
  readonly parts: Buffer[] = [];
  length = 0;

  put(part: Buffer): void {
    this.parts.push(part);
    this.length += part.length;
  }

  text(text: string): void {
    this.put(Buffer.from(text));
  }

  /** As `mapJson`, of pieces by slot. */
  map(plan: ItemPlan, pieces: Buffer[] | undefined, field: string, absent: Buffer | null): void {
    const slots = plan.slots.get(field)!;
    this.put(B.open);
    let first = true;
    for (let i = 0; i < slots.length; i++) {
      const stored = pieces?.[slots[i]!];
      const piece = stored && stored.length ? stored : absent;
      if (piece === null) continue;
      this.put(first ? plan.prefixBytes[i]! : plan.commaPrefixBytes[i]!);
      this.put(piece);
      first = false;
    }
    this.put(B.close);
  }
}

const piece = (pieces: Buffer[] | undefined, slot: number): Buffer | undefined => {
  const found = pieces?.[slot];
  return found && found.length ? found : undefined;
};

function v2ItemBytes(plan: ItemPlan, row: ListedPieces): RawJsonBytes {
  const { type, includes } = plan;
  const e = slotsOf(row.entity);
  const c = row.content === null ? undefined : slotsOf(row.content);
  const out = new ItemBytes();
  out.text(
    `{"id":${JSON.stringify(row.externalId.toString())},"guid":${JSON.stringify(row.guid.toString())}`,
  );
  out.text(`,"is_visible":${row.isVisible},"is_loaded":${row.isLoaded},"name":`);
  out.map(plan, e, 'name', null);
  if (type === 'product') {
    out.text(',"short_description":');
    out.map(plan, e, 'short_description', null);
  }
  for (const field of ['description', 'url', 'seo_title', 'seo_description']) {
    out.text(`,"${field}":`);
    out.map(plan, e, field, null);
  }
  if (type === 'product' || type === 'brand' || type === 'blog') {
    out.text(type === 'blog' ? ',"category":' : ',"image_preview":');
    out.put(e[LIST_JSON_SLOTS.preview]!);
  }
  out.text(',"content":{"html":');
  out.map(plan, c, 'html', B.emptyString);
  if (includes.has('marketplace')) {
    out.text(',"marketplace":');
    out.map(plan, c, 'marketplace', B.emptyString);
  }
  if (includes.has('nested')) {
    out.text(',"nested":');
    out.put(piece(c, LIST_JSON_SLOTS.nested) ?? B.emptyList);
  }
  if (includes.has('languages_complete')) {
    const complete = piece(c, LIST_JSON_SLOTS.languagesComplete)?.toString();
    out.text(`,"languages_complete":${JSON.stringify(completeOf(complete?.split(','), plan.langs))}`);
  }
  out.put(B.close);
  if (includes.has('site_link')) {
    out.text(',"site_link":{"html":');
    out.map(plan, c, 'site_link.html', B.emptyString);
    out.text(',"list":');
    out.map(plan, c, 'site_link.list', B.emptyList);
    out.put(B.close);
  }
  if (includes.has('rich_snippet')) {
    out.text(',"rich_snippet":{"html":');
    out.map(plan, c, 'rich_snippet.html', B.emptyString);
    out.text(',"json":');
    out.map(plan, c, 'rich_snippet.json', null);
    out.put(B.close);
  }
  if (includes.has('variant')) {
    // PostgreSQL writes json with spaces: the variants (two short objects) as `listPage` serves them.
    const variants = row.variants === null ? [] : (JSON.parse(row.variants.toString()) as unknown[]);
    out.text(`,"variant":${JSON.stringify(variants)}`);
  }
  out.text(',"created_at":"');
  out.put(row.createdAt);
  out.text('","updated_at":"');
  out.put(row.updatedAt);
  out.text('"}');
  return new RawJsonBytes(out.parts, out.length);
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
    const text = (field: string) => ((row.fields[field] ?? {}) as LangMap).default ?? '';
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
