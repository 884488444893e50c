import type { Knex } from 'knex';
import { isoMicros } from '../timestamps';

export type EntityType = 'product' | 'category' | 'brand' | 'blog';
export type EntityStatus = 'draft' | 'generate' | 'review' | 'ready';
export type LangMap = Record<string, string>;

/** Language-map columns of every entity; products add short_description. */
export const COMMON_LANG_FIELDS = ['name', 'url', 'description', 'seo_title', 'seo_description'] as const;

interface EntityTable {
  table: string;
  langFields: readonly string[];
  /** Non-language columns written by imports, besides is_visible. */
  dataFields: readonly string[];
  /** Lists show only `ready` items, except brands, which have no status filter. */
  listedOnlyWhenReady: boolean;
}

export const ENTITY_TABLES: Record<EntityType, EntityTable> = {
  product: {
    table: 'products',
    langFields: [...COMMON_LANG_FIELDS, 'short_description'],
    dataFields: ['images', 'brand_id', 'categories_ids', 'parameters_ids'],
    listedOnlyWhenReady: true,
  },
  category: {
    table: 'categories',
    langFields: COMMON_LANG_FIELDS,
    dataFields: ['images'],
    listedOnlyWhenReady: true,
  },
  brand: {
    table: 'brands',
    langFields: COMMON_LANG_FIELDS,
    dataFields: ['image_preview'],
    listedOnlyWhenReady: false,
  },
  blog: {
    table: 'blogs',
    langFields: COMMON_LANG_FIELDS,
    dataFields: ['category', 'images'],
    listedOnlyWhenReady: true,
  },
};

/** JSONB columns among the data fields (knex needs them serialised). */
const JSON_FIELDS = new Set(['images', 'categories_ids', 'parameters_ids']);

/** The stored, importable state of an entity: what an import compares and writes. */
export interface EntityRecord {
  externalId: string;
  isVisible: boolean;
  /** Language maps and data fields by column name. */
  fields: Record<string, unknown>;
}

export interface StoredEntity extends EntityRecord {
  id: number;
  status: EntityStatus;
  isDelete: boolean;
}

export interface EntityWrite extends EntityRecord {
  status: EntityStatus;
}

export interface ListFilter {
  isLoaded?: boolean;
  /** Only items updated strictly after this instant (ISO string, UTC). */
  updatedAfter?: string;
}

export interface ListOptions extends ListFilter {
  page: number;
  perPage: number;
  /** Rendered outputs to read besides content.html. */
  outputs: { marketplace?: boolean; nested?: boolean; siteLink?: boolean; richSnippet?: boolean };
  withVariants?: boolean;
}

/** A listed item as stored, with its rendered content (missing content reads as empty). */
export interface ListedEntity {
  id: number;
  externalId: string;
  guid: string;
  isVisible: boolean;
  isLoaded: boolean;
  fields: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  content: {
    html: LangMap;
    marketplace?: LangMap;
    nested?: unknown[];
    siteLink?: { html: LangMap; list: Record<string, { heading: string; slug: string }[]> };
    richSnippet?: { html: LangMap; json: Record<string, unknown> };
  };
  variants?: { code: string; ean: string | null }[];
}

function columnsOf(type: EntityType): string[] {
  const t = ENTITY_TABLES[type];
  return [...t.langFields, ...t.dataFields];
}

function toWriteRow(type: EntityType, eshopId: number, write: EntityWrite): Record<string, unknown> {
  const row: Record<string, unknown> = {
    eshop_id: eshopId,
    external_id: write.externalId,
    is_visible: write.isVisible,
    is_delete: false,
    status: write.status,
  };
  for (const column of columnsOf(type)) {
    const value = write.fields[column];
    row[column] =
      JSON_FIELDS.has(column) || ENTITY_TABLES[type].langFields.includes(column)
        ? JSON.stringify(value ?? (JSON_FIELDS.has(column) ? [] : {}))
        : (value ?? null);
  }
  return row;
}

