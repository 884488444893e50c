/** The editor bundle's size budget: defined in tests/bench/editor-budget.ts (see there). */
export { GZIP_BUDGET_BYTES } from '../bench/editor-budget';
