// The same-bytes splice side of the catalogue benchmark's baseline (baseline.ts serves it):
// a plain Koa + pg handler that reads the stored list pieces (`list_json` of the product and
// of its content row, libs/db/src/list-fragments.ts) and splices them into the bytes the
// service answers for `include=nested,marketplace,variant&lang=all`, without parsing them.
//
//   GET /products-splice?eshop=ID&page=N&per_page=100&langs=default,cs,en
import type Koa from 'koa';
import type pg from 'pg';
import { langSlot, LIST_JSON_SLOTS, valueSlot } from '@catalogue/db';

/** The page's rows with their stored pieces, by the deferred join of LIST_SQL. $1 eshop, $2 limit, $3 offset. */
export const SPLICE_LIST_SQL = `select e.external_id, e.guid, e.is_visible, e.is_loaded,
  e.list_json, c.list_json as content_list_json,
  coalesce((select json_agg(json_build_object('code', v.code, 'ean', v.ean) order by v.id)
    from product_variants v where v.eshop_id = e.eshop_id and v.product_id = e.id), '[]'::json) as variant,
  to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at,
  to_char(e.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as updated_at
from (select eshop_id, id from products
       where eshop_id = $1 and status = 'ready' and not is_delete and is_loaded
       order by id limit $2 offset $3) as page
join products e on e.eshop_id = page.eshop_id and e.id = page.id
left join content c on c.eshop_id = e.eshop_id and c.entity_type = 'product' and c.external_id = e.external_id
order by e.id`;

const SPLICE_COUNT_SQL = `select count(*)::int as total from products
  where eshop_id = $1 and status = 'ready' and not is_delete and is_loaded`;

interface SpliceRow {
  external_id: string;
  guid: string;
  is_visible: boolean;
  is_loaded: boolean;
  list_json: string;
  content_list_json: string | null;
  variant: unknown[];
  created_at: string;
  updated_at: string;
}

const ENTITY_FIELDS = ['name', 'short_description', 'description', 'url', 'seo_title', 'seo_description'];

function splicedItem(row: SpliceRow, langs: string[]): string {
  const e = row.list_json.split('\u0001');
  const c = row.content_list_json?.split('\u0001');
  const map = (
    pieces: string[] | undefined,
    kind: 'entity' | 'content',
    field: string,
    absent: string | null,
  ) => {
    const parts: string[] = [];
    for (const lang of langs) {
      const piece = pieces?.[langSlot(kind, field, lang)] || absent;
      if (piece !== null) parts.push(`${JSON.stringify(lang)}:${piece}`);
    }
    return `{${parts.join(',')}}`;
  };
  let out = `{"id":${JSON.stringify(row.external_id)},"guid":${JSON.stringify(row.guid)}`;
  out += `,"is_visible":${row.is_visible},"is_loaded":${row.is_loaded}`;
  for (const field of ENTITY_FIELDS) out += `,"${field}":${map(e, 'entity', field, null)}`;
  out += `,"image_preview":${e[valueSlot('image_preview')]}`;
  out += `,"content":{"html":${map(c, 'content', 'html', '""')}`;
  out += `,"marketplace":${map(c, 'content', 'marketplace', '""')}`;
  out += `,"nested":${c?.[LIST_JSON_SLOTS.nested] || '[]'}}`;
  out += `,"variant":${JSON.stringify(row.variant)}`;
  return `${out},"created_at":"${row.created_at}","updated_at":"${row.updated_at}"}`;
}

/** Answers GET /products-splice. */
export async function spliceList(pool: pg.Pool, ctx: Koa.Context): Promise<void> {
  const eshopId = Number(ctx.query.eshop);
  const page = Number(ctx.query.page ?? 1);
  const perPage = Number(ctx.query.per_page ?? 100);
  const langs = String(ctx.query.langs ?? 'default').split(',');
  const [rows, count] = await Promise.all([
    pool.query<SpliceRow>(SPLICE_LIST_SQL, [eshopId, perPage, (page - 1) * perPage]),
    pool.query<{ total: number }>(SPLICE_COUNT_SQL, [eshopId]),
  ]);
  const meta = { current_page: page, per_page: perPage, total: count.rows[0]?.total };
  ctx.type = 'json';
  ctx.body = `{"data":[${rows.rows.map((row) => splicedItem(row, langs)).join(',')}],"meta":${JSON.stringify(meta)}}`;
}
