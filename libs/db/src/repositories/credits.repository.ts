import type { Knex } from 'knex';

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

interface LedgerRow {
  id: number;
  kind: LedgerKind;
  amount: number;
  reserved_delta: number;
  job_id: number | null;
  reason: string | null;
  created_at: Date;
}

export const creditsRepository = {
  async getAccount(db: Knex | Knex.Transaction, eshopId: number): Promise<CreditAccount> {
    const row = await db('credit_accounts')
      .select<{ balance: number; reserved: number }>('balance', 'reserved')
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

  async ledger(db: Knex | Knex.Transaction, eshopId: number, limit: number): Promise<LedgerEntry[]> {
    const rows = await db('credit_ledger')
      .select<LedgerRow[]>('id', 'kind', 'amount', 'reserved_delta', 'job_id', 'reason', 'created_at')
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
