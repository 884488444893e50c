// The schema test that cannot be forgotten: it reads the catalog of the migrated database, so a
// table or column added by any later migration is checked without anyone listing it here.
import { createKnex, migrateLatest, type Knex } from '@catalogue/db';
import { freshSiblingDatabase, testConfig, type SiblingDatabase } from '@catalogue/testing';
import { tenancyViolations } from './tenancy-catalog';

describe('the migrated schema', () => {
  let db: Knex;
  beforeAll(() => {
    db = createKnex(testConfig().database);
  });
  afterAll(() => db.destroy());

  test('when the catalog is read, then every reference between tenant-owned rows includes eshop_id and every reference-like column is a foreign key', async () => {
    expect(await tenancyViolations(db)).toEqual([]);
  });
});

describe('the tenancy check itself', () => {
  // Throwaway tables go into a database of their own, so the run's shared tables are never
  // locked by the DDL and nothing can leak into other test files.
  let sibling: SiblingDatabase;
  let db: Knex;

  beforeAll(async () => {
    sibling = await freshSiblingDatabase('tenancy');
    db = sibling.db;
    await migrateLatest(db);
  });

  afterAll(() => sibling?.drop());

  /** Runs `ddl`, reads what the check finds, and undoes the DDL. */
  async function findingsWith(ddl: string): Promise<string[]> {
    let found: string[] = [];
    await db
      .transaction(async (trx) => {
        await trx.raw(ddl);
        found = await tenancyViolations(trx);
        throw new Error('rollback');
      })
      .catch((err: Error) => {
        if (err.message !== 'rollback') throw err;
      });
    return found;
  }

  // Each probe is a tenant table (eshop_id, id) plus the columns under test.
  const tenantTable = (columns: string) =>
    `create table probe_notes (eshop_id integer not null references eshops (id), id serial primary key, ${columns})`;

  test.each([
    {
      // By its id alone the database refuses it (products is keyed (eshop_id, id)); through
      // another column than the row's own eshop_id, it would name another eshop's product.
      when: 'a tenant table references a product without its own eshop_id',
      ddl: tenantTable(
        'product_eshop integer, product_id bigint, ' +
          'foreign key (product_eshop, product_id) references products (eshop_id, id)',
      ),
      found: [
        'probe_notes references products without eshop_id in the key ' +
          '(probe_notes_product_eshop_product_id_fkey: product_eshop->eshop_id,product_id->id)',
      ],
    },
    {
      when: 'a column names a row but is no foreign key',
      ddl: tenantTable('batch_id bigint not null'),
      found: ['probe_notes.batch_id looks like a reference but no foreign key covers it'],
    },
    {
      when: 'a tenant table references a design by its id alone',
      ddl: tenantTable('design_id integer references designs (id)'),
      found: [
        'probe_notes references designs, whose rows are public or of one eshop, without its owner ' +
          '(coalesce(eshop_id, 0)) in the key (probe_notes_design_id_fkey: design_id->id)',
      ],
    },
    {
      when: 'a design is referenced through its owner but nothing ties the owner to the eshop',
      ddl: tenantTable(
        'design_owner integer, design_id integer, foreign key (design_owner, design_id) references designs (owner, id)',
      ),
      found: [
        'probe_notes.design_owner may be null while probe_notes_design_owner_design_id_fkey is set, which leaves it unchecked',
        'probe_notes.design_owner names the owner of designs but no check ties it to eshop_id',
      ],
    },
    {
      when: 'a table without eshop_id references tenant rows, or an eshop_id is no key to eshops',
      ddl: `create table probe_notes (id serial primary key, eshop_id integer not null);
            create table probe_children (id serial primary key, product_eshop integer not null,
              product_ref bigint not null,
              foreign key (product_eshop, product_ref) references products (eshop_id, id))`,
      found: [
        'probe_children references tenant-owned products (probe_children_product_eshop_product_ref_fkey) but has no eshop_id',
        'probe_notes.eshop_id is not a foreign key to eshops',
        'probe_notes.eshop_id looks like a reference but no foreign key covers it',
      ],
    },
  ])('when $when, then the check names it', async ({ ddl, found }) => {
    expect(await findingsWith(ddl)).toEqual(found);
  });
});
