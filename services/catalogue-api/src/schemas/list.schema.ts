import Joi from 'joi';
import { baseComponent, queryList, responseObject } from '@catalogue/http';

const YMD_HIS = 'Y-m-d H:i:s';

/**
 * `Y-m-d H:i:s`, read as UTC; a real calendar time (2026-02-30 is refused). An empty value
 * (`last_update_time_from=`) is the same as none, as for `lang=`.
 */
export const ymdHis = Joi.string()
  .empty('')
  .custom((value: string, helpers) => {
    const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(value);
    if (!match) return helpers.error('date.format', { format: YMD_HIS });
    const [y, mo, d, h, mi, s] = [
      Number(match[1]),
      Number(match[2]),
      Number(match[3]),
      Number(match[4]),
      Number(match[5]),
      Number(match[6]),
    ];
    const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
    const same =
      date.getUTCFullYear() === y &&
      date.getUTCMonth() === mo - 1 &&
      date.getUTCDate() === d &&
      date.getUTCHours() === h &&
      date.getUTCMinutes() === mi &&
      date.getUTCSeconds() === s;
    return same ? date.toISOString() : helpers.error('date.format', { format: YMD_HIS });
  });

/** `true`/`1`, `false`/`0`; an empty value (`is_edited=`) is the same as none. */
const flag = Joi.boolean().truthy('1').falsy('0').empty('');
const page = Joi.number().integer().min(1).max(1_000_000).default(1);

export interface V2ListQuery {
  page: number;
  per_page: number;
  is_edited: boolean;
  last_update_time_from?: string;
  /** Either form of the list (comma-separated, repeated, mixed): see queryList. */
  include?: string[];
  lang?: string[];
}

export type V1ListQuery = Omit<V2ListQuery, 'include' | 'lang' | 'is_edited'> & { is_edited?: boolean };

export interface ListingQuery {
  page: number;
  per_page: number;
  updated_since?: string;
}

/** Query of v2 lists; unknown parameters are ignored (cache busters and the like). */
export const v2ListQuery = Joi.object<V2ListQuery, true>({
  page,
  per_page: Joi.number().integer().min(1).max(100).default(100),
  is_edited: flag.default(true),
  last_update_time_from: ymdHis,
  include: queryList(),
  lang: queryList(),
}).unknown(true);

/** Query of v1 lists: is_edited omitted means all items. */
export const v1ListQuery = Joi.object<V1ListQuery, true>({
  page,
  per_page: Joi.number().integer().min(1).max(100).default(100),
  is_edited: flag,
  last_update_time_from: ymdHis,
}).unknown(true);

export const listingQuery = Joi.object<ListingQuery, true>({
  page,
  per_page: Joi.number().integer().min(1).max(200).default(200),
  updated_since: ymdHis,
}).unknown(true);

export const batchParams = Joi.object<{ batch_id: number }, true>({
  batch_id: Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER).required(),
});

export interface ChangesQuery {
  after?: string;
  limit: number;
}

/**
 * Query of the change feed. `after` is checked as a cursor by the service (a malformed one is
 * 400 `cursor_invalid`); here only its length, so no request sends a long string further.
 */
export const changesQuery = Joi.object<ChangesQuery, true>({
  after: Joi.string().allow('').max(64),
  limit: Joi.number().integer().min(1).max(1_000).default(100),
}).unknown(true);

/** GET /changes 200: one page of the change feed. */
export const changesResponse = responseObject({
  data: Joi.array().items(baseComponent('ChangeEvent')),
  next_cursor: Joi.string().min(1),
  has_more: Joi.boolean(),
});

/** `meta` of a v2 list page (and of the listing's pages). */
export const v2ListMeta = responseObject({
  current_page: Joi.number().integer().min(1),
  per_page: Joi.number().integer().min(1),
  total: Joi.number().integer().min(0),
}).id('V2ListMeta');

/** `meta` of a v1 list page. */
export const v1ListMeta = responseObject({
  current_page: Joi.number().integer().min(1),
  from: Joi.number().integer().min(0),
  last_page: Joi.number().integer().min(1),
  per_page: Joi.number().integer().min(1),
  to: Joi.number().integer().min(0),
  total: Joi.number().integer().min(0),
})
  .description(
    '`from` and `to` are the 1-based positions of the first and last item of the page (both 0 on\n' +
      'an empty page); `last_page` is at least 1.\n',
  )
  .id('V1ListMeta');

/** GET /api/v2/rest/<entity> 200: one page of items (list-items.schema.ts). */
export function v2ListResponse(item: Joi.Schema) {
  return responseObject({ data: Joi.array().items(item), meta: v2ListMeta });
}

/** GET /api/v1/<entity>/list 200: the items under the entity's plural name. */
export function v1ListResponse(key: 'products' | 'categories', item: Joi.Schema) {
  return responseObject({ [key]: Joi.array().items(item), meta: v1ListMeta });
}
