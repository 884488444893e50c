/**
 * A fill replaces an entity's widgets, but it is written in one language (or in the languages its
 * maps name): the other languages keep the texts they had in the widgets it replaces.
 */
import type { ContentElement, ContentWidget, LangMap } from '../model';
import { asLangMap } from './values';

const hasText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** Keys `<key>#<occurrence>`: the n-th item with that key, in list order. */
function occurrences<T>(items: readonly T[], keyOf: (item: T) => string): string[] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const key = keyOf(item);
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return `${key}#${n}`;
  });
}

const elementKey = (element: ContentElement) => `${element.tag}.${element.class}`;

/**
 * `next` with, in each element it shares with `previous`, the texts of the languages the fill
 * did not write (`written`) kept from the old element; in the written languages the fill's texts
 * are the whole truth (an element it left blank in them has no text in them). A widget is the
 * same when it is the same catalogue widget at the same occurrence (the first section of both,
 * the second…); an element is the same when it has the same tag and class at the same
 * occurrence in its widget (the second benefit title is the second item's). A new widget or
 * element gets only what `next` has: the other languages have no text there.
 */
export function keepOtherLanguages(
  previous: readonly ContentWidget[] | undefined,
  next: readonly ContentWidget[],
  written: ReadonlySet<string>,
): ContentWidget[] {
  if (previous === undefined || previous.length === 0) return [...next];
  const oldWidgets = new Map<string, ContentWidget>();
  occurrences(previous, (w) => String(w.widget_id)).forEach((key, i) => oldWidgets.set(key, previous[i]!));
  return occurrences(next, (w) => String(w.widget_id)).map((key, i) => {
    const widget = next[i]!;
    const old = oldWidgets.get(key);
    if (old === undefined) return widget;
    const oldElements = new Map<string, ContentElement>();
    occurrences(old.children, elementKey).forEach((k, j) => oldElements.set(k, old.children[j]!));
    const children = occurrences(widget.children, elementKey).map((k, j) => {
      const element = widget.children[j]!;
      const before = oldElements.get(k);
      if (before === undefined) return element;
      const value: LangMap = { ...element.value };
      for (const [lang, text] of Object.entries(asLangMap(before.value))) {
        if (!written.has(lang) && !hasText(value[lang]) && hasText(text)) value[lang] = text;
      }
      return { ...element, value };
    });
    return { ...widget, children };
  });
}
