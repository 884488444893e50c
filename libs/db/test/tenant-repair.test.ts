// The migration that adds the tenant references first repairs rows that break them. Those rows
// are written here with the constraints absent (schema as it was before the migration), then
// the migration runs and what it kept, removed and logged is checked.
import { migrateLatest, migrateUpTo, type Knex, type LedgerKind } from '@catalogue/db';
import { freshSiblingDatabase, type SiblingDatabase } from '@catalogue/testing';
import { tenancyViolations } from './tenancy-catalog';

const BEFORE = '20261122000100_white_label_entities';
const MIGRATION = '20261123000100_tenant_references';

describe(`migration ${MIGRATION} on rows written before it`, () => {
  let sibling: SiblingDatabase;
  let db: Knex;

  beforeAll(async () => {
    sibling = await freshSiblingDatabase('repair');
    db = sibling.db;
    await migrateUpTo(db, BEFORE);
  });

  afterAll(() => sibling?.drop());

  const insert = async (table: string, row: Record<string, unknown>): Promise<number> => {
    const [written] = await db(table).insert(row).returning<{ id: number }[]>('id');
    return written!.id;
  };

  test('when rows name other eshops’ rows, then they are removed or detached, counted per table, and good rows stay', async () => {
    // Arrange: eshops A and B, each with good rows and with rows naming the other's rows.
    const a = await insert('eshops', { name: 'A' });
    const b = await insert('eshops', { name: 'B' });
    const productA = await insert('products', { eshop_id: a, external_id: 'P1' });
    for (const id of ['P2', 'P3']) await insert('products', { eshop_id: a, external_id: id });
    const productB = await insert('products', { eshop_id: b, external_id: 'P1' });
    // Categories have ids of their own: B's third category has the id of A's third product,
    // which the old single-column key accepted as the variant's product.
    for (const id of ['C1', 'C2']) await insert('categories', { eshop_id: b, external_id: id });
    const categoryB = await insert('categories', { eshop_id: b, external_id: 'C3' });
    expect(await db('products').where({ id: categoryB }).first('eshop_id')).toEqual({ eshop_id: a });
    const goodVariant = await insert('product_variants', { eshop_id: a, product_id: productA, code: 'ok' });
    await insert('product_variants', { eshop_id: a, product_id: productB, code: 'foreign product' });
    await insert('product_variants', { eshop_id: b, product_id: categoryB, code: 'a category' });
    const parameterA = await insert('parameters', { eshop_id: a, external_id: 1, name: 'Size' });
    const goodValue = await insert('parameter_values', {
      eshop_id: a,
      parameter_id: parameterA,
      external_id: 1,
      value: '42',
    });
    await insert('parameter_values', { eshop_id: b, parameter_id: parameterA, external_id: 1, value: 'x' });
    const batchA = await insert('listing_batches', { eshop_id: a, format: 'json', rows_total: 1 });
    const goodRow = await insert('listing_rows', { eshop_id: a, batch_id: batchA, external_id: 'R1' });
    await insert('listing_rows', { eshop_id: b, batch_id: batchA, external_id: 'R1' });
    const design = { category: 'product', hash: 'x'.repeat(64) };
    const publicDesign = await insert('designs', { ...design, name: 'Public', type: 'public' });
    const designA = await insert('designs', { ...design, name: 'A', type: 'custom', eshop_id: a });
    const designB = await insert('designs', { ...design, name: 'B', type: 'custom', eshop_id: b });
    const entity = (entity_id: string, design_id: number) => ({
      eshop_id: a,
      type: 'product',
      entity_id,
      design_id,
    });
    const usesForeign = await insert('wl_entities', entity('E1', designB));
    const usesOwn = await insert('wl_entities', entity('E2', designA));
    const usesPublic = await insert('wl_entities', entity('E3', publicDesign));
    const job = (entity_id: string, design_id: number, status: string) => ({
      eshop_id: a,
      entity_type: 'product',
      entity_id,
      design_id,
      status,
      lang: 'default',
    });
    const goodJob = await insert('generation_jobs', job('E2', designA, 'pending'));
    const foreignDesignJob = await insert('generation_jobs', job('E1', designB, 'pending'));
    const unregisteredJob = await insert('generation_jobs', job('ghost', publicDesign, 'done'));
    // A: top-up 100; the good job holds 5, the foreign-design job 10; the unregistered job
    // was charged 3. B has a ledger row but no account.
    await db('credit_accounts').insert({ eshop_id: a, balance: 97, reserved: 15 });
    const ledger = (kind: LedgerKind, amount: number, reserved_delta: number, job_id: number | null) => ({
      eshop_id: a,
      kind,
      amount,
      reserved_delta,
      job_id,
      reason: kind,
    });
    await db('credit_ledger').insert([
      ledger('topup', 100, 0, null),
      ledger('reservation', 0, 5, goodJob),
      ledger('reservation', 0, 10, foreignDesignJob),
      ledger('reservation', 0, 3, unregisteredJob),
      ledger('charge', -3, -3, unregisteredJob),
      { eshop_id: b, kind: 'adjustment', amount: 7, reserved_delta: 0 },
    ]);
    const logged: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      logged.push(String(chunk));
      return true;
    });

    // Act
    let applied: string[];
    try {
      applied = await migrateLatest(db);
    } finally {
      write.mockRestore();
    }

    // Assert: what was logged, kept, removed and detached.
    expect(applied).toContain(MIGRATION);
    expect(logged.map((line) => JSON.parse(line) as unknown)).toContainEqual({
      migration: MIGRATION,
      repaired: {
        'product_variants deleted': 2,
        'parameter_values deleted': 1,
        'listing_rows deleted': 1,
        'wl_entities design_id cleared': 1,
        'generation_jobs deleted': 2,
        'credit_accounts created': 1,
        'credit_ledger reservations released': 1,
        'credit_ledger job_id cleared': 3,
      },
    });
    const ids = async (table: string) => (await db(table).orderBy('id').pluck('id')) as number[];
    expect(await ids('product_variants')).toEqual([goodVariant]);
    expect(await ids('parameter_values')).toEqual([goodValue]);
    expect(await ids('listing_rows')).toEqual([goodRow]);
    expect(await ids('generation_jobs')).toEqual([goodJob]);
    expect(await db('wl_entities').orderBy('id').select('id', 'design_id', 'design_owner')).toEqual([
      // Detached from the other eshop's design, then given the eshop's default design of its type by
      // the later 20261126000300_entity_default_design (the only public design here).
      { id: usesForeign, design_id: publicDesign, design_owner: 0 },
      { id: usesOwn, design_id: designA, design_owner: a },
      { id: usesPublic, design_id: publicDesign, design_owner: 0 },
    ]);
    expect(await db('generation_jobs').where({ id: goodJob }).first('design_owner')).toEqual({
      design_owner: a,
    });
    // Money is never deleted: every amount stays, the held 10 credits are released, and the
    // ledger still adds up to each account.
    const sums = await db('credit_ledger')
      .groupBy('eshop_id')
      .orderBy('eshop_id')
      .select(
        'eshop_id',
        db.raw('sum(amount)::int as balance'),
        db.raw('sum(reserved_delta)::int as reserved'),
      );
    expect(sums).toEqual([
      { eshop_id: a, balance: 97, reserved: 5 },
      { eshop_id: b, balance: 7, reserved: 0 },
    ]);
    expect(await db('credit_accounts').orderBy('eshop_id').select('eshop_id', 'balance', 'reserved')).toEqual(
      [
        { eshop_id: a, balance: 97, reserved: 5 },
        { eshop_id: b, balance: 7, reserved: 0 },
      ],
    );
    expect(
      await db('credit_ledger').whereNull('job_id').where({ eshop_id: a }).orderBy('id').pluck('reason'),
    ).toEqual([
      'topup',
      `reservation (job ${foreignDesignJob} not found)`,
      `reservation (job ${unregisteredJob} not found)`,
      `charge (job ${unregisteredJob} not found)`,
      `reservation of missing job ${foreignDesignJob} released (migration ${MIGRATION})`,
    ]);
    expect(await tenancyViolations(db)).toEqual([]);
  });
});
