// Reads the live catalog of a migrated database and lists every way its schema lets one eshop's
// row name another eshop's row. Used by tenancy-schema.test.ts, which fails on any finding, so a
// table or column added later has to follow the rules (or be allow-listed here, with a reason).
import type { Knex } from '@catalogue/db';

/**
 * Columns named like references (`*_id`, `*_ids`) that are deliberately not foreign keys.
 * Keyed `table.column`; `*.column` applies to every table.
 */
export const NOT_A_FOREIGN_KEY: Readonly<Record<string, string>> = {
  '*.external_id':
    "the row's own identifier as the client sent it (part of the row's unique key with eshop_id), not a reference",
  'wl_entities.entity_id':
    "the host's own identifier of the entity (unique with eshop_id and type), not a reference",
  'products.brand_id':
    "a brand's external id as the client sent it: the specification lets a product name a brand that is " +
    'imported later or never; reads resolve it within the eshop (brands.eshop_id = the product eshop)',
  'products.categories_ids':
    'a JSON array of external ids as the client sent them (an array cannot carry a foreign key); ' +
    'read back as sent, never joined',
  'idempotency_keys.lock_id':
    'a random token of the attempt that holds the key while it runs (only that attempt may store the answer), not a row id',
  'generation_batches.design_id':
    "the design the batch's items are generated with, checked usable by the eshop when the batch starts; " +
    "every item's generation job row references it with its owner (generation_jobs' design key)",
  'generation_batches.prompt_id':
    "the prompt the batch's items are generated with, checked when the batch starts and carried into each item's job",
  'generation_batch_items.entity_id':
    "a catalogue item's external id as the client sent it (the selection is resolved within the eshop), not a row id",
  'products.parameters_ids':
    'a JSON array of parameter or value external ids as the client sent them; imports resolve them within ' +
    'the eshop into product_parameter_values (composite keys with eshop_id), which reads use',
};

/** Tables that hold no eshop_id yet may reference a tenant-owned table (none today). */
export const TENANT_CHILD_WITHOUT_ESHOP: Readonly<Record<string, string>> = {};

interface Column {
  table: string;
  column: string;
  nullable: boolean;
  generation: string | null;
}

interface ForeignKey {
  name: string;
  table: string;
  columns: string[];
  parent: string;
  parentColumns: string[];
}

interface Check {
  name: string;
  table: string;
  columns: string[];
}

/** Tables of the current schema (without knex's bookkeeping) and their columns. */
async function columnsOf(db: Knex | Knex.Transaction): Promise<Column[]> {
  const rows = await db.raw<{ rows: Column[] }>(
    `select c.table_name as "table", c.column_name as "column", c.is_nullable = 'YES' as nullable,
            c.generation_expression as generation
     from information_schema.columns c
     join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
     where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
       and c.table_name not like 'knex\\_%'`,
  );
  return rows.rows;
}

/** Constraints of one kind with their columns in key order (pairs of a foreign key line up). */
async function constraintsOf(db: Knex | Knex.Transaction, kind: 'f' | 'c'): Promise<ForeignKey[]> {
  const { rows } = await db.raw<{ rows: ForeignKey[] }>(
    `select con.conname as name, con.conrelid::regclass::text as "table",
            array(select a.attname::text from unnest(con.conkey) with ordinality k(num, pos)
                  join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.num order by k.pos) as columns,
            coalesce(con.confrelid::regclass::text, '') as parent,
            array(select a.attname::text from unnest(coalesce(con.confkey, '{}')) with ordinality k(num, pos)
                  join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.num order by k.pos)
              as "parentColumns"
     from pg_constraint con
     join pg_namespace n on n.oid = con.connamespace
     where n.nspname = current_schema() and con.contype = ?`,
    [kind],
  );
  return rows;
}

