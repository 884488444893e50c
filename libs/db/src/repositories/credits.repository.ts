import type { Knex } from 'knex';
import { checkedRows } from '../sql-rows';
import type { Insert, Row } from '../tables';
import { keysFrom } from './tenant-keys';

export type LedgerKind = 'topup' | 'reservation' | 'charge' | 'release' | 'adjustment';

export interface CreditAccount {
  eshopId: number;
  balance: number;
  reserved: number;
  /** What a new generation may still reserve: balance minus what is held for running jobs. */
  remaining: number;
}

export interface LedgerEntry {
  id: number;
  kind: LedgerKind;
  amount: number;
  reservedDelta: number;
  jobId: number | null;
  reason: string | null;
  createdAt: Date;
}

export interface CreditPrice {
  operation: string;
  unit: string;
  price: number;
  description: string;
  updatedAt: Date;
}

export type ReservationResult =
  { ok: true; account: CreditAccount } | { ok: false; reason: 'insufficient'; account: CreditAccount };

/** What the ledger holds for one job: its reservation and whether it was settled. */
export interface JobCredits {
  reserved: number;
  settled: boolean;
}

export const creditsRepository = {
  async getAccount(db: Knex | Knex.Transaction, eshopId: number): Promise<CreditAccount> {
    const row = await db('credit_accounts')
      .select('balance', 'reserved')
      .where({ eshop_id: eshopId })
      .first();
    const balance = row?.balance ?? 0;
    const reserved = row?.reserved ?? 0;
    return { eshopId, balance, reserved, remaining: balance - reserved };
  },

  /**
   * Adds credits and records why. Must run inside a transaction so the ledger row and the
   * balance change land together.
   */
  async topUp(
    trx: Knex.Transaction,
    eshopId: number,
    amount: number,
    reason: string | null,
  ): Promise<CreditAccount> {
    await trx('credit_accounts')
      .insert({ eshop_id: eshopId, balance: amount })
      .onConflict('eshop_id')
      .merge({
        balance: trx.raw('credit_accounts.balance + excluded.balance'),
        updated_at: trx.fn.now(6),
      });
    await trx('credit_ledger').insert({
      eshop_id: eshopId,
      kind: 'topup',
      amount,
      reserved_delta: 0,
      reason,
    });
    return this.getAccount(trx, eshopId);
  },

  /**
   * Holds `amount` credits for a job, in the caller's transaction (the one that creates the
   * job). A single conditional UPDATE decides: it only matches while balance − reserved
   * covers the amount, so concurrent reservations can never hold more than the balance.
   * Returns "insufficient" (and writes nothing) instead of throwing.
   */
  async reserve(
    trx: Knex.Transaction,
    eshopId: number,
    jobId: number,
    amount: number,
  ): Promise<ReservationResult> {
    const updated = await trx('credit_accounts')
      .where({ eshop_id: eshopId })
      .andWhereRaw('balance - reserved >= ?', [amount])
      .update({ reserved: trx.raw('reserved + ?', [amount]), updated_at: trx.fn.now(6) })
      .returning(['balance', 'reserved']);
    const row = updated[0];
    if (!row) return { ok: false, reason: 'insufficient', account: await this.getAccount(trx, eshopId) };
    await trx('credit_ledger').insert({
      eshop_id: eshopId,
      kind: 'reservation',
      amount: 0,
      reserved_delta: amount,
      job_id: jobId,
      reason: 'generation reserved',
    });
    return {
      ok: true,
      account: {
        eshopId,
        balance: row.balance,
        reserved: row.reserved,
        remaining: row.balance - row.reserved,
      },
    };
  },

  /**
   * `reserve` for many jobs at once (a bulk generation's step): one conditional UPDATE holds
   * their sum from the account, one multi-row insert writes each job's ledger reservation (the
   * settlement reads a job's reservation from its own row). All or nothing: false, and nothing
   * written, when the balance does not cover the sum.
   */
  async reserveMany(
    trx: Knex.Transaction,
    eshopId: number,
    reservations: readonly { jobId: number; amount: number }[],
  ): Promise<boolean> {
    const total = reservations.reduce((sum, r) => sum + r.amount, 0);
    if (reservations.length === 0) return true;
    const updated = await trx('credit_accounts')
      .where({ eshop_id: eshopId })
      .andWhereRaw('balance - reserved >= ?', [total])
      .update({ reserved: trx.raw('reserved + ?', [total]), updated_at: trx.fn.now(6) });
    if (updated !== 1) return false;
    await trx('credit_ledger').insert(
      reservations.map((r) => ({
        eshop_id: eshopId,
        kind: 'reservation',
        amount: 0,
        reserved_delta: r.amount,
        job_id: r.jobId,
        reason: 'generation reserved',
      })),
    );
    return true;
  },

  /** `jobCredits` of many jobs in one statement, by job id (a job without ledger rows: 0, unsettled). */
  async jobCreditsMany(
    db: Knex | Knex.Transaction,
    eshopId: number,
    jobIds: readonly number[],
  ): Promise<Map<number, JobCredits>> {
    const out = new Map<number, JobCredits>(jobIds.map((id) => [id, { reserved: 0, settled: false }]));
    if (jobIds.length === 0) return out;
    const found = await db
      .from(keysFrom(db, eshopId, jobIds, { column: 'job_id', type: 'bigint' }))
      .join('credit_ledger as l', (join) => join.on('l.eshop_id', 'k.eshop_id').andOn('l.job_id', 'x.job_id'))
      .select('l.job_id', 'l.kind', 'l.reserved_delta');
    const rows = checkedRows<Pick<Row<'credit_ledger'>, 'job_id' | 'kind' | 'reserved_delta'>>(found, [
      'job_id',
      'kind',
      'reserved_delta',
    ]);
    for (const row of rows) {
      const credits = out.get(Number(row.job_id));
      if (!credits) continue;
      if (row.kind === 'reservation') credits.reserved += row.reserved_delta;
      if (row.kind === 'charge' || row.kind === 'release') credits.settled = true;
    }
    return out;
  },

  /**
   * `settle` for many jobs at once: one multi-row insert of their charge and release rows (the
   * (eshop, job, kind) unique index still refuses a second settlement of any of them) and one
   * UPDATE of the account.
   */
  async settleMany(
    trx: Knex.Transaction,
    eshopId: number,
    settlements: readonly { jobId: number; reserved: number; charge: number }[],
  ): Promise<CreditAccount> {
    const rows: Insert<'credit_ledger'>[] = [];
    let charged = 0;
    let reserved = 0;
    for (const { jobId, reserved: held, charge } of settlements) {
      charged += charge;
      reserved += held;
      const release = held - charge;
      if (charge > 0) {
        rows.push({
          eshop_id: eshopId,
          kind: 'charge',
          amount: -charge,
          reserved_delta: -charge,
          job_id: jobId,
          reason: 'generation charged',
        });
      }
      if (release > 0 || charge === 0) {
        rows.push({
          eshop_id: eshopId,
          kind: 'release',
          amount: 0,
          reserved_delta: -release,
          job_id: jobId,
          reason: 'reservation released',
        });
      }
    }
    if (rows.length > 0) await trx('credit_ledger').insert(rows);
    await trx('credit_accounts')
      .where({ eshop_id: eshopId })
      .update({
        balance: trx.raw('balance - ?', [charged]),
        reserved: trx.raw('reserved - ?', [reserved]),
        updated_at: trx.fn.now(6),
      });
    return this.getAccount(trx, eshopId);
  },

  /**
   * Locks the eshop's account row until the transaction ends, so settlements of one eshop
   * run one after another and each sees what the previous one wrote.
   */
  async lockAccount(trx: Knex.Transaction, eshopId: number): Promise<void> {
    await trx('credit_accounts').where({ eshop_id: eshopId }).forUpdate().first('eshop_id');
  },

  /** The balance below which the eshop wants a `credits.low` event (null: none). */
  async lowBalanceThreshold(db: Knex | Knex.Transaction, eshopId: number): Promise<number | null> {
    const row = await db('credit_accounts').where({ eshop_id: eshopId }).first('low_balance_threshold');
    return row?.low_balance_threshold ?? null;
  },

  /** Sets (or, with null, clears) the eshop's low-balance level; an eshop never topped up gets its account row now. */
  async setLowBalanceThreshold(
    db: Knex | Knex.Transaction,
    eshopId: number,
    threshold: number | null,
  ): Promise<void> {
    await db('credit_accounts')
      .insert({ eshop_id: eshopId, low_balance_threshold: threshold })
      .onConflict('eshop_id')
      .merge({ low_balance_threshold: threshold, updated_at: db.fn.now(6) });
  },

  async jobCredits(db: Knex | Knex.Transaction, eshopId: number, jobId: number): Promise<JobCredits> {
    // Joined on the keys (keysFrom): by stale statistics a walk of the eshop's ledger through
    // (eshop_id, id) costs the same as the probe of (eshop_id, job_id, kind).
    const found = await db
      .from(keysFrom(db, eshopId, [jobId], { column: 'job_id', type: 'bigint' }))
      .join('credit_ledger as l', (join) => join.on('l.eshop_id', 'k.eshop_id').andOn('l.job_id', 'x.job_id'))
      .select('l.kind', 'l.reserved_delta');
    const rows = checkedRows<Pick<Row<'credit_ledger'>, 'kind' | 'reserved_delta'>>(found, [
      'kind',
      'reserved_delta',
    ]);
    return {
      reserved: rows.filter((r) => r.kind === 'reservation').reduce((sum, r) => sum + r.reserved_delta, 0),
      settled: rows.some((r) => r.kind === 'charge' || r.kind === 'release'),
    };
  },

  /**
   * Settles a job: charges `charge` (taken from the balance and from the reservation) and
   * releases the rest of `reserved`. The (eshop, job, kind) unique index makes a second
   * settlement of the same job fail instead of double-charging.
   */
  async settle(
    trx: Knex.Transaction,
    eshopId: number,
    jobId: number,
    reserved: number,
    charge: number,
  ): Promise<CreditAccount> {
    return this.settleMany(trx, eshopId, [{ jobId, reserved, charge }]);
  },

  async prices(db: Knex | Knex.Transaction): Promise<CreditPrice[]> {
    const rows = await db('credit_prices')
      .select('operation', 'unit', 'price', 'description', 'updated_at')
      .orderBy('operation');
    return rows.map((r) => ({
      operation: r.operation,
      unit: r.unit,
      price: r.price,
      description: r.description,
      updatedAt: r.updated_at,
    }));
  },

  async ledger(db: Knex | Knex.Transaction, eshopId: number, limit: number): Promise<LedgerEntry[]> {
    const rows = await db('credit_ledger')
      .select('id', 'kind', 'amount', 'reserved_delta', 'job_id', 'reason', 'created_at')
      .where({ eshop_id: eshopId })
      .orderBy('id', 'desc')
      .limit(limit);
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      amount: r.amount,
      reservedDelta: r.reserved_delta,
      jobId: r.job_id,
      reason: r.reason,
      createdAt: r.created_at,
    }));
  },
};
