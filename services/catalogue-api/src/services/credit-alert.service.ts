import type { Schemas } from '@catalogue/client';
import { creditsRepository, type Knex } from '@catalogue/db';
import type { CreditAlertBody } from '../schemas/credit-alert.schema';

/** The body of GET and PUT /credit-alert: the type of the route's response schema (`CreditAlert`). */
export type CreditAlertView = Schemas['CreditAlert'];

/** The eshop's low-balance level: a settlement that takes the balance below it writes `credits.low`. */
export async function creditAlert(db: Knex, eshopId: number): Promise<CreditAlertView> {
  return { data: { low_balance_threshold: await creditsRepository.lowBalanceThreshold(db, eshopId) } };
}

export async function setCreditAlert(
  db: Knex,
  eshopId: number,
  body: CreditAlertBody,
): Promise<CreditAlertView> {
  await creditsRepository.setLowBalanceThreshold(db, eshopId, body.low_balance_threshold);
  return creditAlert(db, eshopId);
}
