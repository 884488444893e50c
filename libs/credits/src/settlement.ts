import { chargeable } from './job-credits';
import {
  creditsRepository,
  eventsRepository,
  generationBatchesRepository,
  generationJobsRepository,
  type Knex,
} from '@catalogue/db';

export type SettlementOutcome = 'settled' | 'duplicate' | 'no_reservation';

export interface SettlementResult {
  outcome: SettlementOutcome;
  charged: number;
  released: number;
  /**
   * The bulk generation the job was an item of (its item ended and the batch counted the charge
   * in this transaction): the caller lets the batch go on once this commits.
   */
  batchId?: number;
}

/**
 * A `credits.low` event when this settlement took the balance from at or above the eshop's level
 * to below it (once per crossing: the next charges below it say nothing until a top-up lifts the
 * balance again). Only a charge lowers the balance, so a settlement that releases everything —
 * the white-label API's abandon, which appends its own event after — never appends here.
 */
async function alertLowBalance(
  trx: Knex.Transaction,
  eshopId: number,
  before: number,
  after: number,
): Promise<void> {
  if (after >= before) return;
  const threshold = await creditsRepository.lowBalanceThreshold(trx, eshopId);
  if (threshold === null || before < threshold || after >= threshold) return;
  await eventsRepository.append(trx, eshopId, [
    {
      type: 'credits.low',
      entityType: 'credit_account',
      externalId: String(eshopId),
      data: { balance: after, threshold },
    },
  ]);
}

/**
 * Settles a job's reservation in the caller's transaction: charges what the job actually cost —
 * never more than it reserved — and releases the rest (a job that failed or never ran settles
 * with `actualCost` 0 and so gets everything released).
 *
 * Exactly once per job, whoever calls it and however often: the eshop's account row is locked,
 * the job's ledger rows are read under that lock, and a job that already has a charge or release
 * row is left alone ('duplicate'). Both writers use it: credit-service's settlement consumer and
 * the white-label API when it abandons a job it could not queue, and the stale-work sweeper for
 * a finished job whose settlement Redis lost, and the cancel of a bulk generation for its jobs
 * no worker started. A bulk generation's item is told its charge here too (`batchId`). Every outcome marks the job's reservation settled
 * (`reservation_settled`), in the same transaction, so the sweeper stops looking at it.
 */
export async function settleReservation(
  trx: Knex.Transaction,
  eshopId: number,
  jobId: number,
  actualCost: number,
): Promise<SettlementResult> {
  await creditsRepository.lockAccount(trx, eshopId);
  const job = await creditsRepository.jobCredits(trx, eshopId, jobId);
  await generationJobsRepository.markSettled(trx, eshopId, jobId);
  if (job.settled) return { outcome: 'duplicate', charged: 0, released: 0 };
  if (job.reserved === 0) return { outcome: 'no_reservation', charged: 0, released: 0 };
  const charged = chargeable(actualCost, job.reserved);
  const before = await creditsRepository.getAccount(trx, eshopId);
  const after = await creditsRepository.settle(trx, eshopId, jobId, job.reserved, charged);
  await alertLowBalance(trx, eshopId, before.balance, after.balance);
  // A bulk generation's item: the batch learns what it was charged, in this transaction (so
  // once, with the ledger's charge), and ends when it was its last item.
  const batchId = await generationBatchesRepository.settleJob(trx, eshopId, jobId, charged);
  if (batchId !== undefined) await generationBatchesRepository.finishIfComplete(trx, eshopId, batchId);
  return {
    outcome: 'settled',
    charged,
    released: job.reserved - charged,
    ...(batchId !== undefined && { batchId }),
  };
}

/**
 * `settleReservation` of many jobs of one eshop at once, in the caller's transaction (a bulk
 * generation's step settles its items so): the account locked first, the jobs' ledger rows read
 * under that lock in one statement, the unsettled ones charged (never more than each reserved)
 * and released with one multi-row ledger insert and one account UPDATE, their batch items and
 * batches told in one statement each, and each batch ended when it was its last items. Each job
 * is settled once, whoever settles it too: a job already charged or released is left alone, and
 * the ledger's unique (job, kind) refuses a second charge in any case.
 */
export async function settleReservations(
  trx: Knex.Transaction,
  eshopId: number,
  jobs: readonly { jobId: number; actualCost: number }[],
): Promise<{ settled: number; charged: number; released: number; batchIds: number[] }> {
  await creditsRepository.lockAccount(trx, eshopId);
  const ids = jobs.map((j) => j.jobId);
  const credits = await creditsRepository.jobCreditsMany(trx, eshopId, ids);
  await generationJobsRepository.markSettledMany(trx, eshopId, ids);
  const due = jobs.flatMap(({ jobId, actualCost }) => {
    const job = credits.get(jobId);
    if (!job || job.settled || job.reserved === 0) return [];
    return [{ jobId, reserved: job.reserved, charge: chargeable(actualCost, job.reserved) }];
  });
  if (due.length === 0) return { settled: 0, charged: 0, released: 0, batchIds: [] };
  const before = await creditsRepository.getAccount(trx, eshopId);
  const after = await creditsRepository.settleMany(trx, eshopId, due);
  await alertLowBalance(trx, eshopId, before.balance, after.balance);
  const batchIds = await generationBatchesRepository.settleJobs(
    trx,
    eshopId,
    due.map((d) => ({ jobId: d.jobId, charged: d.charge })),
  );
  for (const batchId of batchIds) await generationBatchesRepository.finishIfComplete(trx, eshopId, batchId);
  const charged = due.reduce((sum, d) => sum + d.charge, 0);
  const reserved = due.reduce((sum, d) => sum + d.reserved, 0);
  return { settled: due.length, charged, released: reserved - charged, batchIds };
}
