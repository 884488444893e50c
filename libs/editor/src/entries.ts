/**
 * The entries of a widget: the elements its catalogue widget repeats once per item or image
 * (`item_class` of `GET /widget`: a question, a benefit, a table row, a gallery picture), in
 * document order, each with a short text to recognise it by. These are what element-copy
 * duplicates or removes.
 */
import { isObject } from './guards';
import { inTreeOrder, valueIn } from './inline-edit';
import type { ContentElement, ContentWidget } from '@catalogue/content/v3';

export interface Entry {
  element: ContentElement;
  /** The first text inside the entry (or its image's alt text), plain, at most 60 characters. */
  text: string;
}

const plain = (html: string): string =>
  (new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '').replace(/\s+/g, ' ').trim();

/** An image's alt text in `lang` (or the default language). */
function altOf(element: ContentElement, lang: string): string {
  const alt = Array.isArray(element.extension) ? undefined : element.extension.alt;
  if (typeof alt === 'string') return alt;
  if (!isObject(alt)) return '';
  const value = alt[lang] ?? alt.default;
  return typeof value === 'string' ? value : '';
}

/** The element and its descendants (they follow it in document order). */
function subtree(ordered: readonly ContentElement[], root: ContentElement): ContentElement[] {
  const ids = new Set([root.id]);
  return ordered.filter((e) => {
    if (e.id === root.id) return true;
    if (!ids.has(e.parent_id)) return false;
    ids.add(e.id);
    return true;
  });
}

export function entriesOf(widget: ContentWidget, itemClass: string | null, lang: string): Entry[] {
  if (!itemClass) return [];
  const ordered = inTreeOrder(widget);
  return ordered
    .filter((e) => e.class.split(/\s+/).includes(itemClass))
    .map((element) => {
      let text = '';
      for (const e of subtree(ordered, element)) {
        text = plain(valueIn(e, lang)) || altOf(e, lang);
        if (text) break;
      }
      return { element, text: text.length > 60 ? `${text.slice(0, 59)}…` : text };
    });
}
