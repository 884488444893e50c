export { estimateGeneration, estimateListingEnrichment, MissingPriceError } from './estimate';
export type { CostEstimate, CostLine, GenerationWork, Price } from './estimate';
export { createCreditMetrics } from './metrics';
export type { CreditMetrics } from './metrics';
export { settleReservation } from './settlement';
export type { SettlementOutcome, SettlementResult } from './settlement';
