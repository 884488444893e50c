import type { CatalogueEntityType } from '@catalogue/config';
import type { Knex } from 'knex';
import { copyRows } from '../copy-rows';
import {
  contentPiecesSql,
  entityPiecesSql,
  LIST_JSON_LAYOUT,
  LIST_LANGUAGES,
  type PiecesWanted,
} from '../list-fragments';
import { checkedRow, checkedRows, countOf } from '../sql-rows';
import type { Row } from '../tables';
import { isoMicros } from '../timestamps';
import {
  columnsOf,
  ENTITY_TABLES,
  type LangMap,
  type ListedEntity,
  type ListFilter,
  type ListOptions,
  type StoredEntity,
} from './catalogue-tables';
import { keysFrom } from './tenant-keys';

/**
 * The listed rows of an eshop: the predicate of `<table>_list_idx` (status and is_delete), with
 * is_loaded, which that index carries, so paging and counting need not read the heap.
 */
function listWhere(
  db: Knex | Knex.Transaction,
  type: CatalogueEntityType,
  eshopId: number,
  filter: ListFilter,
  alias = 'e',
): Knex.QueryBuilder {
  const { table, listedOnlyWhenReady } = ENTITY_TABLES[type];
  const query = db(`${table} as ${alias}`)
    .where(`${alias}.eshop_id`, eshopId)
    .andWhere(`${alias}.is_delete`, false);
  if (listedOnlyWhenReady) query.andWhere(`${alias}.status`, 'ready');
  if (filter.isLoaded !== undefined) query.andWhere(`${alias}.is_loaded`, filter.isLoaded);
  if (filter.updatedAfter !== undefined) query.andWhere(`${alias}.updated_at`, '>', filter.updatedAfter);
  return query;
}

/** The catalogue entities' tables (ENTITY_TABLES). */
type EntityTable = 'products' | 'categories' | 'brands' | 'blogs';
type Content = Row<'content'>;

/** A listed row: the entity's columns, its content's (left-joined: null when it has none). */
type ListRow = Pick<Row<EntityTable>, 'id' | 'external_id' | 'guid' | 'is_visible' | 'is_loaded'> & {
  created_at: string;
  updated_at: string;
  // The language maps as the list types them (ListedEntity: LangMap, not the partial maps of content).
  html: LangMap | null;
  marketplace?: LangMap | null;
  nested?: Content['nested'] | null;
  site_link?: ListedEntity['content']['siteLink'] | null;
  rich_snippet?: ListedEntity['content']['richSnippet'] | null;
  languages_complete?: Content['languages_complete'];
  variants?: { code: string; ean: string | null }[];
  list_json?: Row<EntityTable>['list_json'];
  content_list_json?: Content['list_json'];
  [column: string]: unknown;
};
/** The columns every listed row has (checkedRows). */
const LIST_COLUMNS = [
  'id',
  'external_id',
  'guid',
  'is_visible',
  'is_loaded',
  'created_at',
  'updated_at',
  'html',
] as const;

/**
 * A listed row whose pieces cannot serve it: the entity's are missing, or its content row's
 * (rows written before the pieces existed, or by a writer the guard trigger caught). Pieces
 * of another layout are found after the read (`readable`): checking them in SQL would detoast
 * the pieces once per column that names FALLBACK.
 */
const FALLBACK = '(e.list_json is null or (c.eshop_id is not null and c.list_json is null))';

/** Pieces this code can read (list-fragments.ts): written in its layout, for each kind of row. */
const LAYOUT_PREFIX = {
  entity: `${LIST_JSON_LAYOUT.entity}\u0001`,
  content: `${LIST_JSON_LAYOUT.content}\u0001`,
};
const readable = (row: ListRow) =>
  row.list_json!.startsWith(LAYOUT_PREFIX.entity) &&
  (row.content_list_json == null || row.content_list_json.startsWith(LAYOUT_PREFIX.content));

/** LAYOUT_PREFIX as bytes, for pieces read as bytes (listPieces). */
const LAYOUT_BYTES = {
  entity: Buffer.from(LAYOUT_PREFIX.entity),
  content: Buffer.from(LAYOUT_PREFIX.content),
};
const readableBytes = (pieces: Buffer, kind: keyof typeof LAYOUT_BYTES) =>
  pieces.length >= LAYOUT_BYTES[kind].length &&
  LAYOUT_BYTES[kind].equals(pieces.subarray(0, LAYOUT_BYTES[kind].length));

