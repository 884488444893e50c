// Ready for a distributed PostgreSQL (Citus, sharded by eshop_id): the migrated schema follows the
// distribution rules except for the named, explained exceptions, and docs/scaling.md gives a
// create_distributed_table / create_reference_table line for every table.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createKnex, migrateLatest, type Knex } from '@catalogue/db';
import { REPO_ROOT, freshSiblingDatabase, testConfig, type SiblingDatabase } from '@catalogue/testing';
import { KNOWN_EXCEPTIONS, NOT_DISTRIBUTED, distributedTables, distributionFindings } from './distribution';

describe('the migrated schema, distributed by eshop_id', () => {
  let db: Knex;
  beforeAll(() => {
    db = createKnex(testConfig().database);
  });
  afterAll(() => db.destroy());

  test('when the catalog is read, then every key and foreign key of the distributed tables includes eshop_id, but for the known exceptions', async () => {
    const findings = await distributionFindings(db);
    expect(findings).toEqual(Object.keys(KNOWN_EXCEPTIONS).sort());
  });

  test('when docs/scaling.md is read, then it distributes or references every table of the schema, as the check classifies it', async () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs', 'scaling.md'), 'utf8');
    const distributedInDoc = [...doc.matchAll(/create_distributed_table\('(\w+)', 'eshop_id'/g)].map(
      (m) => m[1],
    );
    const referenceInDoc = [...doc.matchAll(/create_reference_table\('(\w+)'\)/g)].map((m) => m[1]);
    expect([...new Set(distributedInDoc)].sort()).toEqual(await distributedTables(db));
    const references = Object.entries(NOT_DISTRIBUTED)
      .filter(([, t]) => t.kind === 'reference')
      .map(([name]) => name);
    expect([...new Set(referenceInDoc)].sort()).toEqual(references.sort());
  });
});

describe('the distribution check itself', () => {
  let sibling: SiblingDatabase;

  beforeAll(async () => {
    sibling = await freshSiblingDatabase('distribution');
    await migrateLatest(sibling.db);
  });
  afterAll(() => sibling?.drop());

  /** Runs `ddl`, reads the findings beyond the known ones, and undoes the DDL. */
  async function findingsWith(ddl: string): Promise<string[]> {
    let found: string[] = [];
    await sibling.db
      .transaction(async (trx) => {
        await trx.raw(ddl);
        found = (await distributionFindings(trx)).filter((f) => !(f in KNOWN_EXCEPTIONS));
        throw new Error('rollback');
      })
      .catch((err: Error) => {
        if (err.message !== 'rollback') throw err;
      });
    return found;
  }

  test.each([
    {
      when: 'a tenant table is keyed by its id alone',
      ddl: 'create table probe_notes (eshop_id integer not null references eshops (id), id serial primary key)',
      found: ['probe_notes: primary key (id) without eshop_id'],
    },
    {
      when: 'a tenant table has a unique key or unique index without eshop_id',
      ddl: `create table probe_notes (eshop_id integer not null references eshops (id), id serial,
              code text unique, slug text, primary key (eshop_id, id));
            create unique index probe_notes_slug on probe_notes (slug)`,
      found: [
        'probe_notes: unique constraint probe_notes_code_key (code) without eshop_id',
        'probe_notes: unique index probe_notes_slug (slug) without eshop_id',
      ],
    },
    {
      when: 'a tenant table references another without its own eshop_id',
      ddl: `create table probe_notes (eshop_id integer not null references eshops (id), id serial,
              product_eshop integer, product_id bigint, primary key (eshop_id, id),
              foreign key (product_eshop, product_id) references products (eshop_id, id))`,
      found: [
        'probe_notes: probe_notes_product_eshop_product_id_fkey references products without eshop_id -> eshop_id',
      ],
    },
    {
      when: 'a table has no eshop_id and is not listed, or its eshop_id may be null',
      ddl: `create table probe_settings (key text primary key);
            create table probe_notes (eshop_id integer references eshops (id), id serial, primary key (id))`,
      found: [
        'probe_notes: eshop_id may be null',
        'probe_notes: primary key (id) without eshop_id',
        'probe_settings: no eshop_id and not listed as a reference or local table',
        'probe_settings: primary key (key) without eshop_id',
      ],
    },
    {
      when: 'a reference table references a distributed table',
      ddl:
        'alter table widgets add column product_eshop integer, add column product_ref bigint, ' +
        'add constraint probe_fk foreign key (product_eshop, product_ref) references products (eshop_id, id)',
      found: ['widgets: probe_fk references distributed products from a reference table'],
    },
  ])('when $when, then the check names it', async ({ ddl, found }) => {
    expect(await findingsWith(ddl)).toEqual(found);
  });
});
