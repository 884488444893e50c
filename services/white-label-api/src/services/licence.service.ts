import type { Eshop } from '@catalogue/db';

/**
 * The white-label licence is valid through the last day it names (UTC), inclusive.
 * An eshop without a licence date has no licence.
 */
export function hasValidLicence(eshop: Pick<Eshop, 'licenceValidUntil'>, now: Date = new Date()): boolean {
  if (!eshop.licenceValidUntil) return false;
  return eshop.licenceValidUntil >= now.toISOString().slice(0, 10);
}
