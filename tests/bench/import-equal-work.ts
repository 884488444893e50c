// The equal-work import handler of the catalogue benchmark, run as its own process like the
// service: Koa, the same JSON body parser, one pg Pool of the service's default size, and for a
// v2 import of new products exactly the statements the service sends, each once, with the same
// text and values (checked before every run against the service's code: checkEqualWork) — the
// parameter lookup, the locking read, the upsert, the parameter links, the variants, the events
// append, in one transaction with the service's BEGIN — and after the commit the one render job
// (addFair, as the service queues it). No auth, no limiter, no validation, no knex, no logging.
// New products only: an item that exists fails the request (the benchmark imports new ids).
//
//   POST /products?eshop=ID   the import of the body's items
//   GET  /readyz              select 1
import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import pg from 'pg';
import { entityListJson } from '@catalogue/db';
import { addFair, createQueues, createRedis, type QueueOf } from '@catalogue/queue';
import { listenAsTheService } from './baseline-listen';
import { UPSERT_COLUMNS, upsertSql } from './baseline-sql';
import { SERVICE_STATEMENT_TIMEOUT_MS } from './import-capture';

// As createKnex does for the service: bigint ids as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

/** What the handler needs of a pg client (a pool's client; the check records what it sends). */
export interface Queryable {
  query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

interface Pair {
  parameter_id: number;
  value_ids: number[];
}
export type EqualWorkItem = Record<string, unknown> & {
  id: string;
  parameter_values?: Pair[];
  variant?: { code: string; ean?: string | null }[];
};

const BEGIN_SQL = `BEGIN; SET LOCAL statement_timeout = ${SERVICE_STATEMENT_TIMEOUT_MS}`;
const KEYS = (type: 'bigint' | 'text') =>
  `unnest(array[$1::integer]) as k(eshop_id) cross join unnest($2::${type}[]) as x(external_id)`;
const PARAMETERS_SQL = `select "p"."id", "p"."external_id" from ${KEYS('bigint')} inner join "parameters" as "p" on "p"."eshop_id" = "k"."eshop_id" and "p"."external_id" = "x"."external_id"`;
const VALUES_SQL = `select "v"."id", "v"."external_id", "v"."parameter_id", "p"."external_id" as "parameter_external_id" from ${KEYS('bigint')} inner join "parameter_values" as "v" on "v"."eshop_id" = "k"."eshop_id" and "v"."external_id" = "x"."external_id" inner join "parameters" as "p" on "p"."eshop_id" = "v"."eshop_id" and "p"."id" = "v"."parameter_id" order by "v"."external_id" asc, "p"."external_id" asc`;
const LOCK_SQL = `select "e"."id", "e"."external_id", "e"."status", "e"."is_visible", "e"."is_delete", "e"."name", "e"."short_description", "e"."description", "e"."url", "e"."seo_title", "e"."seo_description", "e"."images", "e"."brand_id", "e"."categories_ids", "e"."parameters_ids", "e"."parameter_values", coalesce((select json_agg(json_build_object('code', v.code, 'ean', v.ean) order by v.id)
             from product_variants v where v.eshop_id = e.eshop_id and v.product_id = e.id), '[]'::json) as variants from ${KEYS('text')} inner join "products" as "e" on "e"."eshop_id" = "k"."eshop_id" and "e"."external_id" = "x"."external_id" order by "e"."id" asc for update of "e"`;
const LINKS_SQL = `insert into product_parameter_values (eshop_id, product_id, position, parameter_id, value_id)
       select $1::integer, product_id, position, parameter_id, value_id
       from unnest($2::bigint[], $3::integer[], $4::bigint[], $5::bigint[]) as r(product_id, position, parameter_id, value_id)`;
const VARIANTS_SQL = `insert into product_variants (eshop_id, product_id, code, ean)
       select $1::integer, p, c, e from unnest($2::bigint[], $3::text[], $4::text[]) as v(p, c, e)`;
const EVENTS_SQL = `with block as materialized (select nextval('events_provisional_seq') as b)
       insert into events (eshop_id, seq, type, entity_type, external_id, data, traceparent)
       select $1, -(block.b * 1000000 + e.ord), e.value->>'type', e.value->>'entity_type',
              e.value->>'external_id', e.value->'data', $2::text
       from block, jsonb_array_elements($3::jsonb) with ordinality as e(value, ord)`;

/** The service's upsert of `rows` products with its `updateOnly` guard (an empty list: new rows). */
export function equalWorkUpsertSql(rows: number): string {
  return upsertSql(rows).replace(
    ' returning ',
    ` where "products".id = any($${rows * UPSERT_COLUMNS.length + 1}::bigint[]) returning `,
  );
}

const LANG_FIELDS = ['name', 'short_description', 'description', 'url', 'seo_title', 'seo_description'];
const DATA_DEFAULTS: Record<string, unknown> = {
  images: [],
  brand_id: null,
  categories_ids: [],
  parameters_ids: [],
  parameter_values: [],
};

/** A new product's stored fields, as the service merges them with nothing stored. */
function fieldsOf(item: EqualWorkItem): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const field of LANG_FIELDS) fields[field] = { ...((item[field] as object | undefined) ?? {}) };
  for (const [field, empty] of Object.entries(DATA_DEFAULTS)) {
    const sent = item[field];
    fields[field] = sent !== undefined ? (sent === '' ? null : sent) : empty;
  }
  return fields;
}

function rowValues(eshopId: number, item: EqualWorkItem, fields: Record<string, unknown>): unknown[] {
  return UPSERT_COLUMNS.map((column) => {
    switch (column) {
      case 'eshop_id':
        return eshopId;
      case 'external_id':
        return item.id;
      case 'is_delete':
        return false;
      case 'is_visible':
        return item.is_visible ?? true;
      case 'status':
        return 'generate';
      case 'list_json':
        return entityListJson('product', fields);
      case 'brand_id':
        return fields.brand_id ?? null;
      default:
        return JSON.stringify(fields[column]);
    }
  });
}

