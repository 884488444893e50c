// Shared arrangement of the v2 list tests (split by the specification's list rules): the
// service, what each entity type lists and includes, and writers of items and stored content.
import type { CatalogueEntityType } from '@catalogue/config';
import { contentListJson } from '@catalogue/db';
import { catalogueService, type Client } from './helpers';

export const PATH = {
  product: 'products',
  category: 'categories',
  brand: 'brands',
  blog: 'blogs',
} as const satisfies Record<CatalogueEntityType, string>;
export const TABLE = PATH;
export const TYPES: CatalogueEntityType[] = ['product', 'category', 'brand', 'blog'];
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
export const INVALID = 'The given data was invalid.';

export const COMMON_KEYS = [
  'id',
  'guid',
  'is_visible',
  'is_loaded',
  'name',
  'description',
  'url',
  'seo_title',
  'seo_description',
  'content',
  'created_at',
  'updated_at',
];
export const ITEM_KEYS: Record<CatalogueEntityType, string[]> = {
  product: [...COMMON_KEYS, 'short_description', 'image_preview'].sort(),
  category: [...COMMON_KEYS].sort(),
  brand: [...COMMON_KEYS, 'image_preview'].sort(),
  blog: [...COMMON_KEYS, 'category'].sort(),
};
export const ALL_INCLUDES = [
  'nested',
  'marketplace',
  'site_link',
  'rich_snippet',
  'variant',
  'languages_complete',
];
export const INCLUDES: Record<CatalogueEntityType, string[]> = {
  product: ['nested', 'marketplace', 'site_link', 'rich_snippet', 'variant', 'languages_complete'],
  category: ['nested', 'marketplace', 'rich_snippet', 'languages_complete'],
  brand: ['nested', 'marketplace', 'site_link', 'rich_snippet', 'languages_complete'],
  blog: ['nested', 'marketplace', 'site_link', 'rich_snippet', 'languages_complete'],
};

export interface StoredContent {
  html?: Record<string, string>;
  marketplace?: Record<string, string>;
  nested?: unknown[];
  site_link?: { html: Record<string, string>; list: Record<string, { heading: string; slug: string }[]> };
  rich_snippet?: { html: Record<string, string>; json: Record<string, unknown> };
  /** Left out: NULL, as for content rendered before it was computed. */
  languages_complete?: string[];
}

export const NESTED = [[{ id: 1, class: 'cc-text', tag: 'p', children: [] }]];
export const SITE_LINK = {
  html: { default: '<nav><a href="/shoes">Shoes</a></nav>', cs: '<nav><a href="/boty">Boty</a></nav>' },
  list: { default: [{ heading: 'Shoes', slug: 'shoes' }], cs: [{ heading: 'Boty', slug: 'boty' }] },
};
export const RICH_SNIPPET = {
  html: {
    default: '<script type="application/ld+json">{"@type":"Product","name":"Chair"}</script>',
    cs: '<script type="application/ld+json">{"@type":"Product","name":"Židle"}</script>',
  },
  json: { default: { '@type': 'Product', name: 'Chair' }, cs: { '@type': 'Product', name: 'Židle' } },
};

/** A minimal valid v2 write item of a type. */
export function item(
  type: CatalogueEntityType,
  id: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { id, name: { default: `${type} ${id}` }, ...extra };
}

export function idsOf(body: { data: { id: string }[] }): string[] {
  return body.data.map((i) => i.id);
}

/** The service of one test file, with writers of items, their status and their stored content. */
export function v2ListService() {
  const svc = catalogueService();

  async function importItems(api: Client, type: CatalogueEntityType, items: Record<string, unknown>[]) {
    const res = await api.post(`/api/v2/rest/${PATH[type]}`, items);
    expect(res.body).toMatchObject({ success: true, skipped: 0 });
    expect(res.status).toBe(200);
  }

  /** What the generation worker does for an item: status ready (via staff's CLI path) and loaded. */
  async function publish(eshopId: number, type: CatalogueEntityType, ids: string[]) {
    await svc.setStatus(eshopId, type, ids, 'ready');
    await svc.deps
      .db(TABLE[type])
      .where({ eshop_id: eshopId })
      .whereIn('external_id', ids)
      .update({ is_loaded: true });
  }

  async function storeContent(
    eshopId: number,
    type: CatalogueEntityType,
    externalId: string,
    c: StoredContent,
  ) {
    const pieces = contentListJson(c);
    await svc.deps.db('content').insert({
      eshop_id: eshopId,
      entity_type: type,
      external_id: externalId,
      html: JSON.stringify(c.html ?? {}),
      marketplace: JSON.stringify(c.marketplace ?? {}),
      nested: JSON.stringify(c.nested ?? []),
      site_link: JSON.stringify(c.site_link ?? { html: {}, list: {} }),
      rich_snippet: JSON.stringify(c.rich_snippet ?? { html: {}, json: {} }),
      ...(c.languages_complete && { languages_complete: JSON.stringify(c.languages_complete) }),
      // The list's pieces, as every render writes them (v2-list-bytes.test.ts covers rows without).
      list_json: pieces.listJson,
      list_json_seo: pieces.listJsonSeo,
    });
  }

  return { svc, importItems, publish, storeContent };
}
