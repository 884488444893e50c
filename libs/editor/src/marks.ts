/**
 * What a text shown in the editor is not: the language's own text (it is the default
 * language's, shown because this language has none yet), or the owner's text (it is the
 * catalogue's sample, never published, waiting to be filled). Each is marked visibly on the
 * text (a badge drawn from `data-ccs-note`) and described to assistive technology by a note.
 */
import { isLanguageNeutral } from '@catalogue/content/neutral';
import type { Translate } from './i18n';
import type { ContentElement } from '@catalogue/content/v3';

/** The class of a marked text (its badge is drawn from it, see styles-more.ts). */
export const MARKED = 'ccs-marked';

/** The ids of the hidden notes a marked text is described by (drawn by ccs-editor.ts). */
export const NOTE_IDS = { sample: 'ccs-note-sample', fallback: 'ccs-note-fallback' } as const;

/** Why a text shown in `lang` is not its own: a catalogue sample, a fallback, or neither. */
export function markOf(element: ContentElement, lang: string): keyof typeof NOTE_IDS | null {
  const value = element.value;
  const own = Array.isArray(value) ? undefined : value[lang];
  const hasOwn = lang !== 'default' && typeof own === 'string' && own.trim() !== '';
  // A sample is its `default` text: a text written in the language shown is the owner's there.
  if (element.sample?.includes('value') && !hasOwn) return 'sample';
  // Parameter names and values are one string for every language (the specification's
  // parameters have no multilingual support): there is nothing to translate, so no flag.
  if (lang === 'default' || Array.isArray(value) || isLanguageNeutral(element)) return null;
  return hasOwn ? null : 'fallback';
}

/** Marks (or unmarks) a rendered text; `hint` is the id of the editing hint it is also described by. */
export function markNode(
  node: HTMLElement,
  element: ContentElement,
  lang: string,
  t: Translate,
  hint: string,
): void {
  const mark = markOf(element, lang);
  node.classList.toggle(MARKED, mark !== null);
  if (mark === null) {
    delete node.dataset.ccsNote;
    node.setAttribute('aria-describedby', hint);
    return;
  }
  node.dataset.ccsNote = t(mark === 'sample' ? 'toFill' : 'fallbackShown');
  node.setAttribute('aria-describedby', `${hint} ${NOTE_IDS[mark]}`);
}
