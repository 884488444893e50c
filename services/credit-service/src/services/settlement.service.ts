import { settleReservation, type SettlementResult } from '@catalogue/credits';
import type { Knex } from '@catalogue/db';
import type { JobPayloads } from '@catalogue/queue';

export type { SettlementOutcome, SettlementResult } from '@catalogue/credits';

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
 * The credit-settlement job: checks the payload, then settles the job's reservation once
 * (`settleReservation`, libs/credits) in one transaction, so a worker that dies before the
 * commit leaves nothing behind and one that dies after it (before the ack) finds the job
 * settled on redelivery.
 */
export async function settleJob(
  db: Knex,
  payload: JobPayloads['credit-settlement'],
): Promise<SettlementResult> {
  checkPayload(payload);
  return db.transaction((trx) =>
    settleReservation(trx, payload.eshop_id, payload.job_id, payload.actual_cost),
  );
}
