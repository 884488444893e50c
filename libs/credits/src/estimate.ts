/**
 * What a generation or an enrichment costs, from the price list. Pure: the caller loads the
 * prices (credit_prices) and passes what it is about to do. The white-label API uses it to
 * estimate and reserve before a job starts; the worker uses it with the actual counts to
 * say what the finished job cost.
 */

export interface Price {
  operation: string;
  unit: string;
  price: number;
}

export interface CostLine {
  operation: string;
  unit: string;
  quantity: number;
  price: number;
  amount: number;
}

export interface CostEstimate {
  total: number;
  breakdown: CostLine[];
}

export interface GenerationWork {
  /** Widgets to be generated (the design's fillable widgets). */
  widgets: number;
  /** Languages each widget is written in. */
  languages: number;
  /** Web pages to fetch and read (search_web with use_web_research). */
  webResearchUrls: number;
  /** Whether search-results context is added (use_serp_context). */
  serpContext: boolean;
}

export class MissingPriceError extends Error {
  constructor(operation: string) {
    super(`the price list has no price for "${operation}"`);
    this.name = 'MissingPriceError';
  }
}

function count(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new RangeError(`${what} must be a whole number ≥ 0 (got ${value})`);
  }
  return value;
}

function line(prices: readonly Price[], operation: string, quantity: number): CostLine {
  const price = prices.find((p) => p.operation === operation);
  if (!price) throw new MissingPriceError(operation);
  count(quantity, `quantity of ${operation}`);
  return { operation, unit: price.unit, quantity, price: price.price, amount: quantity * price.price };
}

function total(lines: CostLine[]): CostEstimate {
  const breakdown = lines.filter((l) => l.quantity > 0);
  return { total: breakdown.reduce((sum, l) => sum + l.amount, 0), breakdown };
}

export function estimateGeneration(prices: readonly Price[], work: GenerationWork): CostEstimate {
  return total([
    // Each factor is checked on its own: (−2) × (−3) would otherwise pass as 6.
    line(prices, 'widget_generation', count(work.widgets, 'widgets') * count(work.languages, 'languages')),
    line(prices, 'web_research', work.webResearchUrls),
    line(prices, 'serp_context', work.serpContext ? 1 : 0),
  ]);
}

export function estimateListingEnrichment(prices: readonly Price[], rows: number): CostEstimate {
  return total([line(prices, 'listing_row_enrichment', rows)]);
}
