import { Counter, Histogram, type Registry } from 'prom-client';

/** Credit movements, without an eshop label (cardinality); per-eshop detail is in the ledger. */
export interface CreditMetrics {
  reserved: Counter;
  charged: Counter;
  released: Counter;
  settlements: Counter<'outcome'>;
  settlementLag: Histogram;
}

export function createCreditMetrics(registry: Registry): CreditMetrics {
  return {
    reserved: new Counter({
      name: 'credits_reserved_total',
      help: 'Credits reserved for generation jobs when they were created.',
      registers: [registry],
    }),
    charged: new Counter({
      name: 'credits_charged_total',
      help: 'Credits charged by settlements of finished jobs.',
      registers: [registry],
    }),
    released: new Counter({
      name: 'credits_released_total',
      help: 'Reserved credits given back by settlements (unused or failed jobs).',
      registers: [registry],
    }),
    settlements: new Counter({
      name: 'credit_settlements_total',
      help: 'Settlement jobs handled, by outcome (settled, duplicate, no_reservation).',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    settlementLag: new Histogram({
      name: 'credit_settlement_lag_seconds',
      help: 'Time from queuing a settlement to its commit.',
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900],
      registers: [registry],
    }),
  };
}
