import { idempotencyRepository, type Knex } from '@catalogue/db';

/**
 * The "process is gone after the commit" fault of an idempotent request: while it is on, every
 * Idempotency-Key write outside a transaction fails (the middleware's outcome written after the
 * handler, the release of the key), so only what the handler recorded in its own transaction
 * stays; the client sees no answer it can use. `end()` turns it off and lets the key's lock lapse
 * (IDEMPOTENCY_LOCK_SECONDS passed), so a retry with the same key takes it over.
 */
export function crashAfterCommit(db: Knex): { end(eshopId: number, key: string): Promise<void> } {
  const dead = new Error('process killed');
  const completeInTransaction = idempotencyRepository.complete.bind(idempotencyRepository);
  const complete = jest.spyOn(idempotencyRepository, 'complete').mockImplementation(async (trx, ...rest) => {
    if (!trx.isTransaction) throw dead;
    return completeInTransaction(trx, ...rest);
  });
  const release = jest.spyOn(idempotencyRepository, 'release').mockRejectedValue(dead);
  return {
    async end(eshopId, key) {
      complete.mockRestore();
      release.mockRestore();
      await db('idempotency_keys')
        .where({ eshop_id: eshopId, key })
        .update({ locked_until: db.raw("now() - interval '1 second'") });
    },
  };
}
