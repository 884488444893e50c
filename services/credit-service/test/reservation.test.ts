import { creditsRepository, createKnex, type Knex } from '@catalogue/db';
import { makeEshop, makeGenerationJob, testConfig } from '@catalogue/testing';

async function ledgerSums(db: Knex, eshopId: number) {
  const row = await db('credit_ledger')
    .where({ eshop_id: eshopId })
    .first<{ amount: number; reserved: number }>(
      db.raw('coalesce(sum(amount), 0)::int as amount'),
      db.raw('coalesce(sum(reserved_delta), 0)::int as reserved'),
    );
  return row;
}

describe('credit reservations', () => {
  let db: Knex;
  beforeAll(() => {
    // Enough connections for the reservations to really run at the same time.
    db = createKnex({ ...testConfig().database, poolMax: 25 });
  });
  afterAll(() => db.destroy());

  test('when 50 jobs reserve at once against a balance that covers 10, then exactly 10 succeed', async () => {
    const shop = await makeEshop(db, { credits: 100 });
    const eshopId = shop.eshop.id;
    const jobs: number[] = [];
    for (let i = 0; i < 50; i += 1) jobs.push(await makeGenerationJob(db, eshopId));

    const results = await Promise.all(
      jobs.map((jobId) => db.transaction((trx) => creditsRepository.reserve(trx, eshopId, jobId, 10))),
    );

    expect(results.filter((r) => r.ok)).toHaveLength(10);
    expect(results.filter((r) => !r.ok).every((r) => r.reason === 'insufficient')).toBe(true);
    const account = await creditsRepository.getAccount(db, eshopId);
    expect(account).toEqual({ eshopId, balance: 100, reserved: 100, remaining: 0 });
    expect(await ledgerSums(db, eshopId)).toEqual({ amount: 100, reserved: 100 });
    const reservations = await db('credit_ledger')
      .where({ eshop_id: eshopId, kind: 'reservation' })
      .count<{ count: number }[]>({ count: '*' });
    expect(reservations[0]!.count).toBe(10);
  });

  test('when the balance does not cover a reservation, then it answers insufficient and writes nothing', async () => {
    const shop = await makeEshop(db, { credits: 5 });
    const eshopId = shop.eshop.id;

    const result = await db.transaction((trx) => creditsRepository.reserve(trx, eshopId, 1, 6));

    expect(result).toEqual({
      ok: false,
      reason: 'insufficient',
      account: { eshopId, balance: 5, reserved: 0, remaining: 5 },
    });
    expect(await ledgerSums(db, eshopId)).toEqual({ amount: 5, reserved: 0 });
  });

  test('when an eshop has never had credits, then a reservation is insufficient', async () => {
    const shop = await makeEshop(db, { credits: 0 });
    const result = await db.transaction((trx) => creditsRepository.reserve(trx, shop.eshop.id, 1, 1));
    expect(result.ok).toBe(false);
  });

  test('when the transaction that reserved rolls back, then the reservation is gone too', async () => {
    const shop = await makeEshop(db, { credits: 50 });
    const eshopId = shop.eshop.id;
    const jobId = await makeGenerationJob(db, eshopId);

    await expect(
      db.transaction(async (trx) => {
        await creditsRepository.reserve(trx, eshopId, jobId, 20);
        throw new Error('creating the job failed');
      }),
    ).rejects.toThrow('creating the job failed');

    expect(await creditsRepository.getAccount(db, eshopId)).toMatchObject({ balance: 50, reserved: 0 });
    expect(await ledgerSums(db, eshopId)).toEqual({ amount: 50, reserved: 0 });
  });
});
