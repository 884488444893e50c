// The bare baseline of the catalogue benchmark, run as its own process like the service:
// Koa, the same JSON body parser, one pg Pool of the service's default size, and the SQL of
// baseline-sql.ts. No auth, no validation, no queue.
//
//   GET  /products?eshop=ID&page=N&per_page=100&langs=default,cs,en
//        the v2 product list with include=nested,marketplace,variant and lang=all, answered with
//        the bytes the service answers (checked before every run): the fastest SQL found
//        (deferred join, index-only count, in parallel) and a hand-written shaping loop
//   GET  /products-splice?eshop=ID&page=N&per_page=100&langs=default,cs,en
//        the same list and bytes, spliced from the stored list pieces (baseline-splice.ts)
//   POST /products?eshop=ID                       one multi-row upsert of the items of the body
//   GET  /readyz                                  select 1
import { Readable } from 'node:stream';
import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import pg from 'pg';
import { entityListJson } from '@catalogue/db';
import {
  COUNT_SQL,
  LIST_SQL,
  UPSERT_COLUMNS,
  upsertSql,
  VARIANTS_DELETE_SQL,
  VARIANTS_INSERT_SQL,
} from './baseline-sql';
import { listenAsTheService } from './baseline-listen';
import { spliceList } from './baseline-splice';

// As createKnex does for the service: COUNT(*) and bigint ids as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

type Item = Record<string, unknown> & { id: string };

const JSON_COLUMNS = new Set(['categories_ids', 'images', 'parameters_ids', 'parameter_values']);
const LANG_COLUMNS = new Set([
  'description',
  'name',
  'seo_description',
  'seo_title',
  'short_description',
  'url',
]);

/** The row catalogueRepository.upsert writes for a new or changed item (status `generate`). */
function rowValues(eshopId: number, item: Item): unknown[] {
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
        // The list's pieces the service writes with every row (a new item's fields are the item's).
        return entityListJson('product', item);
      default:
        if (JSON_COLUMNS.has(column)) return JSON.stringify(item[column] ?? []);
        if (LANG_COLUMNS.has(column)) return JSON.stringify(item[column] ?? {});
        return item[column] ?? null;
    }
  });
}

type LangMap = Record<string, unknown>;

interface ListRow {
  external_id: string;
  guid: string;
  is_visible: boolean;
  is_loaded: boolean;
  name: LangMap;
  short_description: LangMap;
  description: LangMap;
  url: LangMap;
  seo_title: LangMap;
  seo_description: LangMap;
  image_preview: string | null;
  html: LangMap | null;
  marketplace: LangMap | null;
  nested: unknown[] | null;
  variant: unknown[];
  created_at: string;
  updated_at: string;
}

/** The languages of `map` that hold a string, in `langs` order. */
function present(map: LangMap, langs: string[]): LangMap {
  const out: LangMap = {};
  for (const lang of langs) if (typeof map[lang] === 'string') out[lang] = map[lang];
  return out;
}

/** Every language of `langs`, '' where `map` has none. */
function every(map: LangMap | null, langs: string[]): LangMap {
  const out: LangMap = {};
  for (const lang of langs) out[lang] = map?.[lang] ?? '';
  return out;
}

function item(row: ListRow, langs: string[]) {
  return {
    id: row.external_id,
    guid: row.guid,
    is_visible: row.is_visible,
    is_loaded: row.is_loaded,
    name: present(row.name, langs),
    short_description: present(row.short_description, langs),
    description: present(row.description, langs),
    url: present(row.url, langs),
    seo_title: present(row.seo_title, langs),
    seo_description: present(row.seo_description, langs),
    image_preview: row.image_preview ?? '',
    content: {
      html: every(row.html, langs),
      marketplace: every(row.marketplace, langs),
      nested: row.nested ?? [],
    },
    variant: row.variant,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * BASELINE_STREAM=1: the body in chunks of about 32 KB as the service sends its lists
 * (libs/http jsonStream), the same bytes; otherwise one JSON.stringify by Koa, as a minimal
 * handler does.
 */
function chunked(body: { data: unknown[]; meta: unknown }): Readable {
  function* chunks(): Generator<string> {
    let out = '{"data":[';
    for (let i = 0; i < body.data.length; i++) {
      out += `${i ? ',' : ''}${JSON.stringify(body.data[i])}`;
      if (out.length >= 32 * 1024) {
        yield out;
        out = '';
      }
    }
    yield `${out}],"meta":${JSON.stringify(body.meta)}}`;
  }
  return Readable.from(chunks(), { objectMode: false });
}

export function createBaselineApp(pool: pg.Pool, bodyLimit: string, stream = false): Koa {
  const app = new Koa();
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: bodyLimit, strict: true }));
  app.use(async (ctx) => {
    const eshopId = Number(ctx.query.eshop);
    if (ctx.method === 'GET' && ctx.path === '/products') {
      const page = Number(ctx.query.page ?? 1);
      const perPage = Number(ctx.query.per_page ?? 100);
      const langs = String(ctx.query.langs ?? 'default').split(',');
      const [rows, count] = await Promise.all([
        pool.query<ListRow>(LIST_SQL, [eshopId, perPage, (page - 1) * perPage]),
        pool.query<{ total: number }>(COUNT_SQL, [eshopId]),
      ]);
      const body = {
        data: rows.rows.map((row) => item(row, langs)),
        meta: { current_page: page, per_page: perPage, total: count.rows[0]?.total },
      };
      if (stream) ctx.type = 'json';
      ctx.body = stream ? chunked(body) : body;
    } else if (ctx.method === 'GET' && ctx.path === '/products-splice') {
      await spliceList(pool, ctx);
    } else if (ctx.method === 'POST' && ctx.path === '/products') {
      // Sorted by external id, as the service sorts its writes.
      const items = [...(ctx.request.body as Item[])].sort((a, b) =>
        a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
      );
      // One transaction, as the service's: the rows, then their variants (equal work: the
      // service replaces the variants of every product it updates and inserts the new ones).
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await client.query<{ id: string; external_id: string; inserted: boolean }>(
          upsertSql(items.length),
          items.flatMap((item) => rowValues(eshopId, item)),
        );
        const ids = new Map(result.rows.map((r) => [r.external_id, r]));
        const updated = result.rows.filter((r) => !r.inserted).map((r) => r.id);
        if (updated.length) await client.query(VARIANTS_DELETE_SQL, [eshopId, updated]);
        const variants = items.flatMap((item) =>
          ((item.variant as Array<{ code: string; ean: string | null }> | undefined) ?? []).map((v) => ({
            productId: ids.get(item.id)!.id,
            ...v,
          })),
        );
        if (variants.length) {
          await client.query(VARIANTS_INSERT_SQL, [
            eshopId,
            variants.map((v) => v.productId),
            variants.map((v) => v.code),
            variants.map((v) => v.ean),
          ]);
        }
        await client.query('commit');
        ctx.body = { success: true, written: result.rowCount };
      } catch (err) {
        await client.query('rollback');
        throw err;
      } finally {
        client.release();
      }
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
    application_name: 'baseline',
  });
  const stop = listenAsTheService(
    createBaselineApp(pool, '5mb', process.env.BASELINE_STREAM === '1').callback(),
    Number(process.env.PORT),
    () => void pool.end().then(() => process.exit(0)),
  );
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (require.main === module) main();
