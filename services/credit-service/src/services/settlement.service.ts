import { creditsRepository, type Knex } from '@catalogue/db';
import type { JobPayloads } from '@catalogue/queue';

export type SettlementOutcome = 'settled' | 'duplicate' | 'no_reservation';

export interface SettlementResult {
  outcome: SettlementOutcome;
  charged: number;
  released: number;
}

/** The settlement payload is not something a retry could fix. */
export class InvalidSettlementError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidSettlementError';
  }
}

function checkPayload(payload: JobPayloads['credit-settlement']): void {
  for (const key of ['eshop_id', 'job_id'] as const) {
    if (!Number.isSafeInteger(payload[key]) || payload[key] <= 0) {
      throw new InvalidSettlementError(`${key} must be a positive integer`);
    }
  }
  if (!Number.isSafeInteger(payload.actual_cost) || payload.actual_cost < 0) {
    throw new InvalidSettlementError('actual_cost must be a whole number ≥ 0');
  }
}

/**
 * Charges what a finished job actually cost — never more than it reserved — and releases
 * the rest; a failed job settles with actual_cost 0 and so gets everything released.
 *
 * Exactly once per job, however often the job is delivered: the eshop's account row is
 * locked, the job's ledger rows are read under that lock, and a job that already has a
 * charge or release row is a no-op. Everything happens in one transaction, so a worker that
 * dies before the commit leaves nothing behind and one that dies after it (before the ack)
 * finds the job settled on redelivery.
 */
export async function settleJob(
  db: Knex,
  payload: JobPayloads['credit-settlement'],
): Promise<SettlementResult> {
  checkPayload(payload);
  return db.transaction(async (trx) => {
    await creditsRepository.lockAccount(trx, payload.eshop_id);
    const job = await creditsRepository.jobCredits(trx, payload.eshop_id, payload.job_id);
    if (job.settled) return { outcome: 'duplicate', charged: 0, released: 0 };
    if (job.reserved === 0) return { outcome: 'no_reservation', charged: 0, released: 0 };
    const charged = Math.min(payload.actual_cost, job.reserved);
    await creditsRepository.settle(trx, payload.eshop_id, payload.job_id, job.reserved, charged);
    return { outcome: 'settled', charged, released: job.reserved - charged };
  });
}
