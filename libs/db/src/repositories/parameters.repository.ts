import type { Knex } from 'knex';
import { checkedRows, compiledOnce, insertedColumn } from '../sql-rows';
import type { Row } from '../tables';
import { keysFrom, type TenantKey } from './tenant-keys';

/** A value found by lookup(): its keys and its parameter's external id. */
type ValueLookupRow = Pick<Row<'parameter_values'>, 'id' | 'external_id' | 'parameter_id'> & {
  parameter_external_id: Row<'parameters'>['external_id'];
};

export interface ParameterWrite {
  externalId: number;
  name: string;
  /** Names per language (`name_translations`); undefined keeps the stored ones. */
  nameTranslations?: Record<string, string>;
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

/** The internal id of a parameter the same upsert wrote (its values name it by external id). */
function idOf(internalId: Map<number, number>, externalId: number): number {
  const id = internalId.get(externalId);
  if (id === undefined) throw new Error(`parameter value names parameter ${externalId}, not in the upsert`);
  return id;
}

/** A parameter row the upsert wrote, and whether it inserted it (`xmax = 0`). */
export interface WrittenParameter {
  externalId: number;
  inserted: boolean;
}

/**
 * A parameter as a product shows it: only the values linked to that product (a parameter with no
 * linked value is not listed at all), in value-id order.
 */
export interface ParameterWithValues {
  id: number;
  name: string;
  values: string[];
  /** The parameter's names per language, when it has any (`name` is the default). */
  names?: Record<string, string>;
}

/** What an id names in an eshop: a parameter, and values of parameters (internal ids). */
export interface ParameterLookup {
  /** Internal id by parameter external id. */
  parameters: Map<number, number>;
  /** Values by value external id: each with its internal id and its parameter's ids. */
  values: Map<number, { id: number; parameterId: number; parameterExternalId: number }[]>;
}

/** A stored parameter as stored(): its names and its values by external id. */
export interface StoredParameter {
  name: string;
  nameTranslations: Record<string, string>;
  values: Map<number, string>;
}

const BY_EXTERNAL_ID: TenantKey = { column: 'external_id', type: 'bigint' };

/** lookup()'s statements, compiled once (values: the eshop id, the deduplicated external ids). */
const PARAMETER_LOOKUP = compiledOnce((db) =>
  db
    .from(keysFrom(db, 0, [0], BY_EXTERNAL_ID))
    .join('parameters as p', (join) =>
      join.on('p.eshop_id', 'k.eshop_id').andOn('p.external_id', 'x.external_id'),
    )
    .select('p.id', 'p.external_id'),
);
const VALUE_LOOKUP = compiledOnce((db) =>
  db
    .from(keysFrom(db, 0, [0], BY_EXTERNAL_ID))
    .join('parameter_values as v', (join) =>
      join.on('v.eshop_id', 'k.eshop_id').andOn('v.external_id', 'x.external_id'),
    )
    .join('parameters as p', (join) => join.on('p.eshop_id', 'v.eshop_id').andOn('p.id', 'v.parameter_id'))
    .orderBy(['v.external_id', 'p.external_id'])
    .select('v.id', 'v.external_id', 'v.parameter_id', 'p.external_id as parameter_external_id'),
);

export const parametersRepository = {
  /**
   * The stored names and values of the given parameters, locking the parameter rows (FOR UPDATE,
   * in id order like upsert): an upsert later in the same transaction then meets exactly these
   * rows, and no value of them can be added in between (that takes a key-share lock on the
   * parameter). For a dry run's summary, which tells unchanged parameters from updated ones.
   */
  async stored(
    trx: Knex.Transaction,
    eshopId: number,
    externalIds: readonly number[],
  ): Promise<Map<number, StoredParameter>> {
    const found = new Map<number, StoredParameter>();
    if (!externalIds.length) return found;
    const parameters = checkedRows<
      Pick<Row<'parameters'>, 'id' | 'external_id' | 'name' | 'name_translations'>
    >(
      await trx
        .from(
          keysFrom(
            trx,
            eshopId,
            [...externalIds].sort((a, b) => a - b),
            { column: 'external_id', type: 'bigint' },
          ),
        )
        .join('parameters as p', (join) =>
          join.on('p.eshop_id', 'k.eshop_id').andOn('p.external_id', 'x.external_id'),
        )
        .orderBy('p.external_id')
        .forUpdate('p')
        .select('p.id', 'p.external_id', 'p.name', 'p.name_translations'),
      ['id', 'external_id', 'name', 'name_translations'],
    );
    if (!parameters.length) return found;
    const byId = new Map<number, StoredParameter>();
    for (const p of parameters) {
      const entry: StoredParameter = {
        name: p.name,
        nameTranslations: p.name_translations ?? {},
        values: new Map(),
      };
      found.set(Number(p.external_id), entry);
      byId.set(Number(p.id), entry);
    }
    const values = checkedRows<Pick<Row<'parameter_values'>, 'parameter_id' | 'external_id' | 'value'>>(
      await trx
        .from(keysFrom(trx, eshopId, [...byId.keys()], { column: 'parameter_id', type: 'bigint' }))
        .join('parameter_values as v', (join) =>
          join.on('v.eshop_id', 'k.eshop_id').andOn('v.parameter_id', 'x.parameter_id'),
        )
        .select('v.parameter_id', 'v.external_id', 'v.value'),
      ['parameter_id', 'external_id', 'value'],
    );
    for (const v of values) byId.get(Number(v.parameter_id))!.values.set(Number(v.external_id), v.value);
    return found;
  },

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
    const written = checkedRows<Pick<Row<'parameters'>, 'id' | 'external_id'> & { inserted: boolean }>(
      await trx('parameters')
        .insert(
          sortedParameters.map((p) => ({
            eshop_id: eshopId,
            external_id: p.externalId,
            name: p.name,
            // Not sent: an empty map on insert, the stored one kept on update (coalesce below).
            name_translations: p.nameTranslations === undefined ? null : JSON.stringify(p.nameTranslations),
          })),
        )
        .onConflict(['eshop_id', 'external_id'])
        .merge({
          name: trx.raw('excluded.name'),
          name_translations: trx.raw('coalesce(excluded.name_translations, parameters.name_translations)'),
          updated_at: trx.fn.now(6),
        })
        .returning(['id', 'external_id', insertedColumn(trx)]),
      ['id', 'external_id', 'inserted'],
    );
    const internalId = new Map(written.map((p) => [p.external_id, p.id]));
    const valueRows = [...values]
      .sort((a, b) => a.parameterExternalId - b.parameterExternalId || a.externalId - b.externalId)
      .map((v) => ({
        eshop_id: eshopId,
        parameter_id: idOf(internalId, v.parameterExternalId),
        external_id: v.externalId,
        value: v.value,
      }));
    const writtenValues: { inserted: boolean }[] = [];
    // 5,000 rows of 4 bound values stay below Postgres's 65,535 parameters per statement.
    for (let start = 0; start < valueRows.length; start += 5_000) {
      writtenValues.push(
        ...checkedRows<{ inserted: boolean }>(
          await trx('parameter_values')
            .insert(valueRows.slice(start, start + 5_000))
            .onConflict(['eshop_id', 'parameter_id', 'external_id'])
            .merge({ value: trx.raw('excluded.value'), updated_at: trx.fn.now(6) })
            .returning([insertedColumn(trx)]),
          ['inserted'],
        ),
      );
    }
    return {
      parameters: countInserted(written),
      values: countInserted(writtenValues),
      written: written.map((p) => ({ externalId: p.external_id, inserted: p.inserted })),
    };
  },