/**
 * A listed row as `listPieces` reads it: the stored pieces and every other value as the bytes
 * PostgreSQL sent (text: UTF-8), none of them decoded.
 */
export interface ListedPieces {
  externalId: Buffer;
  guid: Buffer;
  isVisible: boolean;
  isLoaded: boolean;
  /** The entity row's `list_json`, with only the pieces the request sends (entityPiecesSql). */
  entity: Buffer;
  /** The content row's, likewise; null: the item has no content row. */
  content: Buffer | null;
  /** `[{"code":…,"ean":…},…]` as JSON.stringify writes it (withVariants), else null. */
  variants: Buffer | null;
  /** ISO 8601 with microseconds, as `listPage`'s. */
  createdAt: Buffer;
  updatedAt: Buffer;
}

/** The page's ids through the list index, joined to the wide rows and their content (listPage says why). */
function pageJoin(
  db: Knex | Knex.Transaction,
  type: CatalogueEntityType,
  eshopId: number,
  opts: ListOptions,
) {
  const pageIds = listWhere(db, type, eshopId, opts, 'l')
    .select('l.eshop_id', 'l.id')
    .orderBy('l.id')
    .limit(opts.perPage)
    .offset((opts.page - 1) * opts.perPage);
  return db
    .from(pageIds.as('p'))
    .join(`${ENTITY_TABLES[type].table} as e`, (join) =>
      join.on('e.eshop_id', 'p.eshop_id').andOn('e.id', 'p.id'),
    )
    .leftJoin('content as c', (join) =>
      join
        .on('c.eshop_id', 'e.eshop_id')
        .andOn('c.entity_type', db.raw('?', [type]))
        .andOn('c.external_id', 'e.external_id'),
    )
    .orderBy('e.id');
}

const VARIANTS_SQL = `coalesce((select json_agg(json_build_object('code', v.code, 'ean', v.ean) order by v.id)
             from product_variants v where v.eshop_id = e.eshop_id and v.product_id = e.id), '[]'::json)`;

/**
 * The variants as the text `JSON.stringify` gives for VARIANTS_SQL's value (no spaces; to_json
 * escapes a string as JSON.stringify does), so that the bytes are sent as they are.
 */
const VARIANTS_JSON_SQL = `coalesce((select '[' || string_agg('{"code":' || to_json(v.code)::text || ',"ean":'
             || coalesce(to_json(v.ean)::text, 'null') || '}', ',' order by v.id) || ']'
             from product_variants v where v.eshop_id = e.eshop_id and v.product_id = e.id), '[]')`;

/** A listed row as the list reads it (`listJson`: its pieces, when it has readable ones). */
function entityOf(type: CatalogueEntityType, opts: ListOptions, row: ListRow): ListedEntity {
  return {
    id: row.id,
    externalId: row.external_id,
    guid: row.guid,
    isVisible: row.is_visible,
    isLoaded: row.is_loaded,
    ...(opts.listJson && {
      listJson: row.list_json ? { entity: row.list_json, content: row.content_list_json ?? null } : null,
    }),
    fields: row.list_json ? {} : Object.fromEntries(columnsOf(type).map((c) => [c, row[c]])),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    content: {
      html: row.html ?? {},
      ...(opts.outputs.marketplace && { marketplace: row.marketplace ?? {} }),
      ...(opts.outputs.nested && { nested: row.nested ?? [] }),
      ...(opts.outputs.siteLink && { siteLink: row.site_link ?? { html: {}, list: {} } }),
      ...(opts.outputs.richSnippet && { richSnippet: row.rich_snippet ?? { html: {}, json: {} } }),
      ...(opts.outputs.languagesComplete && { languagesComplete: row.languages_complete ?? null }),
    },
    ...(opts.withVariants && { variants: row.variants ?? [] }),
  };
}

/** What a page's pieces must hold (ListOptions' languages and outputs). */
const piecesWanted = (opts: ListOptions): PiecesWanted => ({
  languages: opts.languages ?? LIST_LANGUAGES,
  ...(opts.storedLanguages && { stored: opts.storedLanguages }),
  outputs: opts.outputs,
});

