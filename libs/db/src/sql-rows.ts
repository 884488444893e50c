import type { Knex } from 'knex';

/**
 * The rows of a statement knex cannot type (raw SQL, computed columns, joins under aliases),
 * typed in one place instead of a cast per call: the columns the caller expects are named, and a
 * row that lacks one (a column renamed in the SQL text or the schema) throws here, naming it,
 * instead of travelling on as `undefined`. The value types are the caller's word: keep `T` made
 * of the generated row types (`Row<'table'>['column']`) where a column comes straight from one.
 */
export function checkedRows<T extends object>(
  rows: readonly unknown[],
  columns: readonly (keyof T & string)[],
): T[] {
  for (const row of rows) {
    if (typeof row !== 'object' || row === null) throw new Error('expected a row object from the database');
    for (const column of columns) {
      if (!(column in row)) throw new Error(`the database returned no column "${column}"`);
    }
  }
  return rows as T[];
}

/** The single row of `rows`, checked as `checkedRows` does; undefined when there is none. */
export function checkedRow<T extends object>(
  row: unknown,
  columns: readonly (keyof T & string)[],
): T | undefined {
  return row === undefined ? undefined : checkedRows<T>([row], columns)[0];
}

/** One row that must be there (a mapper's argument), checked as `checkedRows` does. */
export function checkedOne<T extends object>(row: unknown, columns: readonly (keyof T & string)[]): T {
  if (row === undefined) throw new Error('expected a row from the database');
  return checkedRows<T>([row], columns)[0]!;
}

/**
 * The `count` of a count read (`count({ count: '*' })`: its first row), checked as `checkedOne`
 * does; 0 when there is no row. A bigint, so already a number (knex.ts's type parser).
 */
export function countOf(row: unknown): number {
  if (row === undefined) return 0;
  return Number(checkedOne<{ count: unknown }>(row, ['count']).count);
}

/**
 * A computed column (`<sql> as <name>`) for returning(): knex's types take only column names
 * there, though it passes a raw through, so the one cast of it is here. Read the rows with
 * checkedRows, naming the column.
 */
export function rawColumn(db: Knex | Knex.Transaction, sql: string): string {
  return db.raw(sql) as unknown as string;
}

/** `(xmax = 0) as inserted`, for an upsert's returning(): whether the statement inserted the row. */
export function insertedColumn(db: Knex | Knex.Transaction): string {
  return rawColumn(db, '(xmax = 0) as inserted');
}

/** A scalar an array binding may hold (`?::bigint[]`, `?::text[]`). */
export type ArrayScalar = string | number | boolean | Date | null;

/**
 * An array binding (`?::bigint[]`, `unnest(?::text[])`): node-postgres sends any array of scalars,
 * nulls and mixed string/number ids included, as one array literal; knex's `RawBinding` admits
 * only arrays of a single non-null scalar type, so the one cast of such arrays is here.
 */
export function arrayBinding(values: readonly ArrayScalar[]): Knex.RawBinding {
  return values as Knex.RawBinding;
}

/** A raw statement's result as node-postgres returns it (the only client, libs/db/src/knex.ts). */
export interface RawResult {
  rows: readonly unknown[];
  /** Rows the statement returned or wrote (0 when the server gives none). */
  rowCount: number;
}

/** Runs a raw statement (set-based SQL knex cannot express); read its rows with rawRows. */
export async function runRaw(
  db: Knex | Knex.Transaction,
  sql: string,
  bindings: readonly Knex.RawBinding[] | Knex.ValueDict = [],
): Promise<RawResult> {
  const result: { rows?: unknown[]; rowCount?: number | null } = await db.raw(sql, bindings);
  return { rows: result.rows ?? [], rowCount: result.rowCount ?? 0 };
}

/**
 * Runs a statement whose text numbers its own parameters (`$1`, `$2`, …) with `values` handed to
 * node-postgres as they are, for statements of thousands of values (a 100-row upsert of products
 * has 1,701): given them as bindings, knex wraps each one and scans the text twice for `?` to
 * number them. The statement still runs through knex (its transaction and connection, the
 * `query` event, tracing spans, error messages: knex puts the text before the server's message,
 * as it does for any statement), but the `query` event carries no bindings for it. The text must
 * hold no `?` (knex would still number it: no JSONB `?` operators here).
 */
export async function runNumbered(
  db: Knex | Knex.Transaction,
  sql: string,
  values: readonly unknown[],
): Promise<RawResult> {
  // `options` mixes settings into the driver's query config (for node-postgres `text` and
  // `values`); knex's types give it to query builders only, so the one cast of it is here.
  const raw = db.raw(sql) as Knex.Raw & { options(options: { values: readonly unknown[] }): Knex.Raw };
  const result: { rows?: unknown[]; rowCount?: number | null } = await raw.options({ values });
  return { rows: result.rows ?? [], rowCount: result.rowCount ?? 0 };
}

/**
 * A statement whose text does not depend on its values (array bindings), compiled by knex's
 * builder once and then run with runNumbered: the same text and values node-postgres would get
 * from the builder, without compiling it again on every call (knex's compiler took about a
 * third of a millisecond a statement of an import). `build` receives the knex to build on, with
 * placeholder values; the values of each call are given in the same order, and runNumbered's
 * rule holds (no `?` in the text).
 */
export function compiledOnce(
  build: (db: Knex | Knex.Transaction) => Knex.QueryBuilder,
): (db: Knex | Knex.Transaction, values: readonly unknown[]) => Promise<RawResult> {
  let text: string | undefined;
  return (db, values) => {
    text ??= build(db).toSQL().toNative().sql;
    return runNumbered(db, text, values);
  };
}

/** The rows of a raw statement, checked to carry the named columns (see checkedRows). */
export async function rawRows<T extends object>(
  db: Knex | Knex.Transaction,
  sql: string,
  bindings: readonly Knex.RawBinding[] | Knex.ValueDict,
  columns: readonly (keyof T & string)[],
): Promise<T[]> {
  return checkedRows<T>((await runRaw(db, sql, bindings)).rows, columns);
}
