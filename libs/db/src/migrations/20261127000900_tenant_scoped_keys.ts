// Why: a distributed PostgreSQL (Citus) sharded by eshop_id checks uniqueness within a shard only,
// so every primary key of a tenant table must include eshop_id (docs/scaling.md). These tables were
// keyed by a bigserial `id` alone (webhook_pending_deliveries by (endpoint_id, seq)); their key
// becomes (eshop_id, id) (and (eshop_id, endpoint_id, seq)). The `id` columns and their sequences
// stay: ids remain unique in practice, the constraint just names the eshop too.
//
// No foreign key references a single-column id (the tenant references migration made every one
// composite, to a unique (eshop_id, id) key). Where that unique key exists it is now the primary
// key's twin: the foreign keys on it are dropped and re-added (same names, same definitions) so
// they use the primary key, and the twin goes. So do the plain (eshop_id, id) indexes the new
// primary key duplicates. `down` restores the single-column keys, the twins and the indexes.
import type { Knex } from 'knex';

/** Tables keyed by `id` alone until now. */
const ID_TABLES = [
  'blogs',
  'brands',
  'categories',
  'content_revisions',
  'credit_ledger',
  'generation_jobs',
  'listing_batches',
  'listing_rows',
  'parameter_values',
  'parameters',
  'product_variants',
  'products',
  'webhook_deliveries',
  'webhook_endpoints',
  'webhook_redeliveries',
  'widget_favourites',
  'wl_entities',
];

/** Tables whose unique (eshop_id, id) key (`<table>_eshop_id_id_unique`) foreign keys reference. */
const WITH_TWIN = ['generation_jobs', 'listing_batches', 'parameters', 'products', 'webhook_endpoints'];

/** Plain indexes on (eshop_id, id) that the new primary key makes redundant. */
const DUPLICATE_INDEXES = ['credit_ledger', 'listing_batches', 'widget_favourites'];

interface ForeignKey {
  table: string;
  name: string;
  definition: string;
}

/** The foreign keys that reference the unique constraint `constraint` of `table`. */
async function foreignKeysOn(db: Knex, table: string, constraint: string): Promise<ForeignKey[]> {
  const { rows } = await db.raw<{ rows: ForeignKey[] }>(
    `select fk.conrelid::regclass::text as "table", fk.conname as name,
            pg_get_constraintdef(fk.oid) as definition
     from pg_constraint fk
     join pg_constraint key on key.conindid = fk.conindid and key.conrelid = fk.confrelid
     where fk.contype = 'f' and key.contype in ('p', 'u')
       and key.conrelid = ?::regclass and key.conname = ?
     order by 1, 2`,
    [table, constraint],
  );
  return rows;
}

async function dropForeignKeys(db: Knex, fks: ForeignKey[]): Promise<void> {
  for (const fk of fks) await db.raw('alter table ?? drop constraint ??', [fk.table, fk.name]);
}

async function addForeignKeys(db: Knex, fks: ForeignKey[]): Promise<void> {
  // The definition as the catalog prints it (pg_get_constraintdef): columns, target, actions.
  for (const fk of fks)
    await db.raw(`alter table ?? add constraint ?? ${fk.definition}`, [fk.table, fk.name]);
}

export async function up(db: Knex): Promise<void> {
  for (const table of ID_TABLES) {
    const twin = `${table}_eshop_id_id_unique`;
    const fks = WITH_TWIN.includes(table) ? await foreignKeysOn(db, table, twin) : [];
    await dropForeignKeys(db, fks);
    if (WITH_TWIN.includes(table)) await db.raw('alter table ?? drop constraint ??', [table, twin]);
    await db.raw('alter table ?? drop constraint ??, add constraint ?? primary key (eshop_id, id)', [
      table,
      `${table}_pkey`,
      `${table}_pkey`,
    ]);
    await addForeignKeys(db, fks);
    if (DUPLICATE_INDEXES.includes(table)) await db.raw('drop index ??', [`${table}_eshop_id_id_index`]);
  }
  await db.raw(`alter table webhook_pending_deliveries drop constraint webhook_pending_deliveries_pkey,
    add constraint webhook_pending_deliveries_pkey primary key (eshop_id, endpoint_id, seq)`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`alter table webhook_pending_deliveries drop constraint webhook_pending_deliveries_pkey,
    add constraint webhook_pending_deliveries_pkey primary key (endpoint_id, seq)`);
  for (const table of [...ID_TABLES].reverse()) {
    if (DUPLICATE_INDEXES.includes(table)) {
      await db.raw('create index ?? on ?? (eshop_id, id)', [`${table}_eshop_id_id_index`, table]);
    }
    const fks = await foreignKeysOn(db, table, `${table}_pkey`);
    await dropForeignKeys(db, fks);
    await db.raw('alter table ?? drop constraint ??, add constraint ?? primary key (id)', [
      table,
      `${table}_pkey`,
      `${table}_pkey`,
    ]);
    if (WITH_TWIN.includes(table) || fks.length) {
      await db.raw('alter table ?? add constraint ?? unique (eshop_id, id)', [
        table,
        `${table}_eshop_id_id_unique`,
      ]);
    }
    await addForeignKeys(db, fks);
  }
}
