import type { Knex } from 'knex';
import { runRaw } from '../sql-rows';

/** A stored Idempotency-Key of an eshop: a running request (no response yet) or its outcome. */
export interface IdempotencyRecord {
  fingerprint: string;
  /** null while the first request runs. */
  responseStatus: number | null;
  responseBody: string | null;
  responseContentType: string | null;
}

export interface IdempotencyClaim {
  eshopId: number;
  key: string;
  fingerprint: string;
  /** Names this attempt: only the holder may store the outcome or let the key go. */
  lockId: string;
  /** After this long a running key counts as abandoned (its process died). */
  lockSeconds: number;
  /** How long the outcome is replayed. */
  ttlSeconds: number;
}

export const idempotencyRepository = {
  /**
   * Takes the key for this attempt, in its own statement (committed at once, so a concurrent
   * attempt sees it): a new key, an expired one, or one whose attempt was abandoned with the
   * same request. Returns false when another attempt holds it or its outcome is still kept.
   */
  async claim(db: Knex, claim: IdempotencyClaim): Promise<boolean> {
    const result = await runRaw(
      db,
      `insert into idempotency_keys (eshop_id, key, fingerprint, lock_id, locked_until, expires_at)
       values (?, ?, ?, ?, now() + make_interval(secs => ?), now() + make_interval(secs => ?))
       on conflict (eshop_id, key) do update set
         fingerprint = excluded.fingerprint,
         lock_id = excluded.lock_id,
         response_status = null,
         response_body = null,
         response_content_type = null,
         created_at = now(),
         locked_until = excluded.locked_until,
         expires_at = excluded.expires_at
       where idempotency_keys.expires_at <= now()
          or (idempotency_keys.response_status is null
              and idempotency_keys.locked_until <= now()
              and idempotency_keys.fingerprint = excluded.fingerprint)`,
      [claim.eshopId, claim.key, claim.fingerprint, claim.lockId, claim.lockSeconds, claim.ttlSeconds],
    );
    return result.rowCount === 1;
  },

  /** The key as stored, unless it expired. */
  async find(db: Knex, eshopId: number, key: string): Promise<IdempotencyRecord | undefined> {
    const row = await db('idempotency_keys')
      .select('fingerprint', 'response_status', 'response_body', 'response_content_type')
      .where({ eshop_id: eshopId, key })
      .where('expires_at', '>', db.fn.now())
      .first();
    return row
      ? {
          fingerprint: row.fingerprint,
          responseStatus: row.response_status,
          responseBody: row.response_body,
          responseContentType: row.response_content_type,
        }
      : undefined;
  },

  /**
   * Stores the outcome of the attempt that holds the key; false (nothing stored) for an attempt
   * that lost it. Run in the transaction of the write it protects, the outcome commits with it.
   */
  async complete(
    db: Knex,
    eshopId: number,
    key: string,
    lockId: string,
    response: { status: number; body: string; contentType: string },
  ): Promise<boolean> {
    const updated = await db('idempotency_keys')
      .where({ eshop_id: eshopId, key, lock_id: lockId })
      .whereNull('response_status')
      .update({
        response_status: response.status,
        response_body: response.body,
        response_content_type: response.contentType,
      });
    return updated === 1;
  },

  /**
   * Lets the key go (the attempt failed and changed nothing): a retry runs again. An outcome the
   * attempt stored is kept unless `withOutcome` (the attempt undid its write after storing it).
   */
  async release(
    db: Knex,
    eshopId: number,
    key: string,
    lockId: string,
    opts: { withOutcome?: boolean } = {},
  ): Promise<void> {
    const query = db('idempotency_keys').where({ eshop_id: eshopId, key, lock_id: lockId });
    if (!opts.withOutcome) query.whereNull('response_status');
    await query.delete();
  },

  /** Deletes up to `limit` expired keys; returns how many. */
  async deleteExpired(db: Knex, limit: number): Promise<number> {
    const result = await runRaw(
      db,
      `delete from idempotency_keys where ctid in (
         select ctid from idempotency_keys where expires_at <= now() limit ?)`,
      [limit],
    );
    return result.rowCount;
  },
};
