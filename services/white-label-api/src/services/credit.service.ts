import type { v3 } from '@catalogue/content';
import { creditsRepository, type Knex } from '@catalogue/db';

/** What a new generation may still reserve: the balance minus credits held for running jobs. */
export async function remainingCredits(db: Knex, eshopId: number): Promise<v3.Data<v3.RemainingCredits>> {
  const account = await creditsRepository.getAccount(db, eshopId);
  return { data: { remaining: account.remaining } };
}
