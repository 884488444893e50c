// The plan for a distributed PostgreSQL (Citus) that shards by tenant, checked against the live
// catalog of a migrated database: which tables are reference (copied to every node) or local, and
// what breaks the distribution rules of every other table (distributed by eshop_id, all colocated).
// docs/scaling.md explains the plan; distribution.test.ts fails on any finding not listed below.
import type { Knex } from '@catalogue/db';

/** The distribution column of every distributed table. */
export const DISTRIBUTION_COLUMN = 'eshop_id';

/**
 * Tables that are not distributed by eshop_id, and why. Everything else in the schema is a
 * distributed table colocated with `products`.
 *
 * - `reference`: `create_reference_table` (one shard copied to every node). Small, shared by all
 *   eshops or looked up without knowing the eshop; joins with distributed tables stay local to a
 *   node. A reference table may not have a foreign key to a distributed table.
 * - `local`: stays on the coordinator only (never joined with tenant data).
 */
export const NOT_DISTRIBUTED: Readonly<Record<string, { kind: 'reference' | 'local'; why: string }>> = {
  eshops: {
    kind: 'reference',
    why: 'the tenants themselves: every tenant table has a foreign key to it, and the auth lookup joins it by id',
  },
  api_tokens: {
    kind: 'reference',
    why: 'the token lookup finds a token by its hash before the eshop is known (token_hash is unique over all eshops); a few rows per eshop',
  },
  white_label_tokens: {
    kind: 'reference',
    why: 'the same as api_tokens: looked up by hash before the eshop is known',
  },
  credit_prices: { kind: 'reference', why: 'one price per operation, shared by every eshop' },
  widget_categories: { kind: 'reference', why: 'the public widget catalogue (seeded), no eshop' },
  widgets: { kind: 'reference', why: 'the public widget catalogue (seeded), no eshop' },
  designs: {
    kind: 'reference',
    why: 'public designs (eshop_id null) and designs of one eshop share the table; a distribution column cannot be null, and tenant rows reference designs through (owner, id)',
  },
  design_widgets: { kind: 'reference', why: 'the widgets of a design: follows designs (foreign key to it)' },
  prompts: {
    kind: 'reference',
    why: 'public prompts (eshop_id null) and prompts of one eshop share the table, like designs',
  },
  knex_migrations: { kind: 'local', why: "knex's migration bookkeeping, read only by the migration" },
  knex_migrations_lock: { kind: 'local', why: "knex's migration lock, read only by the migration" },
};

/**
 * Findings of `distributionFindings` that are known and accepted, each with what would have to
 * change (docs/scaling.md). Empty: every primary key, unique key and foreign key of the
 * distributed tables includes eshop_id (migration 20261127000900_tenant_scoped_keys made the
 * last single-column keys (eshop_id, id)). A new finding fails the test until it is fixed or
 * listed here with its reason.
 */
export const KNOWN_EXCEPTIONS: Readonly<Record<string, string>> = {};

interface Constraint {
  name: string;
  table: string;
  kind: 'p' | 'u' | 'f' | 'x';
  columns: string[];
  parent: string;
  parentColumns: string[];
}

/** Primary keys, unique and exclusion constraints, foreign keys: their columns in key order. */
async function constraints(db: Knex | Knex.Transaction): Promise<Constraint[]> {
  const { rows } = await db.raw<{ rows: Constraint[] }>(
    `select con.conname as name, con.conrelid::regclass::text as "table", con.contype as kind,
            array(select a.attname::text from unnest(con.conkey) with ordinality k(num, pos)
                  join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.num order by k.pos) as columns,
            coalesce(con.confrelid::regclass::text, '') as parent,
            array(select a.attname::text from unnest(coalesce(con.confkey, '{}')) with ordinality k(num, pos)
                  join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.num order by k.pos)
              as "parentColumns"
     from pg_constraint con
     where con.connamespace = current_schema()::regnamespace and con.contype in ('p', 'u', 'f', 'x')`,
  );
  return rows;
}

