import type { Knex } from 'knex';
import { checkedOne, checkedRows, countOf, rawColumn } from '../sql-rows';
import type { ListingRowRow, Row } from '../tables';
import { isoOffset } from '../timestamps';

export type ListingSource = 'feed' | 'research' | 'generated' | 'manual';
export type ListingRowStatus = 'pending' | 'processing' | 'done' | 'failed';

export interface ListingField {
  value: string | string[];
  source: ListingSource;
}

export interface ListingParameter {
  label: string;
  value: string;
  source: ListingSource;
  confidence?: number;
  reference?: string[];
}

export interface ListingRowInput {
  externalId: string;
  field: Record<string, ListingField>;
  parameter: ListingParameter[];
}

export interface ListingRow {
  id: number;
  externalId: string;
  status: ListingRowStatus;
  /** ISO 8601 with a numeric UTC offset, as the specification shows for listing rows. */
  updatedAt: string;
  field: Record<string, ListingField>;
  parameter: ListingParameter[];
}

export interface ListingBatch {
  id: number;
  rowsTotal: number;
  createdAt: string;
}

/** The columns of a listing row as read back, with updated_at formatted by Postgres. */
function rowColumns(db: Knex | Knex.Transaction) {
  return [
    'id',
    'external_id',
    'status',
    'field',
    'parameter',
    db.raw(`${isoOffset('updated_at')} as updated_at`),
  ];
}

type RowOut = Pick<ListingRowRow, 'id' | 'external_id' | 'status' | 'field' | 'parameter'> & {
  updated_at: string;
};

const ROW_OUT = [
  'id',
  'external_id',
  'status',
  'field',
  'parameter',
  'updated_at',
] as const satisfies readonly (keyof RowOut)[];

/** A row read with rowColumns() (checked: its timestamp is computed). */
function toListingRow(raw: unknown): ListingRow {
  const r = checkedOne<RowOut>(raw, ROW_OUT);
  return {
    id: r.id,
    externalId: r.external_id,
    status: r.status,
    updatedAt: r.updated_at,
    field: r.field,
    parameter: r.parameter,
  };
}

function rowsWhere(db: Knex | Knex.Transaction, eshopId: number, batchId: number, updatedSince?: string) {
  const query = db('listing_rows').where({ eshop_id: eshopId, batch_id: batchId });
  if (updatedSince !== undefined) query.andWhere('updated_at', '>', updatedSince);
  return query;
}