/** Reads of catalogue entities: list pages with their stored content, counts, names. */
export const catalogueReads = {
  /**
   * One page of listed items with their stored content, in internal-id order (one query).
   *
   * A deferred join: the page's ids come first, through `<table>_list_idx` with LIMIT/OFFSET on
   * that narrow row, and only those ids are joined to the wide row, its content and its
   * variants. The rows an OFFSET skips then cost one index entry each, not a heap row, a
   * content row, a variants subquery and two to_char calls: a deep page costs what the first
   * page costs, give or take the index entries stepped over.
   */
  async listPage(
    db: Knex | Knex.Transaction,
    type: CatalogueEntityType,
    eshopId: number,
    opts: ListOptions,
  ): Promise<ListedEntity[]> {
    // With `listJson`, the JSONB columns only of the rows whose pieces are missing (FALLBACK).
    const column = (c: string) =>
      opts.listJson ? db.raw(`case when ${FALLBACK} then ${c} end as ??`, [c.slice(2)]) : c;
    const columns = columnsOf(type).map((c) => column(`e.${c}`));
    const outputs = [
      opts.outputs.marketplace && 'c.marketplace',
      opts.outputs.nested && 'c.nested',
      opts.outputs.siteLink && 'c.site_link',
      opts.outputs.richSnippet && 'c.rich_snippet',
      opts.outputs.languagesComplete && 'c.languages_complete',
    ]
      .filter((c): c is string => Boolean(c))
      .map(column);
    const query = pageJoin(db, type, eshopId, opts).select(
      'e.id',
      'e.external_id',
      'e.guid',
      'e.is_visible',
      'e.is_loaded',
      ...columns,
      db.raw(`${isoMicros('e.created_at')} as created_at`),
      db.raw(`${isoMicros('e.updated_at')} as updated_at`),
      column('c.html'),
      ...outputs,
    );
    if (opts.listJson) {
      // Only the pieces the request sends (entityPiecesSql, contentPiecesSql).
      const wanted = piecesWanted(opts);
      const entity = entityPiecesSql('e', wanted);
      const content = contentPiecesSql('c', wanted);
      query.select(
        db.raw(`case when ${FALLBACK} then null else ${entity} end as list_json`),
        db.raw(`case when ${FALLBACK} then null else ${content} end as content_list_json`),
      );
    }
    if (opts.withVariants) {
      query.select(db.raw(`${VARIANTS_SQL} as variants`));
    }
    const rows = checkedRows<ListRow>(await query, LIST_COLUMNS);
    if (opts.listJson && rows.some((row) => row.list_json != null && !readable(row))) {
      // Pieces of another layout (written before a field or a language was added): the page again from
      // the columns, for those rows. Rare: until such rows are written again.
      const columns = new Map(
        (await catalogueReads.listPage(db, type, eshopId, { ...opts, listJson: false })).map((r) => [
          r.id,
          r,
        ]),
      );
      return rows.flatMap((row) => {
        if (row.list_json == null || readable(row)) return [entityOf(type, opts, row)];
        const again = columns.get(row.id);
        return again ? [{ ...again, listJson: null }] : [];
      });
    }
    return rows.map((row) => entityOf(type, opts, row));
  },

  /**
   * `listPage` with `listJson` for a page whose every row has readable pieces, read as bytes
   * (copy-rows.ts): only the pieces the request sends (`opts.languages`, `opts.outputs`), never
   * decoded, with the list's total (`count`'s; undefined for a page past the end). Undefined
   * when a row of the page must be read from its columns (no pieces, or pieces of another
   * layout): then `listPage` serves the page.
   */
  async listPieces(
    db: Knex,
    type: CatalogueEntityType,
    eshopId: number,
    opts: ListOptions,
  ): Promise<{ rows: ListedPieces[]; total: number | undefined } | undefined> {
    const wanted = piecesWanted(opts);
    const query = pageJoin(db, type, eshopId, opts).select(
      'e.external_id',
      db.raw('e.guid::text'),
      'e.is_visible',
      'e.is_loaded',
      db.raw(`${FALLBACK} as fallback`),
      db.raw(`${entityPiecesSql('e', wanted)} as list_json`),
      db.raw(`${contentPiecesSql('c', wanted)} as content_list_json`),
      db.raw(opts.withVariants ? VARIANTS_JSON_SQL : 'null::text'),
      db.raw(isoMicros('e.created_at')),
      db.raw(isoMicros('e.updated_at')),
      // The list's total in the same statement (computed once: it refers to no row), so a page
      // holds one connection, not two; a page past the end has no row to carry it.
      listWhere(db, type, eshopId, opts, 'n').count('*').as('total'),
    );
    // COPY takes no parameters: the values inlined, as knex quotes them.
    const rows = await copyRows(db, query.toString());
    const out: ListedPieces[] = [];
    let total: number | undefined;
    for (const [
      externalId,
      guid,
      isVisible,
      isLoaded,
      fallback,
      entity,
      content,
      variants,
      created,
      updated,
      count,
    ] of rows) {
      // bigint in COPY's binary format: 8 bytes, big-endian.
      total ??= Number(count!.readBigInt64BE(0));
      // Booleans in COPY's binary format: one byte, 1 for true.
      if (
        fallback![0] === 1 ||
        !readableBytes(entity!, 'entity') ||
        (content !== null && !readableBytes(content!, 'content'))
      ) {
        return undefined;
      }
      out.push({
        externalId: externalId!,
        guid: guid!,
        isVisible: isVisible![0] === 1,
        isLoaded: isLoaded![0] === 1,
        entity: entity!,
        content: content ?? null,
        variants: opts.withVariants ? variants! : null,
        createdAt: created!,
        updatedAt: updated!,
      });
    }
    return { rows: out, total };
  },

  async count(
    db: Knex | Knex.Transaction,
    type: CatalogueEntityType,
    eshopId: number,
    filter: ListFilter,
  ): Promise<number> {
    return countOf(await listWhere(db, type, eshopId, filter).count({ count: '*' }).first());
  },

  /** What one item says (its stored fields), unless it is deleted; no lock (generation material). */
  async findFields(
    db: Knex | Knex.Transaction,
    type: CatalogueEntityType,
    eshopId: number,
    externalId: string,
  ): Promise<Record<string, unknown> | undefined> {
    // Joined on the key (keysFrom): one probe of the unique key, whatever the statistics.
    const found: unknown = await db
      .from(keysFrom(db, eshopId, [externalId]))
      .join(`${ENTITY_TABLES[type].table} as e`, (join) =>
        join.on('e.eshop_id', 'k.eshop_id').andOn('e.external_id', 'x.external_id'),
      )
      .select(columnsOf(type).map((c) => `e.${c}`))
      .where('e.is_delete', false)
      .first();
    return checkedRow<Record<string, unknown>>(found, columnsOf(type));
  },

  /** One item as stored (internal id and fields), unless it is deleted; no lock (generation material). */
  async findEntity(
    db: Knex | Knex.Transaction,
    type: CatalogueEntityType,
    eshopId: number,
    externalId: string,
  ): Promise<StoredEntity | undefined> {
    return (await catalogueReads.findEntities(db, type, eshopId, [externalId])).get(externalId);
  },

  /** `findEntity` of many items in one statement, by external id (deleted and unknown ones absent). */
  async findEntities(
    db: Knex | Knex.Transaction,
    type: CatalogueEntityType,
    eshopId: number,
    externalIds: readonly string[],
  ): Promise<Map<string, StoredEntity>> {
    if (externalIds.length === 0) return new Map();
    const found: unknown[] = await db
      .from(keysFrom(db, eshopId, [...new Set(externalIds)]))
      .join(`${ENTITY_TABLES[type].table} as e`, (join) =>
        join.on('e.eshop_id', 'k.eshop_id').andOn('e.external_id', 'x.external_id'),
      )
      .select(
        ['id', 'external_id', 'status', 'is_visible', 'is_delete', ...columnsOf(type)].map((c) => `e.${c}`),
      )
      .where('e.is_delete', false);
    const rows = checkedRows<
      Pick<Row<EntityTable>, 'id' | 'external_id' | 'status' | 'is_visible'> & Record<string, unknown>
    >(found, ['id', 'external_id', 'status', 'is_visible', ...columnsOf(type)]);
    return new Map(
      rows.map((row) => [
        row.external_id,
        {
          id: row.id,
          externalId: row.external_id,
          status: row.status,
          isVisible: row.is_visible,
          isDelete: false,
          fields: Object.fromEntries(columnsOf(type).map((c) => [c, row[c]])),
        },
      ]),
    );
  },

  /** The names of the given items that exist and are not deleted, by external id. */
  async namesOf(
    db: Knex | Knex.Transaction,
    type: CatalogueEntityType,
    eshopId: number,
    externalIds: readonly string[],
  ): Promise<Map<string, LangMap>> {
    if (externalIds.length === 0) return new Map();
    const rows = await db
      .from(keysFrom(db, eshopId, [...new Set(externalIds)]))
      .join(`${ENTITY_TABLES[type].table} as e`, (join) =>
        join.on('e.eshop_id', 'k.eshop_id').andOn('e.external_id', 'x.external_id'),
      )
      .select('e.external_id', 'e.name')
      .where('e.is_delete', false);
    return new Map(rows.map((r: { external_id: string; name: LangMap }) => [r.external_id, r.name]));
  },
};
