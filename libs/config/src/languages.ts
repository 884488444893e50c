/**
 * The two language sets of the system, declared once (names say which is which).
 *
 * CATALOGUE_API_LANGUAGES: the language keys of the catalogue API v1/v2 (item language maps,
 * `lang` of the lists), as that specification lists them.
 */
export const CATALOGUE_API_LANGUAGES = ['default', 'cs', 'sk', 'en', 'de', 'pl', 'hu'] as const;
/**
 * CONTENT_LANGUAGES: the languages content is written, stored and rendered in, an eshop may turn
 * on, and the white-label API v3 accepts: the catalogue's plus Ukrainian.
 */
export const CONTENT_LANGUAGES = [...CATALOGUE_API_LANGUAGES, 'uk'] as const;
/**
 * V1_LANGUAGES: the keys of a v1 item's `content.html` / `content.marketplace`, in this order,
 * whatever the eshop has active (the v1 specification's fixed set).
 */
export const V1_LANGUAGES = ['default', 'cs', 'en', 'de', 'sk'] as const;
export type Language = (typeof CONTENT_LANGUAGES)[number];

/**
 * A language map of content: language code -> text, any language missing. Deliberately not tied
 * to {@link CONTENT_LANGUAGES}: stored trees may hold languages that an eshop later deactivates,
 * and a renderer only ever reads the one it is asked for.
 */
export type LangMap = Partial<Record<string, string>>;

export function isLanguage(code: string): code is Language {
  return CONTENT_LANGUAGES.some((language) => language === code);
}
