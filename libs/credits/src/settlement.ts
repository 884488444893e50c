import { creditsRepository, type Knex } from '@catalogue/db';

export type SettlementOutcome = 'settled' | 'duplicate' | 'no_reservation';

export interface SettlementResult {
  outcome: SettlementOutcome;
  charged: number;
  released: number;
}

/**
 * Settles a job's reservation in the caller's transaction: charges what the job actually cost —
 * never more than it reserved — and releases the rest (a job that failed or never ran settles
 * with `actualCost` 0 and so gets everything released).
 *
 * Exactly once per job, whoever calls it and however often: the eshop's account row is locked,
 * the job's ledger rows are read under that lock, and a job that already has a charge or release
 * row is left alone ('duplicate'). Both writers use it: credit-service's settlement consumer and
 * the white-label API when it abandons a job it could not queue.
 */
export async function settleReservation(
  trx: Knex.Transaction,
  eshopId: number,
  jobId: number,
  actualCost: number,
): Promise<SettlementResult> {
  await creditsRepository.lockAccount(trx, eshopId);
  const job = await creditsRepository.jobCredits(trx, eshopId, jobId);
  if (job.settled) return { outcome: 'duplicate', charged: 0, released: 0 };
  if (job.reserved === 0) return { outcome: 'no_reservation', charged: 0, released: 0 };
  const charged = Math.min(actualCost, job.reserved);
  await creditsRepository.settle(trx, eshopId, jobId, job.reserved, charged);
  return { outcome: 'settled', charged, released: job.reserved - charged };
}
