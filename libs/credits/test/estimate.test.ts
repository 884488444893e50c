import fc from 'fast-check';
import {
  estimateGeneration,
  estimateListingEnrichment,
  MissingPriceError,
  type Price,
} from '@catalogue/credits';
import { SEEDED_PRICES } from '../../db/src/migrations/20261121000300_credit_prices';

/** The price list every new database starts with (widget 2, url 3, serp 5, listing row 1). */
const PRICES: readonly Price[] = SEEDED_PRICES;

const without = (operation: string): Price[] => PRICES.filter((p) => p.operation !== operation);

const work = (overrides: Partial<Parameters<typeof estimateGeneration>[1]> = {}) => ({
  widgets: 0,
  languages: 0,
  webResearchUrls: 0,
  serpContext: false,
  ...overrides,
});

describe('estimateGeneration', () => {
  it('when the seeded price list is used, then it has the prices the estimator expects', () => {
    expect(PRICES.map(({ operation, unit, price }) => ({ operation, unit, price }))).toEqual([
      { operation: 'widget_generation', unit: 'widget_language', price: 2 },
      { operation: 'web_research', unit: 'url', price: 3 },
      { operation: 'serp_context', unit: 'generation', price: 5 },
      { operation: 'listing_row_enrichment', unit: 'row', price: 1 },
    ]);
  });

  it('when only widgets are generated, then one widget line is charged per widget and language', () => {
    expect(estimateGeneration(PRICES, work({ widgets: 3, languages: 2 }))).toEqual({
      total: 12,
      breakdown: [
        { operation: 'widget_generation', unit: 'widget_language', quantity: 6, price: 2, amount: 12 },
      ],
    });
  });

  it('when every kind of work is done, then the breakdown lists widgets, web research and serp context in that order', () => {
    expect(
      estimateGeneration(PRICES, work({ widgets: 4, languages: 3, webResearchUrls: 2, serpContext: true })),
    ).toEqual({
      total: 35,
      breakdown: [
        { operation: 'widget_generation', unit: 'widget_language', quantity: 12, price: 2, amount: 24 },
        { operation: 'web_research', unit: 'url', quantity: 2, price: 3, amount: 6 },
        { operation: 'serp_context', unit: 'generation', quantity: 1, price: 5, amount: 5 },
      ],
    });
  });

  it('when serp context is used, then exactly one serp_context unit is added whatever the size of the job', () => {
    for (const size of [work(), work({ widgets: 1, languages: 1 }), work({ widgets: 50, languages: 5 })]) {
      const plain = estimateGeneration(PRICES, size);
      const withSerp = estimateGeneration(PRICES, { ...size, serpContext: true });
      expect(withSerp.total - plain.total).toBe(5);
      expect(withSerp.breakdown.filter((l) => l.operation === 'serp_context')).toEqual([
        { operation: 'serp_context', unit: 'generation', quantity: 1, price: 5, amount: 5 },
      ]);
    }
  });

  it('when serp context is the only work, then the total is the serp price alone', () => {
    expect(estimateGeneration(PRICES, work({ serpContext: true }))).toEqual({
      total: 5,
      breakdown: [{ operation: 'serp_context', unit: 'generation', quantity: 1, price: 5, amount: 5 }],
    });
  });

  it('when pages are researched, then each URL is charged once', () => {
    expect(estimateGeneration(PRICES, work({ webResearchUrls: 7 }))).toEqual({
      total: 21,
      breakdown: [{ operation: 'web_research', unit: 'url', quantity: 7, price: 3, amount: 21 }],
    });
    expect(estimateGeneration(PRICES, work({ webResearchUrls: 1 })).total).toBe(3);
  });

  it('when nothing is done, then the total is 0 and the breakdown is empty', () => {
    expect(estimateGeneration(PRICES, work())).toEqual({ total: 0, breakdown: [] });
  });

  it('when a quantity is zero, then its line is left out of the breakdown', () => {
    expect(
      estimateGeneration(PRICES, work({ widgets: 5, languages: 0, webResearchUrls: 2 })).breakdown,
    ).toEqual([{ operation: 'web_research', unit: 'url', quantity: 2, price: 3, amount: 6 }]);
    expect(
      estimateGeneration(PRICES, work({ widgets: 0, languages: 3, serpContext: true })).breakdown.map(
        (l) => l.operation,
      ),
    ).toEqual(['serp_context']);
  });

  it('when an operator changed a price, then the estimate uses the price list it was given', () => {
    const prices = PRICES.map((p) => (p.operation === 'widget_generation' ? { ...p, price: 7 } : p));
    expect(estimateGeneration(prices, work({ widgets: 2, languages: 2 })).total).toBe(28);
  });

  it('when a price is 0, then its line is still listed with amount 0', () => {
    const prices = PRICES.map((p) => (p.operation === 'web_research' ? { ...p, price: 0 } : p));
    expect(estimateGeneration(prices, work({ webResearchUrls: 4 }))).toEqual({
      total: 0,
      breakdown: [{ operation: 'web_research', unit: 'url', quantity: 4, price: 0, amount: 0 }],
    });
  });

  it.each(['widget_generation', 'web_research', 'serp_context'])(
    'when the price list has no %s price, then a MissingPriceError names the operation',
    (operation) => {
      const full = work({ widgets: 1, languages: 1, webResearchUrls: 1, serpContext: true });
      expect(() => estimateGeneration(without(operation), full)).toThrow(MissingPriceError);
      expect(() => estimateGeneration(without(operation), full)).toThrow(
        `the price list has no price for "${operation}"`,
      );
    },
  );

  it('when the price list lacks an operation the job does not use, then it still throws (an incomplete list is a configuration error)', () => {
    expect(() => estimateGeneration(without('serp_context'), work({ widgets: 1, languages: 1 }))).toThrow(
      MissingPriceError,
    );
  });

  it('when a MissingPriceError is thrown, then it is an Error named MissingPriceError', () => {
    let caught: unknown;
    try {
      estimateGeneration([], work());
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(Error);
    expect(caught).toBeInstanceOf(MissingPriceError);
    expect((caught as Error).name).toBe('MissingPriceError');
  });

  it.each([
    ['negative widgets', work({ widgets: -1, languages: 2 })],
    ['negative languages', work({ widgets: 3, languages: -1 })],
    ['fractional widgets × languages', work({ widgets: 3, languages: 0.5 })],
    ['negative web research URLs', work({ webResearchUrls: -2 })],
    ['fractional web research URLs', work({ webResearchUrls: 1.5 })],
    ['NaN widgets', work({ widgets: Number.NaN, languages: 1 })],
    ['infinite web research URLs', work({ webResearchUrls: Number.POSITIVE_INFINITY })],
  ])('when the job has %s, then a RangeError is thrown', (_label, bad) => {
    expect(() => estimateGeneration(PRICES, bad)).toThrow(RangeError);
    expect(() => estimateGeneration(PRICES, bad)).toThrow(/must be a whole number ≥ 0/);
  });

  // Each count is checked on its own, not only their product.
  it('when widgets and languages are both negative, then a RangeError is thrown', () => {
    expect(() => estimateGeneration(PRICES, work({ widgets: -2, languages: -3 }))).toThrow(RangeError);
  });

  it('when widgets are fractional but widgets × languages is whole, then a RangeError is thrown', () => {
    expect(() => estimateGeneration(PRICES, work({ widgets: 0.5, languages: 2 }))).toThrow(RangeError);
  });

  it('when widgets are negative and there are no languages, then a RangeError is thrown', () => {
    expect(() => estimateGeneration(PRICES, work({ widgets: -5, languages: 0 }))).toThrow(RangeError);
  });
});

describe('estimateListingEnrichment', () => {
  it('when rows are enriched, then each row costs the listing_row_enrichment price', () => {
    expect(estimateListingEnrichment(PRICES, 250)).toEqual({
      total: 250,
      breakdown: [{ operation: 'listing_row_enrichment', unit: 'row', quantity: 250, price: 1, amount: 250 }],
    });
  });

  it('when there are no rows, then the total is 0 and the breakdown is empty', () => {
    expect(estimateListingEnrichment(PRICES, 0)).toEqual({ total: 0, breakdown: [] });
  });

  it('when the price list has no listing_row_enrichment price, then a MissingPriceError is thrown', () => {
    expect(() => estimateListingEnrichment(without('listing_row_enrichment'), 3)).toThrow(MissingPriceError);
    expect(() => estimateListingEnrichment(without('listing_row_enrichment'), 3)).toThrow(
      'the price list has no price for "listing_row_enrichment"',
    );
  });

  it('when only the generation prices are missing, then enrichment is still estimated', () => {
    const listingOnly = PRICES.filter((p) => p.operation === 'listing_row_enrichment');
    expect(estimateListingEnrichment(listingOnly, 4).total).toBe(4);
  });

  it.each([-1, 2.5, Number.NaN])('when the row count is %p, then a RangeError is thrown', (rows) => {
    expect(() => estimateListingEnrichment(PRICES, rows)).toThrow(RangeError);
  });
});

describe('estimate properties', () => {
  const generationWork = fc.record({
    widgets: fc.nat({ max: 200 }),
    languages: fc.nat({ max: 10 }),
    webResearchUrls: fc.nat({ max: 50 }),
    serpContext: fc.boolean(),
  });

  it('when any valid job is estimated, then the total is the sum of the breakdown amounts and every line is priced', () => {
    fc.assert(
      fc.property(generationWork, (w) => {
        const estimate = estimateGeneration(PRICES, w);
        expect(estimate.total).toBe(estimate.breakdown.reduce((sum, l) => sum + l.amount, 0));
        expect(estimate.total).toBe(
          2 * w.widgets * w.languages + 3 * w.webResearchUrls + (w.serpContext ? 5 : 0),
        );
        for (const l of estimate.breakdown) {
          expect(l.quantity).toBeGreaterThan(0);
          expect(l.amount).toBe(l.quantity * l.price);
        }
      }),
    );
  });

  it('when widgets or languages grow, then the total never decreases', () => {
    fc.assert(
      fc.property(
        generationWork,
        fc.nat({ max: 50 }),
        fc.nat({ max: 5 }),
        (w, moreWidgets, moreLanguages) => {
          const smaller = estimateGeneration(PRICES, w).total;
          const larger = estimateGeneration(PRICES, {
            ...w,
            widgets: w.widgets + moreWidgets,
            languages: w.languages + moreLanguages,
          }).total;
          expect(larger).toBeGreaterThanOrEqual(smaller);
        },
      ),
    );
  });

  it('when any row count is estimated, then the total is the sum of the breakdown amounts', () => {
    fc.assert(
      fc.property(fc.nat({ max: 100_000 }), (rows) => {
        const estimate = estimateListingEnrichment(PRICES, rows);
        expect(estimate.total).toBe(estimate.breakdown.reduce((sum, l) => sum + l.amount, 0));
        expect(estimate.total).toBe(rows);
      }),
    );
  });
});
