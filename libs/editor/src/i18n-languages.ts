/**
 * The service's content languages the editor's UI speaks besides the built-in English and
 * Czech: their texts (src/messages/<lang>.ts) are served beside the bundle as
 * `/editor/v1/messages/<lang>.json` (scripts/bundle.mjs writes them) and read when the UI speaks
 * one, so the bundle stays within its size budget.
 */
export const FETCHED_LANGUAGES = ['sk', 'de', 'pl', 'hu', 'uk'] as const;
