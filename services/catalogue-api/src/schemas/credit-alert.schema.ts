import Joi from 'joi';
import { responseObject } from '@catalogue/http';

export interface CreditAlertBody {
  /** The balance below which the eshop hears `credits.low`; null turns the alert off. */
  low_balance_threshold: number | null;
}

export const creditAlertBody = Joi.object<CreditAlertBody, true>({
  // Strict: "100" is not a number (JSON types are kept as sent).
  low_balance_threshold: Joi.number().strict().integer().min(0).max(2_147_483_647).allow(null).required(),
});

/** GET and PUT /credit-alert 200. */
export const creditAlertResponse = responseObject({
  data: responseObject({ low_balance_threshold: Joi.number().integer().min(0).allow(null) }),
}).id('CreditAlert');
