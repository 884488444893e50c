/**
 * The content language an entity opens in when the host names none (`content-lang`): the
 * eshop's main language (its default language setting) when the entity has texts in it, else
 * the first of the eshop's active languages, in its order, where the entity has texts, so the
 * owner never lands on an empty view while another language holds the content. A catalogue
 * sample is not a text of the owner's; with no text anywhere, `default` (or the first language).
 */
import type { ContentWidget } from '@catalogue/content/v3';

/** Whether an element value (inner HTML) shows any text. */
function hasText(value: unknown): boolean {
  return (
    typeof value === 'string' &&
    value
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;/g, ' ')
      .trim() !== ''
  );
}

/** The languages in which some element of the widgets has a text of its own. */
export function languagesWithTexts(widgets: readonly ContentWidget[]): Set<string> {
  const found = new Set<string>();
  for (const widget of widgets) {
    for (const element of widget.children ?? []) {
      const value = element.value;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
      const sample = element.sample?.includes('value') ?? false;
      for (const [lang, text] of Object.entries(value)) {
        // A sample's value is its `default` text; another language written there is the owner's.
        if (lang === 'default' && sample) continue;
        if (hasText(text)) found.add(lang);
      }
    }
  }
  return found;
}

/**
 * The language to open `widgets` in, among the eshop's active `languages` (in its order) and
 * its main language (`defaultLanguage`, a code such as `cs`, or null).
 */
export function openingLanguage(
  widgets: readonly ContentWidget[],
  languages: readonly string[],
  defaultLanguage: string | null,
): string {
  const texts = languagesWithTexts(widgets);
  const active = languages.length > 0 ? languages : ['default'];
  const candidates = [
    ...(defaultLanguage && active.includes(defaultLanguage) ? [defaultLanguage] : []),
    ...active,
  ];
  return candidates.find((lang) => texts.has(lang)) ?? (active.includes('default') ? 'default' : active[0]!);
}
