import type { Knex } from 'knex';
import { keysFrom } from './tenant-keys';

export interface ParameterWrite {
  externalId: number;
  name: string;
}

export interface ParameterValueWrite {
  parameterExternalId: number;
  externalId: number;
  value: string;
}

export interface UpsertCounts {
  inserted: number;
  updated: number;
}

function countInserted(rows: { inserted: boolean }[]): UpsertCounts {
  const inserted = rows.filter((r) => r.inserted).length;
  return { inserted, updated: rows.length - inserted };
}

/** A parameter row the upsert wrote, and whether it inserted it (`xmax = 0`). */
export interface WrittenParameter {
  externalId: number;
  inserted: boolean;
}

export interface ParameterWithValues {
  id: number;
  name: string;
  values: string[];
}

export const parametersRepository = {
  /**
   * Creates or updates parameters and then their values, in two multi-row statements.
   * `xmax = 0` is true exactly for rows the statement inserted, which tells new from existing.
   * Every sent parameter is written (its name set again), so `written` lists them all.
   */
  async upsert(
    trx: Knex.Transaction,
    eshopId: number,
    parameters: ParameterWrite[],
    values: ParameterValueWrite[],
  ): Promise<{ parameters: UpsertCounts; values: UpsertCounts; written: WrittenParameter[] }> {
    if (!parameters.length) return { parameters: countInserted([]), values: countInserted([]), written: [] };
    // Rows in id order, so concurrent imports of the same parameters lock them in the same order.
    const sortedParameters = [...parameters].sort((a, b) => a.externalId - b.externalId);
    const written = await trx('parameters')
      .insert(sortedParameters.map((p) => ({ eshop_id: eshopId, external_id: p.externalId, name: p.name })))
      .onConflict(['eshop_id', 'external_id'])
      .merge({ name: trx.raw('excluded.name'), updated_at: trx.fn.now(6) })
      .returning<{ id: number; external_id: number; inserted: boolean }[]>([
        'id',
        'external_id',
        trx.raw('(xmax = 0) as inserted') as unknown as string,
      ]);
    const internalId = new Map(written.map((p) => [p.external_id, p.id]));
    const valueRows = [...values]
      .sort((a, b) => a.parameterExternalId - b.parameterExternalId || a.externalId - b.externalId)
      .map((v) => ({
        eshop_id: eshopId,
        parameter_id: internalId.get(v.parameterExternalId),
        external_id: v.externalId,
        value: v.value,
      }));
    const writtenValues: { inserted: boolean }[] = [];
    // 5,000 rows of 4 bound values stay below Postgres's 65,535 parameters per statement.
    for (let start = 0; start < valueRows.length; start += 5_000) {
      writtenValues.push(
        ...(await trx('parameter_values')
          .insert(valueRows.slice(start, start + 5_000))
          .onConflict(['eshop_id', 'parameter_id', 'external_id'])
          .merge({ value: trx.raw('excluded.value'), updated_at: trx.fn.now(6) })
          .returning<{ inserted: boolean }[]>([trx.raw('(xmax = 0) as inserted') as unknown as string])),
      );
    }
    return {
      parameters: countInserted(written),
      values: countInserted(writtenValues),
      written: written.map((p) => ({ externalId: p.external_id, inserted: p.inserted })),
    };
  },

  async existingIds(
    db: Knex | Knex.Transaction,
    eshopId: number,
    externalIds: number[],
  ): Promise<Set<number>> {
    if (!externalIds.length) return new Set();
    // Joined on the keys: an index probe per id whatever the statistics say (keysFrom).
    const rows = await db
      .from(keysFrom(db, eshopId, externalIds, { column: 'external_id', type: 'bigint' }))
      .join('parameters as p', (join) =>
        join.on('p.eshop_id', 'k.eshop_id').andOn('p.external_id', 'x.external_id'),
      )
      .select<{ external_id: number }[]>('p.external_id');
    return new Set(rows.map((r) => r.external_id));
  },
};
