// Why: a category import could write product_variants rows naming another eshop's product:
// every tenant-owned reference was a single-column foreign key, so the database
// accepted any row of any eshop. From here on every reference between tenant-owned rows is a
// composite foreign key that includes eshop_id, and references to designs (public rows shared
// by every eshop, or custom rows of one eshop) go through the design's owner. Rows that
// already break these rules are repaired first, and the repair is logged per table.
import type { Knex } from 'knex';

const NAME = '20261123000100_tenant_references';

/** Parents referenced by (eshop_id, id). */
const PARENTS_BY_ESHOP_AND_ID = ['products', 'parameters', 'listing_batches', 'generation_jobs'];

/** Child → parent references that become (eshop_id, <column>) → parent (eshop_id, id). */
const CASCADING_CHILDREN = [
  { table: 'product_variants', column: 'product_id', parent: 'products' },
  { table: 'parameter_values', column: 'parameter_id', parent: 'parameters' },
  { table: 'listing_rows', column: 'batch_id', parent: 'listing_batches' },
] as const;

/** Tables whose design_id names a design they may use: public, or custom of their own eshop. */
const DESIGN_USERS = ['generation_jobs', 'wl_entities'] as const;

async function count(db: Knex, sql: string): Promise<number> {
  const { rowCount } = await db.raw<{ rowCount: number | null }>(sql);
  return rowCount ?? 0;
}

/**
 * Removes or detaches rows that name another eshop's row (or a row that does not exist, or a row
 * of another table, as the variants of a category did). Returns how many rows of each table
 * were changed. Credit ledger rows are never deleted: they keep their amounts and lose only the
 * job reference, and a reservation of a removed job is released so it does not stay held.
 */
async function repair(db: Knex): Promise<Record<string, number>> {
  const changed: Record<string, number> = {};
  for (const { table, column, parent } of CASCADING_CHILDREN) {
    changed[`${table} deleted`] = await count(
      db,
      `delete from ${table} c where not exists
         (select 1 from ${parent} p where p.eshop_id = c.eshop_id and p.id = c.${column})`,
    );
  }
  changed['wl_entities design_id cleared'] = await count(
    db,
    `update wl_entities w set design_id = null
     from designs d where d.id = w.design_id and d.eshop_id is not null and d.eshop_id <> w.eshop_id`,
  );
  changed['generation_jobs deleted'] = await count(
    db,
    `delete from generation_jobs j where
       exists (select 1 from designs d where d.id = j.design_id and d.eshop_id <> j.eshop_id)
       or not exists (select 1 from wl_entities w
                      where w.eshop_id = j.eshop_id and w.type = j.entity_type and w.entity_id = j.entity_id)`,
  );
  // Ledger rows of an eshop without an account (only a top-up creates one): the account is
  // created from the ledger, which is what its balance has to equal.
  changed['credit_accounts created'] = await count(
    db,
    `insert into credit_accounts (eshop_id, balance, reserved)
     select l.eshop_id, sum(l.amount), sum(l.reserved_delta) from credit_ledger l
     where not exists (select 1 from credit_accounts a where a.eshop_id = l.eshop_id)
     group by l.eshop_id`,
  );
  const orphan = `l.job_id is not null and not exists
    (select 1 from generation_jobs j where j.eshop_id = l.eshop_id and j.id = l.job_id)`;
  const { rows: held } = await db.raw<{ rows: { eshop_id: number; job_id: number; held: number }[] }>(
    `select l.eshop_id, l.job_id, sum(l.reserved_delta)::bigint as held from credit_ledger l
     where ${orphan} group by l.eshop_id, l.job_id having sum(l.reserved_delta) > 0`,
  );
  for (const { eshop_id, job_id, held: amount } of held) {
    await db('credit_ledger').insert({
      eshop_id,
      kind: 'release',
      amount: 0,
      reserved_delta: -amount,
      reason: `reservation of missing job ${job_id} released (migration ${NAME})`,
    });
    await db('credit_accounts')
      .where({ eshop_id })
      .update({ reserved: db.raw('reserved - ?', [amount]) });
  }
  changed['credit_ledger reservations released'] = held.length;
  changed['credit_ledger job_id cleared'] = await count(
    db,
    `update credit_ledger l
     set reason = coalesce(l.reason || ' ', '') || '(job ' || l.job_id || ' not found)', job_id = null
     where ${orphan}`,
  );
  return changed;
}

