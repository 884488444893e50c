import {
  CATALOGUE_API_LANGUAGES,
  type CatalogueEntityType,
  isOneOf,
  isRecord,
  V1_LANGUAGES,
  type V1EntityType,
} from '@catalogue/config';
import { catalogueRepository, type Eshop, type Knex, type ListOptions } from '@catalogue/db';
import { ValidationError } from '@catalogue/http';
import type { Deps } from '../deps';
import type { V1ListQuery, V2ListQuery } from '../schemas/list.schema';
import { every, type Include, planOf, v2Item, v2ItemBytes, v2ItemJson } from './list-item';

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
    storedLanguages: eshop.languages,
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