export const listingRepository = {
  /** Stores a batch and its rows; returns the batch and the row ids in upload order. */
  async createBatch(
    trx: Knex.Transaction,
    eshopId: number,
    format: 'json' | 'csv',
    rows: ListingRowInput[],
  ): Promise<{ batch: ListingBatch; rowIds: number[] }> {
    const [batch] = checkedRows<Pick<Row<'listing_batches'>, 'id' | 'rows_total'> & { created_at: string }>(
      await trx('listing_batches')
        .insert({ eshop_id: eshopId, format, rows_total: rows.length })
        .returning(['id', 'rows_total', rawColumn(trx, `${isoOffset('created_at')} as created_at`)]),
      ['id', 'rows_total', 'created_at'],
    );
    const rowIds: number[] = [];
    // 1,000 rows of 5 bound values per statement stays far below Postgres's 65,535 parameters.
    for (let start = 0; start < rows.length; start += 1000) {
      const inserted = await trx('listing_rows')
        .insert(
          rows.slice(start, start + 1000).map((r) => ({
            eshop_id: eshopId,
            batch_id: batch!.id,
            external_id: r.externalId,
            field: JSON.stringify(r.field),
            parameter: JSON.stringify(r.parameter),
          })),
        )
        .returning('id');
      rowIds.push(...inserted.map((r) => r.id));
    }
    return { batch: { id: batch!.id, rowsTotal: batch!.rows_total, createdAt: batch!.created_at }, rowIds };
  },

  async batchExists(db: Knex | Knex.Transaction, eshopId: number, batchId: number): Promise<boolean> {
    return Boolean(await db('listing_batches').where({ eshop_id: eshopId, id: batchId }).first('id'));
  },

  async listRows(
    db: Knex | Knex.Transaction,
    eshopId: number,
    batchId: number,
    opts: { page: number; perPage: number; updatedSince?: string },
  ): Promise<ListingRow[]> {
    const rows = await rowsWhere(db, eshopId, batchId, opts.updatedSince)
      .select(rowColumns(db))
      .orderBy('id')
      .limit(opts.perPage)
      .offset((opts.page - 1) * opts.perPage);
    return rows.map((row: unknown) => toListingRow(row));
  },

  /** One row of a batch of the eshop (another eshop's or batch's row id finds nothing). */
  async findRow(
    db: Knex | Knex.Transaction,
    eshopId: number,
    batchId: number,
    rowId: number,
    opts: { lock?: boolean } = {},
  ): Promise<ListingRow | undefined> {
    const query = db('listing_rows')
      .where({ eshop_id: eshopId, batch_id: batchId, id: rowId })
      .select(rowColumns(db))
      .first();
    if (opts.lock) query.forUpdate();
    const row = await query;
    return row ? toListingRow(row) : undefined;
  },

  /** `pending` → `processing` (a row taken over after a crash stays `processing`). */
  async markRowProcessing(
    db: Knex | Knex.Transaction,
    eshopId: number,
    batchId: number,
    rowId: number,
  ): Promise<void> {
    await db('listing_rows')
      .where({ eshop_id: eshopId, batch_id: batchId, id: rowId, status: 'pending' })
      .update({ status: 'processing', updated_at: db.fn.now(6) });
  },

  /** Ends a row: `done` with its enriched fields and parameters, or `failed` with a message. */
  async finishRow(
    db: Knex | Knex.Transaction,
    eshopId: number,
    batchId: number,
    rowId: number,
    outcome:
      | { status: 'done'; field: Record<string, ListingField>; parameter: ListingParameter[] }
      | { status: 'failed'; errorMessage: string },
  ): Promise<void> {
    await db('listing_rows')
      .where({ eshop_id: eshopId, batch_id: batchId, id: rowId })
      .update({
        status: outcome.status,
        ...(outcome.status === 'done'
          ? {
              field: JSON.stringify(outcome.field),
              parameter: JSON.stringify(outcome.parameter),
              error_message: null,
            }
          : { error_message: outcome.errorMessage }),
        updated_at: db.fn.now(6),
      });
  },

  /**
   * Whether the batch has just finished: takes the batch row's lock (so the transactions ending
   * its rows take turns), then counts its rows still pending or processing. Called in the
   * transaction that ended a row, after it: exactly one of them — the one ending the last row —
   * sees none left (each count, taken after the lock, sees every earlier turn's commit). Returns
   * the batch's totals when it has finished, else undefined.
   */
  async finishedBatch(
    trx: Knex.Transaction,
    eshopId: number,
    batchId: number,
  ): Promise<{ rows: number; failed: number } | undefined> {
    await trx('listing_batches').where({ eshop_id: eshopId, id: batchId }).forUpdate().first('id');
    const counts = checkedOne<{ rows: number; failed: number; open: number }>(
      await trx('listing_rows')
        .where({ eshop_id: eshopId, batch_id: batchId })
        .first(
          trx.raw('count(*)::int as rows'),
          trx.raw("(count(*) filter (where status = 'failed'))::int as failed"),
          trx.raw("(count(*) filter (where status in ('pending', 'processing')))::int as open"),
        ),
      ['rows', 'failed', 'open'],
    );
    return counts.open === 0 ? { rows: counts.rows, failed: counts.failed } : undefined;
  },

  async countRows(
    db: Knex | Knex.Transaction,
    eshopId: number,
    batchId: number,
    updatedSince?: string,
  ): Promise<number> {
    return countOf(await rowsWhere(db, eshopId, batchId, updatedSince).count({ count: '*' }).first());
  },
};