/** Unique indexes that are not constraints (create unique index …), partial ones included. */
async function uniqueIndexes(
  db: Knex | Knex.Transaction,
): Promise<{ name: string; table: string; columns: string[] }[]> {
  const { rows } = await db.raw<{ rows: { name: string; table: string; columns: string[] }[] }>(
    `select ic.relname as name, i.indrelid::regclass::text as "table",
            array(select coalesce(a.attname::text, '(expression)') from unnest(i.indkey) with ordinality k(num, pos)
                  left join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.num order by k.pos) as columns
     from pg_index i
     join pg_class ic on ic.oid = i.indexrelid
     where ic.relnamespace = current_schema()::regnamespace and i.indisunique
       and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
  );
  return rows;
}

/** Base tables of the current schema and whether their eshop_id is `not null` (null: no eshop_id). */
export async function tablesOf(db: Knex | Knex.Transaction): Promise<Map<string, boolean | null>> {
  const { rows } = await db.raw<{ rows: { table: string; eshop: boolean | null }[] }>(
    `select c.relname as "table",
            (select a.attnotnull from pg_attribute a
             where a.attrelid = c.oid and a.attname = ? and not a.attisdropped) as eshop
     from pg_class c
     where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p')`,
    [DISTRIBUTION_COLUMN],
  );
  return new Map(rows.map((r) => [r.table, r.eshop]));
}

/**
 * Everything in the schema that a distribution by eshop_id would refuse (empty: nothing), as
 * sorted `table: finding` lines:
 * - a table neither distributed-ready nor listed in NOT_DISTRIBUTED (a new table must pick);
 * - a distributed table without a `not null` eshop_id;
 * - a primary key, unique constraint, unique index or exclusion constraint of a distributed table
 *   without eshop_id (uniqueness is only checked within a shard);
 * - a foreign key between distributed tables without eshop_id -> eshop_id (it must stay within
 *   a shard), or from a reference table to a distributed table (never allowed).
 */
export async function distributionFindings(db: Knex | Knex.Transaction): Promise<string[]> {
  const tables = await tablesOf(db);
  const distributed = (table: string) => tables.has(table) && !(table in NOT_DISTRIBUTED);
  const findings: string[] = [];
  for (const listed of Object.keys(NOT_DISTRIBUTED)) {
    if (!tables.has(listed)) findings.push(`${listed}: listed as not distributed but no such table`);
  }
  for (const [table, eshop] of tables) {
    if (!distributed(table)) continue;
    if (eshop === null) findings.push(`${table}: no eshop_id and not listed as a reference or local table`);
    else if (!eshop) findings.push(`${table}: eshop_id may be null`);
  }
  const described = { p: 'primary key', u: 'unique constraint', x: 'exclusion constraint' } as const;
  for (const c of await constraints(db)) {
    if (!distributed(c.table)) {
      if (c.kind === 'f' && distributed(c.parent)) {
        findings.push(
          `${c.table}: ${c.name} references distributed ${c.parent} from a ${NOT_DISTRIBUTED[c.table]?.kind} table`,
        );
      }
      continue;
    }
    if (c.kind === 'f') {
      if (!distributed(c.parent)) continue; // to a reference table: allowed
      const i = c.columns.indexOf(DISTRIBUTION_COLUMN);
      if (i < 0 || c.parentColumns[i] !== DISTRIBUTION_COLUMN) {
        findings.push(`${c.table}: ${c.name} references ${c.parent} without eshop_id -> eshop_id`);
      }
    } else if (!c.columns.includes(DISTRIBUTION_COLUMN)) {
      const name = c.kind === 'p' ? described.p : `${described[c.kind]} ${c.name}`;
      findings.push(`${c.table}: ${name} (${c.columns.join(', ')}) without eshop_id`);
    }
  }
  for (const index of await uniqueIndexes(db)) {
    if (distributed(index.table) && !index.columns.includes(DISTRIBUTION_COLUMN)) {
      findings.push(
        `${index.table}: unique index ${index.name} (${index.columns.join(', ')}) without eshop_id`,
      );
    }
  }
  return findings.sort();
}

/** The tables to distribute by eshop_id, by name. */
export async function distributedTables(db: Knex | Knex.Transaction): Promise<string[]> {
  const tables = await tablesOf(db);
  return [...tables.keys()].filter((t) => !(t in NOT_DISTRIBUTED)).sort();
}
