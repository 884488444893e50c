/**
 * Texts the specification defines as language-neutral: a parameter's `name` and its values'
 * `value` are one string each ("no multilingual support"), imported once for every language.
 * The parameters table (the catalogue's `parameters` widget, filled from that data) shows them in
 * these elements. Such a text is the same on every language's page: it is never a fallback (no
 * `lang` mark, never left out under `omit`), never makes a page incomplete, and the editor never
 * flags it "not translated yet". A translation it may have (a parameter's name translations) is
 * shown on its language's page; without one the one string is shown, as the page's own.
 * Browser-safe and free of dependencies: the editor bundles it (`@catalogue/content/neutral`).
 */
export const LANGUAGE_NEUTRAL_CLASSES: readonly string[] = ['ccs-parameters__name', 'ccs-parameters__value'];

/** Whether an element of a content tree holds language-neutral data (see above). */
export function isLanguageNeutral(element: { class?: unknown }): boolean {
  if (typeof element.class !== 'string') return false;
  return element.class.split(' ').some((name) => LANGUAGE_NEUTRAL_CLASSES.includes(name));
}
