// Everything eshop A can read back, hashed part by part: both APIs' reads as A's own clients see
// them, and A's stored rows. Two snapshots are equal only if no byte A can see has changed.
import { createHash } from 'node:crypto';
import type { Knex } from '@catalogue/db';
import { TENANT_TABLES_WITH_IDS, WL, type SeededEshop } from '../fuzz/dataset';

const V2_INCLUDES: Record<string, string> = {
  products: 'nested,marketplace,site_link,rich_snippet,variant',
  categories: 'nested,marketplace,rich_snippet',
  brands: 'nested,marketplace,site_link,rich_snippet',
  blogs: 'nested,marketplace,site_link,rich_snippet',
};

const ENTITIES = [
  ['P1', 'product'],
  ['C1', 'category'],
  ['PAGE1', 'page'],
] as const;

/** Tenant tables read row by row (every column) for A's `eshop_id`. */
const TABLES = [
  ...TENANT_TABLES_WITH_IDS,
  'content',
  'content_drafts',
  'credit_accounts',
  'credit_ledger',
  'events',
  'event_sequences',
];

export interface ReadBackTarget {
  eshop: SeededEshop;
  /** A's listing batch, bulk generation and favourites, found at arrangement (ids do not change). */
  batchId: number;
  generationBatchId: number;
  favouriteIds: number[];
}

const hash = (text: string) => createHash('sha256').update(text).digest('base64url');

/** Part name -> hash of what A reads there (status and exact body text, or rows). */
export async function readBack(db: Knex, target: ReadBackTarget): Promise<Record<string, string>> {
  const { eshop } = target;
  const paths: string[] = [
    // Every item of A is rendered (is_loaded, so `is_edited=true`): an item that leaves this list
    // or a row that appears unlisted changes the list or A's rows below.
    ...Object.entries(V2_INCLUDES).map(
      ([type, include]) => `/api/v2/rest/${type}?lang=all&include=${include}&per_page=100`,
    ),
    '/api/v1/products/list',
    '/api/v1/categories/list',
    `/api/v2/rest/listing/${target.batchId}/product`,
    // A's change feed: nothing B does may add, move or remove an event of A.
    '/api/v2/rest/changes?limit=1000',
    `${WL}/entity?per_page=100`,
    ...ENTITIES.flatMap(([id, type]) => [
      `${WL}/content/${id}/type/${type}?lang=cs`,
      `${WL}/entity/${id}/type/${type}/html`,
      `${WL}/content/${id}/type/${type}/draft`,
    ]),
    // A job B could start for A shows in A's generation_jobs rows; A's own job is read here.
    `${WL}/content/C1/type/category/generate`,
    `${WL}/widget-favourite`,
    ...target.favouriteIds.map((id) => `${WL}/widget-favourite/${id}`),
    `${WL}/generate/${eshop.jobId}`,
    `${WL}/credit`,
    `${WL}/design`,
    // A's bulk generation through both APIs: B's pause, resume or cancel of it must change nothing.
    '/api/v2/rest/generation-batches',
    `/api/v2/rest/generation-batches/${target.generationBatchId}`,
    `${WL}/generation-batch`,
    `${WL}/generation-batch/${target.generationBatchId}`,
  ];
  const reads = paths.map(async (path) => {
    const { status, body } = await eshop.call('GET', path);
    return [`GET ${path}`, hash(`${status} ${JSON.stringify(body)}`)] as const;
  });
  const rows = TABLES.map(async (table) => {
    const found = await db(table).where({ eshop_id: eshop.eshop.id }).select('*');
    // Sorted here: not every table has a unique first column to order by.
    const texts = found.map((row: unknown) => JSON.stringify(row)).sort();
    return [`table ${table}`, hash(texts.join('\n'))] as const;
  });
  return Object.fromEntries(await Promise.all([...reads, ...rows]));
}

/** The parts whose hashes differ (empty when A reads back the same). */
export function changedParts(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((part) => before[part] !== after[part]);
}
