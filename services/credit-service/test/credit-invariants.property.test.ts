import fc from 'fast-check';
import { adminService } from '@catalogue/admin';
import { createKnex, creditsRepository, type CreditAccount, type Knex } from '@catalogue/db';
import { makeEshop, makeGenerationJob, testConfig } from '@catalogue/testing';
import { settleJob, type SettlementResult } from '../src/services/settlement.service';

let db: Knex;

beforeAll(() => {
  db = createKnex(testConfig().database);
});

afterAll(async () => {
  await db.destroy();
});

type Operation =
  | { kind: 'topUp'; amount: number; viaAdmin: boolean }
  | { kind: 'reserve'; amount: number }
  | { kind: 'settle'; pick: number; actualCost: number }
  | { kind: 'fail'; pick: number }
  | { kind: 'redeliver'; pick: number; actualCost: number };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('topUp' as const),
      amount: fc.integer({ min: 1, max: 500 }),
      viaAdmin: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('reserve' as const),
      // 0 is drawn on purpose now and then: a job that holds nothing settles as no_reservation.
      amount: fc.oneof(
        { weight: 1, arbitrary: fc.constant(0) },
        { weight: 9, arbitrary: fc.integer({ min: 0, max: 300 }) },
      ),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('settle' as const),
      pick: fc.nat(),
      actualCost: fc.integer({ min: 0, max: 400 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('fail' as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('redeliver' as const),
      pick: fc.nat(),
      actualCost: fc.integer({ min: 0, max: 400 }),
    }),
  },
);

interface ModelJob {
  id: number;
  reserved: number;
  settled: boolean;
  charged: number;
}

/** What the database should hold for the eshop, kept independently of the code under test. */
interface Model {
  hasAccount: boolean;
  balance: number;
  reserved: number;
  ledgerRows: number;
  jobs: ModelJob[];
}

interface Snapshot {
  account: { balance: number; reserved: number } | null;
  ledgerAmount: number;
  ledgerReserved: number;
  ledgerRows: number;
}

async function snapshot(eshopId: number): Promise<Snapshot> {
  const account = await db('credit_accounts')
    .where({ eshop_id: eshopId })
    .first<{ balance: number; reserved: number } | undefined>('balance', 'reserved');
  const sums = await db('credit_ledger')
    .where({ eshop_id: eshopId })
    .first<{ amount: number; reserved: number; rows: number }>(
      db.raw('coalesce(sum(amount), 0)::bigint as amount'),
      db.raw('coalesce(sum(reserved_delta), 0)::bigint as reserved'),
      db.raw('count(*)::int as rows'),
    );
  return {
    account: account ?? null,
    ledgerAmount: sums.amount,
    ledgerReserved: sums.reserved,
    ledgerRows: sums.rows,
  };
}

interface JobRow {
  job_id: number;
  reservation: number;
  charged: number;
  held: number;
  settlements: number;
  charge_moves_both: boolean | null;
  others_keep_balance: boolean | null;
}

/** Every invariant of docs/decisions/0003-migrations-numbers-and-credits.md "Credits", read back from the database. */
async function checkDatabase(eshopId: number, model: Model): Promise<void> {
  const now = await snapshot(eshopId);

  // The account exists once credits were first added (an eshop created with 0 has none).
  if (model.hasAccount) expect(now.account).not.toBeNull();
  else expect(now.account).toBeNull();
  const balance = now.account?.balance ?? 0;
  const reserved = now.account?.reserved ?? 0;

  // The ledger explains the account exactly.
  expect(balance).toBe(now.ledgerAmount);
  expect(reserved).toBe(now.ledgerReserved);
  // Nothing is held that is not owned.
  expect(reserved).toBeGreaterThanOrEqual(0);
  expect(reserved).toBeLessThanOrEqual(balance);
  // And it is what the model predicts.
  expect(balance - reserved).toBe(model.balance - model.reserved);
  expect({ balance, reserved }).toEqual({ balance: model.balance, reserved: model.reserved });
  expect(now.ledgerRows).toBe(model.ledgerRows);

  const jobs = await db('credit_ledger')
    .where({ eshop_id: eshopId })
    .whereNotNull('job_id')
    .groupBy('job_id')
    .select<JobRow[]>(
      'job_id',
      db.raw(`coalesce(sum(reserved_delta) filter (where kind = 'reservation'), 0)::bigint as reservation`),
      db.raw(`coalesce(-sum(amount) filter (where kind = 'charge'), 0)::bigint as charged`),
      db.raw('sum(reserved_delta)::bigint as held'),
      db.raw(`count(*) filter (where kind in ('charge', 'release'))::int as settlements`),
      db.raw(`bool_and(amount = reserved_delta) filter (where kind = 'charge') as charge_moves_both`),
      db.raw(`bool_and(amount = 0) filter (where kind <> 'charge') as others_keep_balance`),
    );
  const byId = new Map(jobs.map((j) => [j.job_id, j]));
  expect(jobs).toHaveLength(model.jobs.length);
  for (const job of model.jobs) {
    const row = byId.get(job.id);
    expect(row).toBeDefined();
    // A charge never exceeds what the job reserved.
    expect(row!.charged).toBeGreaterThanOrEqual(0);
    expect(row!.charged).toBeLessThanOrEqual(row!.reservation);
    expect(row!.reservation).toBe(job.reserved);
    expect(row!.charged).toBe(job.charged);
    // A settled job holds nothing any more; an unsettled one holds its whole reservation.
    expect(row!.held).toBe(job.settled ? 0 : job.reserved);
    expect(row!.settlements > 0).toBe(job.settled);
    expect(row!.charge_moves_both ?? true).toBe(true);
    expect(row!.others_keep_balance ?? true).toBe(true);
  }
}