export interface EqualWorkAnswer {
  success: boolean;
  imported: number;
  updated: number;
  skipped: number;
  errors: unknown[];
}

/**
 * The import's transaction on `client`: the service's statements once each. Returns the answer
 * and the ids to render; `commit: false` rolls back (the statement check).
 */
export async function importEqualWork(
  client: Queryable,
  eshopId: number,
  items: EqualWorkItem[],
  commit = true,
): Promise<{ answer: EqualWorkAnswer; toRender: string[] }> {
  await client.query(BEGIN_SQL);
  try {
    const parameterIds = new Set<number>();
    const valueIds = new Set<number>();
    for (const item of items) {
      for (const pair of item.parameter_values ?? []) {
        parameterIds.add(pair.parameter_id);
        for (const id of pair.value_ids) valueIds.add(id);
      }
    }
    const parameters = new Map<number, number>();
    const values = new Map<number, { id: number; parameterId: number }[]>();
    if (parameterIds.size) {
      const { rows } = await client.query<{ id: number; external_id: number }>(PARAMETERS_SQL, [
        eshopId,
        [...parameterIds],
      ]);
      for (const r of rows) parameters.set(Number(r.external_id), r.id);
    }
    if (valueIds.size) {
      const { rows } = await client.query<{ id: number; external_id: number; parameter_id: number }>(
        VALUES_SQL,
        [eshopId, [...valueIds]],
      );
      for (const r of rows) {
        const key = Number(r.external_id);
        const list = values.get(key) ?? [];
        list.push({ id: r.id, parameterId: r.parameter_id });
        values.set(key, list);
      }
    }
    const locked = await client.query(LOCK_SQL, [eshopId, items.map((item) => item.id)]);
    if (locked.rowCount) throw new Error('the equal-work handler imports new products only');

    const sorted = [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const fields = new Map(sorted.map((item) => [item.id, fieldsOf(item)]));
    const written = await client.query<{ id: number; external_id: string; inserted: boolean }>(
      equalWorkUpsertSql(sorted.length),
      [...sorted.flatMap((item) => rowValues(eshopId, item, fields.get(item.id)!)), []],
    );
    const ids = new Map(written.rows.map((r) => [r.external_id, r.id]));

    const links = {
      product: [] as number[],
      position: [] as number[],
      parameter: [] as number[],
      value: [] as (number | null)[],
    };
    for (const item of sorted) {
      const seen = new Set<string>();
      for (const pair of (fields.get(item.id)!.parameter_values as Pair[]) ?? []) {
        const parameter = parameters.get(pair.parameter_id);
        if (parameter === undefined) continue;
        for (const valueId of pair.value_ids) {
          const value = (values.get(valueId) ?? []).find((v) => v.parameterId === parameter);
          const key = `${parameter}:${value?.id ?? ''}`;
          if (!value || seen.has(key)) continue;
          seen.add(key);
          links.product.push(ids.get(item.id)!);
          links.position.push(seen.size);
          links.parameter.push(parameter);
          links.value.push(value.id);
        }
      }
    }
    if (links.product.length) {
      await client.query(LINKS_SQL, [eshopId, links.product, links.position, links.parameter, links.value]);
    }
    const variants = items.flatMap((item) =>
      (item.variant ?? []).map((v) => ({
        product: ids.get(item.id)!,
        code: v.code,
        ean: v.ean ? v.ean : null,
      })),
    );
    if (variants.length) {
      await client.query(VARIANTS_SQL, [
        eshopId,
        variants.map((v) => v.product),
        variants.map((v) => v.code),
        variants.map((v) => v.ean),
      ]);
    }
    await client.query(EVENTS_SQL, [
      eshopId,
      null,
      JSON.stringify(
        written.rows.map((r) => ({
          type: r.inserted ? 'item.created' : 'item.updated',
          entity_type: 'product',
          external_id: r.external_id,
          data: {},
        })),
      ),
    ]);
    await client.query(commit ? 'COMMIT' : 'ROLLBACK');
    return {
      answer: { success: true, imported: written.rowCount ?? 0, updated: 0, skipped: 0, errors: [] },
      toRender: items.map((item) => item.id),
    };
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  }
}

export function createEqualWorkApp(pool: pg.Pool, renders: QueueOf<'render-content'>): Koa {
  const app = new Koa();
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: '5mb', strict: true }));
  app.use(async (ctx) => {
    if (ctx.method === 'POST' && ctx.path === '/products') {
      const eshopId = Number(ctx.query.eshop);
      const client = await pool.connect();
      let done;
      try {
        done = await importEqualWork(client, eshopId, ctx.request.body as EqualWorkItem[]);
      } finally {
        client.release();
      }
      await addFair(renders, 'render-content', [
        { data: { eshop_id: eshopId, entity_type: 'product', external_ids: done.toRender } },
      ]);
      ctx.body = done.answer;
    } else if (ctx.method === 'GET' && ctx.path === '/readyz') {
      await pool.query('select 1');
      ctx.body = { status: 'ready' };
    }
  });
  return app;
}

function main(): void {
  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL,
    max: 10,
    application_name: 'import-equal-work',
  });
  const redis = createRedis(process.env.REDIS_URL!, 'import-equal-work');
  const queues = createQueues(redis, process.env.QUEUE_PREFIX!);
  const stop = listenAsTheService(
    createEqualWorkApp(pool, queues['render-content']).callback(),
    Number(process.env.PORT),
    () => void pool.end().then(() => redis.quit().then(() => process.exit(0))),
  );
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (require.main === module) main();
