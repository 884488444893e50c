/** Language codes of the catalogue API (v1, v2). */
export const LANGUAGES = ['default', 'cs', 'sk', 'en', 'de', 'pl', 'hu'] as const;
/** The white-label API (v3) also knows Ukrainian. */
export const V3_LANGUAGES = [...LANGUAGES, 'uk'] as const;
export type Language = (typeof V3_LANGUAGES)[number];

export function isLanguage(code: string): code is Language {
  return (V3_LANGUAGES as readonly string[]).includes(code);
}