  /**
   * What the given numbers name in the eshop: parameters by external id, and values by external
   * id (a value id is unique per parameter only, so one number may name values of several
   * parameters). Two statements, each joined on the keys (keysFrom).
   */
  async lookup(
    db: Knex | Knex.Transaction,
    eshopId: number,
    parameterIds: readonly number[],
    valueIds: readonly number[],
  ): Promise<ParameterLookup> {
    const found: ParameterLookup = { parameters: new Map(), values: new Map() };
    if (parameterIds.length) {
      const { rows } = await PARAMETER_LOOKUP(db, [eshopId, [...new Set(parameterIds)]]);
      for (const r of checkedRows<Pick<Row<'parameters'>, 'id' | 'external_id'>>(rows, ['id', 'external_id']))
        found.parameters.set(Number(r.external_id), Number(r.id));
    }
    if (valueIds.length) {
      const { rows } = await VALUE_LOOKUP(db, [eshopId, [...new Set(valueIds)]]);
      const values = checkedRows<ValueLookupRow>(rows, [
        'id',
        'external_id',
        'parameter_id',
        'parameter_external_id',
      ]);
      for (const r of values) {
        const key = Number(r.external_id);
        const list = found.values.get(key) ?? [];
        list.push({
          id: Number(r.id),
          parameterId: Number(r.parameter_id),
          parameterExternalId: Number(r.parameter_external_id),
        });
        found.values.set(key, list);
      }
    }
    return found;
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
      .select('p.external_id');
    return new Set(
      checkedRows<Pick<Row<'parameters'>, 'external_id'>>(rows, ['external_id']).map((r) => r.external_id),
    );
  },
};
