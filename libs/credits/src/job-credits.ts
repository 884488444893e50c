/**
 * A generation job's credits from start to end, in one place: price the work, reserve the
 * estimate in the transaction that creates the job, charge the finished work — never more than
 * was reserved — and settle (settlement.ts). Each service makes one call per step.
 */
import { creditsRepository, type Knex } from '@catalogue/db';
import { estimateGeneration, type GenerationWork } from './estimate';

/** The most a job is charged: what it reserved. Both the worker's recorded charge and the settlement cap here. */
export function chargeable(cost: number, reserved: number): number {
  return Math.min(cost, reserved);
}

/** What `work` costs at the current price list (a new job's estimate, a finished job's cost). */
export async function priceGeneration(db: Knex, work: GenerationWork): Promise<number> {
  return estimateGeneration(await creditsRepository.prices(db), work).total;
}

export type JobReservation = { ok: true } | { ok: false; remaining: number };

/**
 * Holds `estimate` credits for a new job, in the transaction that creates the job row: one
 * conditional UPDATE decides under concurrency, so reservations never hold more than the balance.
 * When the balance does not cover it nothing is written and `remaining` says what there is.
 */
export async function reserveForJob(
  trx: Knex.Transaction,
  eshopId: number,
  jobId: number,
  estimate: number,
): Promise<JobReservation> {
  const reserved = await creditsRepository.reserve(trx, eshopId, jobId, estimate);
  return reserved.ok ? { ok: true } : { ok: false, remaining: reserved.account.remaining };
}

/**
 * What finished jobs are charged, the price list read once for all of them (the jobs one
 * transaction ends): each job's work at the current prices, capped at its reservation.
 */
export async function chargesFor(
  trx: Knex.Transaction,
): Promise<(reserved: number, work: GenerationWork) => number> {
  const prices = await creditsRepository.prices(trx);
  return (reserved, work) => chargeable(estimateGeneration(prices, work).total, reserved);
}
