// credits.low: the settlement that charges the balance from the eshop's level or above
// to below it writes one event, in its transaction; charges below it write none until a top-up
// lifts the balance again; no level, no event; releases never write one.
import { creditsRepository, eventsRepository, type Knex } from '@catalogue/db';
import { makeEshop, makeGenerationJob, testConfig } from '@catalogue/testing';
import { buildDeps, closeDeps, type Deps } from '../src/deps';
import { settleJob } from '../src/services/settlement.service';

describe('credits.low', () => {
  let deps: Deps;
  beforeAll(() => {
    deps = buildDeps(testConfig());
  });
  afterAll(() => closeDeps(deps));

  async function charge(db: Knex, eshopId: number, amount: number, actual = amount): Promise<void> {
    const jobId = await makeGenerationJob(db, eshopId);
    await db.transaction((trx) => creditsRepository.reserve(trx, eshopId, jobId, amount));
    await settleJob(db, { eshop_id: eshopId, job_id: jobId, actual_cost: actual });
  }
  const lowEvents = async (eshopId: number) =>
    (await eventsRepository.listAfter(deps.db, eshopId, 0, 100)).filter((e) => e.type === 'credits.low');

  test('when a charge crosses the level, then one event says the balance and the level; charges below it say nothing until a top-up lifts it', async () => {
    const { eshop } = await makeEshop(deps.db, { credits: 120 });
    await creditsRepository.setLowBalanceThreshold(deps.db, eshop.id, 100);

    await charge(deps.db, eshop.id, 15); // 105: still at or above
    await charge(deps.db, eshop.id, 10); // 95: crossed
    await charge(deps.db, eshop.id, 10); // 85: below already
    expect((await lowEvents(eshop.id)).map((e) => e.data)).toEqual([{ balance: 95, threshold: 100 }]);

    await deps.db.transaction((trx) => creditsRepository.topUp(trx, eshop.id, 50, 'test top-up')); // 135
    await charge(deps.db, eshop.id, 40); // 95: crossed again
    expect((await lowEvents(eshop.id)).map((e) => e.data)).toEqual([
      { balance: 95, threshold: 100 },
      { balance: 95, threshold: 100 },
    ]);
    expect((await lowEvents(eshop.id))[0]).toMatchObject({
      entityType: 'credit_account',
      externalId: String(eshop.id),
    });
  });

  test('when no level is set, or the settlement releases everything, then no event', async () => {
    const { eshop } = await makeEshop(deps.db, { credits: 120 });
    await charge(deps.db, eshop.id, 50);
    await creditsRepository.setLowBalanceThreshold(deps.db, eshop.id, 100);
    await charge(deps.db, eshop.id, 30, 0); // reserved 30, released all: the balance stays 70

    expect(await lowEvents(eshop.id)).toEqual([]);
  });
});