/** What the schema allows that it should not; empty when every rule holds. */
export async function tenancyViolations(db: Knex | Knex.Transaction): Promise<string[]> {
  const columns = await columnsOf(db);
  const foreignKeys = await constraintsOf(db, 'f');
  const checks: Check[] = await constraintsOf(db, 'c');
  const eshopColumn = new Map(columns.filter((c) => c.column === 'eshop_id').map((c) => [c.table, c]));
  const problems: string[] = [];

  for (const fk of foreignKeys) {
    const child = eshopColumn.get(fk.table);
    const parent = eshopColumn.get(fk.parent);
    if (!parent) continue; // eshops itself and the shared catalogue (widgets, prices): no tenant.
    const pairs = fk.columns.map((c, i) => `${c}->${fk.parentColumns[i]}`);
    if (!child) {
      if (!parent.nullable && !(fk.table in TENANT_CHILD_WITHOUT_ESHOP)) {
        problems.push(`${fk.table} references tenant-owned ${fk.parent} (${fk.name}) but has no eshop_id`);
      }
      continue;
    }
    if (!parent.nullable) {
      // Tenant-owned parent: the child's eshop must be the parent's eshop.
      if (!pairs.includes('eshop_id->eshop_id')) {
        problems.push(
          `${fk.table} references ${fk.parent} without eshop_id in the key (${fk.name}: ${pairs})`,
        );
      }
      continue;
    }
    // Parent with public rows (eshop_id null) and rows of one eshop: the child names the parent's
    // owner (coalesce(eshop_id, 0)), and a check allows only 0 or the child's own eshop.
    const ownerPair = fk.columns.findIndex((_, i) => fk.parentColumns[i] === 'owner');
    const owner = columns.find((c) => c.table === fk.parent && c.column === 'owner');
    if (ownerPair < 0 || !owner || !/coalesce\(eshop_id, 0\)/i.test(owner.generation ?? '')) {
      problems.push(
        `${fk.table} references ${fk.parent}, whose rows are public or of one eshop, without its owner ` +
          `(coalesce(eshop_id, 0)) in the key (${fk.name}: ${pairs})`,
      );
      continue;
    }
    const ownerColumn = fk.columns[ownerPair]!;
    const tied = checks.some(
      (c) => c.table === fk.table && c.columns.includes(ownerColumn) && c.columns.includes('eshop_id'),
    );
    if (!tied) {
      problems.push(
        `${fk.table}.${ownerColumn} names the owner of ${fk.parent} but no check ties it to eshop_id`,
      );
    }
    // A foreign key with a null column is not checked at all: a nullable owner needs a check
    // that keeps it set whenever the reference is.
    const ownerNullable = columns.find((c) => c.table === fk.table && c.column === ownerColumn)?.nullable;
    const keptSet = checks.some(
      (c) =>
        c.table === fk.table &&
        c.columns.includes(ownerColumn) &&
        c.columns.length > 1 &&
        c.columns.every((column) => fk.columns.includes(column)),
    );
    if (ownerNullable && !keptSet) {
      problems.push(
        `${fk.table}.${ownerColumn} may be null while ${fk.name} is set, which leaves it unchecked`,
      );
    }
  }

  for (const [table] of eshopColumn) {
    const toEshops = foreignKeys.some(
      (fk) => fk.table === table && fk.parent === 'eshops' && fk.columns.join() === 'eshop_id',
    );
    if (!toEshops) problems.push(`${table}.eshop_id is not a foreign key to eshops`);
  }

  for (const { table, column } of columns) {
    if (column === 'id' || !/_ids?$/.test(column)) continue;
    if (`${table}.${column}` in NOT_A_FOREIGN_KEY || `*.${column}` in NOT_A_FOREIGN_KEY) continue;
    if (!foreignKeys.some((fk) => fk.table === table && fk.columns.includes(column))) {
      problems.push(`${table}.${column} looks like a reference but no foreign key covers it`);
    }
  }
  return problems.sort();
}