const accountOf = (eshopId: number, model: Model): CreditAccount => ({
  eshopId,
  balance: model.balance,
  reserved: model.reserved,
  remaining: model.balance - model.reserved,
});

/** Settles `job` with `actualCost` through the service and updates the model. */
async function settleAndModel(
  eshopId: number,
  model: Model,
  job: ModelJob,
  actualCost: number,
): Promise<void> {
  const result = await settleJob(db, { eshop_id: eshopId, job_id: job.id, actual_cost: actualCost });
  if (job.settled) {
    expect(result).toEqual<SettlementResult>({ outcome: 'duplicate', charged: 0, released: 0 });
    return;
  }
  if (job.reserved === 0) {
    // Nothing was held: there is nothing to charge or release, and the job stays unsettled.
    expect(result).toEqual<SettlementResult>({ outcome: 'no_reservation', charged: 0, released: 0 });
    return;
  }
  const charged = Math.min(actualCost, job.reserved);
  const released = job.reserved - charged;
  expect(result).toEqual<SettlementResult>({ outcome: 'settled', charged, released });
  model.balance -= charged;
  model.reserved -= job.reserved;
  model.ledgerRows += (charged > 0 ? 1 : 0) + (released > 0 || charged === 0 ? 1 : 0);
  job.settled = true;
  job.charged = charged;
}

async function apply(eshopId: number, model: Model, op: Operation): Promise<void> {
  const unsettled = model.jobs.filter((j) => !j.settled);
  const settled = model.jobs.filter((j) => j.settled);
  switch (op.kind) {
    case 'topUp': {
      const account = op.viaAdmin
        ? await adminService(db).topUp(eshopId, op.amount, 'property test')
        : await db.transaction((trx) => creditsRepository.topUp(trx, eshopId, op.amount, null));
      model.hasAccount = true;
      model.balance += op.amount;
      model.ledgerRows += 1;
      expect(account).toEqual(accountOf(eshopId, model));
      return;
    }
    case 'reserve': {
      // A real job row: the ledger's job reference is a foreign key (eshop_id, job_id).
      const jobId = await makeGenerationJob(db, eshopId);
      const before = await snapshot(eshopId);
      const result = await db.transaction((trx) => creditsRepository.reserve(trx, eshopId, jobId, op.amount));
      const fits = model.hasAccount && model.balance - model.reserved >= op.amount;
      if (!fits) {
        expect(result).toEqual({ ok: false, reason: 'insufficient', account: accountOf(eshopId, model) });
        // An insufficient reservation writes nothing at all.
        expect(await snapshot(eshopId)).toEqual(before);
        return;
      }
      model.reserved += op.amount;
      model.ledgerRows += 1;
      model.jobs.push({ id: jobId, reserved: op.amount, settled: false, charged: 0 });
      expect(result).toEqual({ ok: true, account: accountOf(eshopId, model) });
      return;
    }
    case 'settle':
    case 'fail': {
      const job = unsettled[op.pick % Math.max(unsettled.length, 1)];
      if (!job) return;
      await settleAndModel(eshopId, model, job, op.kind === 'fail' ? 0 : op.actualCost);
      return;
    }
    case 'redeliver': {
      const job = settled[op.pick % Math.max(settled.length, 1)];
      if (!job) return;
      const before = await snapshot(eshopId);
      await settleAndModel(eshopId, model, job, op.actualCost);
      // A redelivered settlement changes nothing.
      expect(await snapshot(eshopId)).toEqual(before);
      return;
    }
  }
}

describe('credit ledger invariants', () => {
  it('when any sequence of top-ups, reservations, settlements, failures and redeliveries runs, then after every step the ledger explains the account, 0 ≤ reserved ≤ balance and no charge exceeds its reservation', async () => {
    await fc.assert(
      fc.asyncProperty(
        // size 'max': sequences spread over the whole 1..25 range instead of staying short.
        fc.array(operation, { minLength: 1, maxLength: 25, size: 'max' }),
        async (operations) => {
          const { eshop } = await makeEshop(db, { credits: 0 });
          const model: Model = { hasAccount: false, balance: 0, reserved: 0, ledgerRows: 0, jobs: [] };
          await checkDatabase(eshop.id, model);
          for (const op of operations) {
            await apply(eshop.id, model, op);
            await checkDatabase(eshop.id, model);
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 60_000);
});
