export { estimateGeneration, estimateListingEnrichment, MissingPriceError } from './estimate';
export type { CostEstimate, CostLine, GenerationWork, Price } from './estimate';
export { createCreditMetrics } from './metrics';
export type { CreditMetrics } from './metrics';
export { chargeable, chargesFor, priceGeneration, reserveForJob } from './job-credits';
export type { JobReservation } from './job-credits';
export { settleReservation, settleReservations } from './settlement';
export type { SettlementOutcome, SettlementResult } from './settlement';
