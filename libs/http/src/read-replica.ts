import { eventsRepository, isDatabaseUnavailable, pingDatabase, type Knex } from '@catalogue/db';
import type { Logger } from '@catalogue/logger';
import { messageOf } from './objects';
import type { ReadMetrics } from './metrics';

/** Which database answered a read. */
export type ReadTarget = 'replica' | 'primary';

/**
 * Why a read went where it went (the `reason` label of `db_reads_total`):
 * - `caught_up`: the replica has replayed the eshop's newest event, so it serves;
 * - `behind`: it has not (or it lacks a row the read needs), so the primary serves;
 * - `replica_unavailable`: the replica failed (or failed within the last few seconds);
 * - `no_replica`: no `DATABASE_READ_URL`.
 */
export type ReadReason = 'caught_up' | 'behind' | 'replica_unavailable' | 'no_replica';

/**
 * Thrown by a read running on the replica that found less than it needs (a row the client knows
 * exists, e.g. the listing batch it has just uploaded, which writes no event): `run` answers the
 * read from the primary instead.
 */
export class ReplicaBehind extends Error {
  constructor() {
    super('the replica has not replayed what this read needs');
    this.name = 'ReplicaBehind';
  }
}

/**
 * The one home of "which database serves this read" (docs/decisions/0049-reads-from-a-replica.md, "Reads from a
 * replica"). Services pick it explicitly: `deps.db` for writes and for every read that must see
 * the latest commit, `deps.reads.run(eshopId, read)` for the reads a replica may serve.
 */
export interface Reads {
  /** The replica's pool, or null without `DATABASE_READ_URL` (then `run` uses the primary). */
  readonly replica: Knex | null;
  /**
   * Runs `read` on the replica when it has replayed the eshop's newest event (as the primary
   * numbers it at the start of the read), else on the primary. A replica that fails (connection
   * refused or lost, timeout, a recovery conflict) is skipped for a few seconds and the read
   * runs on the primary: reads never fail because of the replica. `read` may run twice (once
   * on each database), so it must not write.
   */
  run<T>(eshopId: number, read: (db: Knex, target: ReadTarget) => Promise<T>): Promise<T>;
  /** For /readyz: resolves when the replica answers (never fails readiness: reads fall back). */
  check(): Promise<string>;
}

/** How long a failed replica is left alone before reads try it again. */
export const REPLICA_RETRY_AFTER_MS = 5_000;
/** Time limit of the replica's catch-up check: a frozen replica must not hold the request. */
export const REPLICA_CHECK_TIMEOUT_MS = 1_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`no answer within ${ms} ms`), { code: 'ETIMEDOUT' })),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface ReadsOptions {
  primary: Knex;
  replica: Knex | null;
  metrics: ReadMetrics;
  logger: Logger;
  retryAfterMs?: number;
}

export function createReads(opts: ReadsOptions): Reads {
  const { primary, replica, metrics, logger } = opts;
  const retryAfterMs = opts.retryAfterMs ?? REPLICA_RETRY_AFTER_MS;
  let skipUntil = 0;

  const onPrimary = <T>(read: (db: Knex, target: ReadTarget) => Promise<T>, reason: ReadReason) => {
    metrics.reads.inc({ database: 'primary', reason });
    return read(primary, 'primary');
  };
  const replicaFailed = (err: unknown): void => {
    skipUntil = Date.now() + retryAfterMs;
    logger.warn({ err: messageOf(err), retryAfterMs }, 'read replica failed: reads go to the primary');
  };

  return {
    replica,
    async run(eshopId, read) {
      if (!replica) return onPrimary(read, 'no_replica');
      if (Date.now() < skipUntil) return onPrimary(read, 'replica_unavailable');
      // The primary first: whatever the client has seen of the eshop (its own writes, an event
      // from the feed or a webhook) is at most this number, and the replica, asked after, must
      // have replayed up to it. A primary that fails here fails the read, as without a replica.
      const wanted = await eventsRepository.newest(primary, eshopId);
      let replayed: number;
      try {
        replayed = await withTimeout(eventsRepository.newest(replica, eshopId), REPLICA_CHECK_TIMEOUT_MS);
      } catch (err) {
        if (!isDatabaseUnavailable(err)) throw err;
        replicaFailed(err);
        return onPrimary(read, 'replica_unavailable');
      }
      if (replayed < wanted) return onPrimary(read, 'behind');
      try {
        const result = await read(replica, 'replica');
        metrics.reads.inc({ database: 'replica', reason: 'caught_up' });
        return result;
      } catch (err) {
        if (err instanceof ReplicaBehind) return onPrimary(read, 'behind');
        if (!isDatabaseUnavailable(err)) throw err;
        replicaFailed(err);
        return onPrimary(read, 'replica_unavailable');
      }
    },
    async check() {
      if (replica) await pingDatabase(replica);
      return 'ok';
    },
  };
}