export async function up(db: Knex): Promise<void> {
  const changed = await repair(db);
  // Migrations get no logger; the operator running `npm run migrate` reads this line, printed
  // only when something had to be repaired (a fresh or clean database stays quiet).
  if (Object.values(changed).some((n) => n > 0)) {
    process.stdout.write(`${JSON.stringify({ migration: NAME, repaired: changed })}\n`);
  }

  for (const table of PARENTS_BY_ESHOP_AND_ID) {
    await db.schema.alterTable(table, (t) =>
      t.unique(['eshop_id', 'id'], { indexName: `${table}_eshop_id_id_unique` }),
    );
  }
  for (const { table, column, parent } of CASCADING_CHILDREN) {
    await db.schema.alterTable(table, (t) => {
      t.dropForeign([column]);
      t.foreign(['eshop_id', column], `${table}_${column}_same_eshop_fk`)
        .references(['eshop_id', 'id'])
        .inTable(parent)
        .onDelete('CASCADE');
    });
  }

  // 0 for public designs, the owning eshop for custom ones: a user of a design names
  // (owner, id), and a check allows only 0 or its own eshop as the owner.
  await db.raw(
    `alter table designs add column owner integer not null generated always as (coalesce(eshop_id, 0)) stored`,
  );
  await db.schema.alterTable('designs', (t) =>
    t.unique(['owner', 'id'], { indexName: 'designs_owner_id_unique' }),
  );
  for (const table of DESIGN_USERS) {
    const nullable = table === 'wl_entities';
    await db.raw(
      `alter table ${table} add column design_owner integer ${nullable ? '' : 'not null '}default 0`,
    );
    await db.raw(
      `update ${table} u set design_owner = d.owner from designs d where d.id = u.design_id and d.owner <> 0`,
    );
    await db.schema.alterTable(table, (t) => t.dropForeign(['design_id']));
    await db.raw(
      `alter table ${table} add constraint ${table}_design_public_or_own check (design_owner in (0, eshop_id))`,
    );
    await db.raw(
      `alter table ${table} add constraint ${table}_design_usable_fk foreign key (design_owner, design_id)
       references designs (owner, id)${nullable ? ' on delete set null' : ''}`,
    );
    if (nullable) {
      // `set null` clears both columns; without this check a null owner would let design_id
      // name any design (a foreign key with a null column is not checked).
      await db.raw(
        `alter table ${table} add constraint ${table}_design_has_owner
         check (design_id is null or design_owner is not null)`,
      );
    }
  }

  await db.schema.alterTable('generation_jobs', (t) => {
    t.foreign(['eshop_id', 'entity_type', 'entity_id'], 'generation_jobs_entity_registered_fk')
      .references(['eshop_id', 'type', 'entity_id'])
      .inTable('wl_entities');
  });
  await db.schema.alterTable('credit_ledger', (t) => {
    t.foreign(['eshop_id', 'job_id'], 'credit_ledger_job_same_eshop_fk')
      .references(['eshop_id', 'id'])
      .inTable('generation_jobs');
    t.foreign(['eshop_id'], 'credit_ledger_account_fk').references(['eshop_id']).inTable('credit_accounts');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('credit_ledger', (t) => {
    t.dropForeign(['eshop_id'], 'credit_ledger_account_fk');
    t.dropForeign(['eshop_id', 'job_id'], 'credit_ledger_job_same_eshop_fk');
  });
  await db.schema.alterTable('generation_jobs', (t) => {
    t.dropForeign(['eshop_id', 'entity_type', 'entity_id'], 'generation_jobs_entity_registered_fk');
  });
  for (const table of DESIGN_USERS) {
    await db.schema.alterTable(table, (t) => {
      t.dropForeign(['design_owner', 'design_id'], `${table}_design_usable_fk`);
      t.dropChecks([
        `${table}_design_public_or_own`,
        ...(table === 'wl_entities' ? [`${table}_design_has_owner`] : []),
      ]);
      t.dropColumn('design_owner');
    });
    await db.schema.alterTable(table, (t) => {
      const fk = t.foreign('design_id').references('id').inTable('designs');
      if (table === 'wl_entities') fk.onDelete('SET NULL');
    });
  }
  await db.schema.alterTable('designs', (t) => {
    t.dropUnique(['owner', 'id'], 'designs_owner_id_unique');
    t.dropColumn('owner');
  });
  for (const { table, column, parent } of CASCADING_CHILDREN) {
    await db.schema.alterTable(table, (t) => {
      t.dropForeign(['eshop_id', column], `${table}_${column}_same_eshop_fk`);
      t.foreign(column).references('id').inTable(parent).onDelete('CASCADE');
    });
  }
  for (const table of PARENTS_BY_ESHOP_AND_ID) {
    await db.schema.alterTable(table, (t) => t.dropUnique(['eshop_id', 'id'], `${table}_eshop_id_id_unique`));
  }
}