function listWhere(
  db: Knex | Knex.Transaction,
  type: EntityType,
  eshopId: number,
  filter: ListFilter,
): Knex.QueryBuilder {
  const { table, listedOnlyWhenReady } = ENTITY_TABLES[type];
  const query = db(`${table} as e`).where('e.eshop_id', eshopId).andWhere('e.is_delete', false);
  if (listedOnlyWhenReady) query.andWhere('e.status', 'ready');
  if (filter.isLoaded !== undefined) query.andWhere('e.is_loaded', filter.isLoaded);
  if (filter.updatedAfter !== undefined) query.andWhere('e.updated_at', '>', filter.updatedAfter);
  return query;
}

interface ListRow {
  id: number;
  external_id: string;
  guid: string;
  is_visible: boolean;
  is_loaded: boolean;
  created_at: string;
  updated_at: string;
  html: LangMap | null;
  marketplace?: LangMap | null;
  nested?: unknown[] | null;
  site_link?: ListedEntity['content']['siteLink'] | null;
  rich_snippet?: ListedEntity['content']['richSnippet'] | null;
  variants?: { code: string; ean: string | null }[];
  [column: string]: unknown;
}

export const catalogueRepository = {
  /** The stored state of the given items, locked for the rest of the caller's transaction. */
  async findForUpdate(
    trx: Knex.Transaction,
    type: EntityType,
    eshopId: number,
    externalIds: string[],
  ): Promise<Map<string, StoredEntity>> {
    if (!externalIds.length) return new Map();
    const rows = await trx(ENTITY_TABLES[type].table)
      .select('id', 'external_id', 'status', 'is_visible', 'is_delete', ...columnsOf(type))
      .where('eshop_id', eshopId)
      .whereIn('external_id', externalIds)
      .orderBy('id')
      .forUpdate();
    return new Map(
      rows.map((row: Record<string, unknown>) => {
        const fields = Object.fromEntries(columnsOf(type).map((c) => [c, row[c]]));
        return [
          row.external_id as string,
          {
            id: row.id as number,
            externalId: row.external_id as string,
            status: row.status as EntityStatus,
            isVisible: row.is_visible as boolean,
            isDelete: row.is_delete as boolean,
            fields,
          },
        ];
      }),
    );
  },

  /**
   * Creates or updates items in one multi-row statement. Returns internal ids by external id.
   * Every written row is visible again (an import brings back a soft-deleted item).
   */
  async upsert(
    trx: Knex.Transaction,
    type: EntityType,
    eshopId: number,
    writes: EntityWrite[],
  ): Promise<Map<string, number>> {
    if (!writes.length) return new Map();
    const columns = ['is_visible', 'is_delete', 'status', ...columnsOf(type)];
    const merge = Object.fromEntries(columns.map((c) => [c, trx.raw('excluded.??', [c])]));
    const rows = await trx(ENTITY_TABLES[type].table)
      .insert(writes.map((w) => toWriteRow(type, eshopId, w)))
      .onConflict(['eshop_id', 'external_id'])
      .merge({ ...merge, updated_at: trx.fn.now(6) })
      .returning<{ id: number; external_id: string }[]>(['id', 'external_id']);
    return new Map(rows.map((r) => [r.external_id, r.id]));
  },

  /** Which of the external ids exist for the eshop (soft-deleted ones included). */
  async existingIds(
    db: Knex | Knex.Transaction,
    type: EntityType,
    eshopId: number,
    externalIds: string[],
  ): Promise<Set<string>> {
    if (!externalIds.length) return new Set();
    // One array parameter, not one bind parameter per id (a request may name 50,000 ids).
    const rows = await db(ENTITY_TABLES[type].table)
      .select<{ external_id: string }[]>('external_id')
      .where('eshop_id', eshopId)
      .whereRaw('external_id = any(?::text[])', [externalIds]);
    return new Set(rows.map((r) => r.external_id));
  },

  /** Soft-deletes the items that exist and are not deleted yet; returns their external ids. */
  async softDelete(
    db: Knex | Knex.Transaction,
    type: EntityType,
    eshopId: number,
    externalIds: string[],
  ): Promise<Set<string>> {
    if (!externalIds.length) return new Set();
    const rows = await db(ENTITY_TABLES[type].table)
      .where('eshop_id', eshopId)
      .whereIn('external_id', externalIds)
      .andWhere('is_delete', false)
      .update({ is_delete: true, updated_at: db.fn.now(6) })
      .returning<{ external_id: string }[]>('external_id');
    return new Set(rows.map((r) => r.external_id));
  },

  async setStatus(
    db: Knex | Knex.Transaction,
    type: EntityType,
    eshopId: number,
    externalId: string,
    status: EntityStatus,
  ): Promise<boolean> {
    const changed = await db(ENTITY_TABLES[type].table)
      .where({ eshop_id: eshopId, external_id: externalId })
      .update({ status, updated_at: db.fn.now(6) });
    return changed > 0;
  },

  /** One page of listed items with their stored content, in internal-id order (one query). */
  async listPage(
    db: Knex | Knex.Transaction,
    type: EntityType,
    eshopId: number,
    opts: ListOptions,
  ): Promise<ListedEntity[]> {
    const columns = columnsOf(type).map((c) => `e.${c}`);
    const outputs = [
      opts.outputs.marketplace && 'c.marketplace',
      opts.outputs.nested && 'c.nested',
      opts.outputs.siteLink && 'c.site_link',
      opts.outputs.richSnippet && 'c.rich_snippet',
    ].filter((c): c is string => Boolean(c));
    const query = listWhere(db, type, eshopId, opts)
      .leftJoin('content as c', (join) =>
        join
          .on('c.eshop_id', 'e.eshop_id')
          .andOn('c.entity_type', db.raw('?', [type]))
          .andOn('c.external_id', 'e.external_id'),
      )
      .select(
        'e.id',
        'e.external_id',
        'e.guid',
        'e.is_visible',
        'e.is_loaded',
        ...columns,
        db.raw(`${isoMicros('e.created_at')} as created_at`),
        db.raw(`${isoMicros('e.updated_at')} as updated_at`),
        'c.html',
        ...outputs,
      )
      .orderBy('e.id')
      .limit(opts.perPage)
      .offset((opts.page - 1) * opts.perPage);
    if (opts.withVariants) {
      query.select(
        db.raw(
          `coalesce((select json_agg(json_build_object('code', v.code, 'ean', v.ean) order by v.id)
             from product_variants v where v.product_id = e.id), '[]'::json) as variants`,
        ),
      );
    }
    const rows = (await query) as ListRow[];
    return rows.map((row) => ({
      id: row.id,
      externalId: row.external_id,
      guid: row.guid,
      isVisible: row.is_visible,
      isLoaded: row.is_loaded,
      fields: Object.fromEntries(columnsOf(type).map((c) => [c, row[c]])),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      content: {
        html: row.html ?? {},
        ...(opts.outputs.marketplace && { marketplace: row.marketplace ?? {} }),
        ...(opts.outputs.nested && { nested: row.nested ?? [] }),
        ...(opts.outputs.siteLink && { siteLink: row.site_link ?? { html: {}, list: {} } }),
        ...(opts.outputs.richSnippet && { richSnippet: row.rich_snippet ?? { html: {}, json: {} } }),
      },
      ...(opts.withVariants && { variants: row.variants ?? [] }),
    }));
  },

  async count(
    db: Knex | Knex.Transaction,
    type: EntityType,
    eshopId: number,
    filter: ListFilter,
  ): Promise<number> {
    const row = await listWhere(db, type, eshopId, filter).count<{ count: number }[]>({ count: '*' }).first();
    return row?.count ?? 0;
  },

  /** Names of referenced entities (a product's brand, its categories), by external id. */
  async namesOf(
    db: Knex | Knex.Transaction,
    type: EntityType,
    eshopId: number,
    externalIds: string[],
  ): Promise<Map<string, LangMap>> {
    if (!externalIds.length) return new Map();
    const rows = await db(ENTITY_TABLES[type].table)
      .select<{ external_id: string; name: LangMap }[]>('external_id', 'name')
      .where('eshop_id', eshopId)
      .whereIn('external_id', externalIds);
    return new Map(rows.map((r) => [r.external_id, r.name]));
  },

  /** Marks composed content as stored: `generate` items become ready (or review) and loaded. */
  async markRendered(
    trx: Knex.Transaction,
    type: EntityType,
    eshopId: number,
    externalId: string,
    nextStatus: 'ready' | 'review',
  ): Promise<boolean> {
    const changed = await trx(ENTITY_TABLES[type].table)
      .where({ eshop_id: eshopId, external_id: externalId, status: 'generate' })
      .update({ status: nextStatus, is_loaded: true, updated_at: trx.fn.now(6) });
    return changed > 0;
  },
};
