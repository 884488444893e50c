/**
 * The question a panel asks before it replaces the entity's widgets (a design fill, a
 * generation with "replace the existing widgets"): which widgets go, in which languages, and
 * two buttons — replace, or go back to the form with nothing sent.
 */
import { html } from 'lit';
import type { Translate } from './i18n';

export interface ReplaceQuestion {
  /** The widgets shown now, each as a shop owner recognises it ("Section — Built for trails"). */
  replaced: readonly string[];
  /** The eshop's languages by name: the widgets are deleted in all of them. */
  languages: readonly string[];
  /** The label of the button that replaces (says what happens). */
  action: string;
  confirm(): void;
  cancel(): void;
}

export function renderReplaceQuestion(t: Translate, q: ReplaceQuestion) {
  return html`<div class="confirm" role="group" aria-labelledby="confirm-title">
    <p id="confirm-title" class="hint warning" tabindex="-1">
      ${t('confirmReplace', { n: q.replaced.length, languages: q.languages.join(', ') })}
    </p>
    <ul class="replaced">
      ${q.replaced.map((name) => html`<li>${name}</li>`)}
    </ul>
    <div class="toolbar">
      <button class="danger" data-confirm @click=${() => q.confirm()}>${q.action}</button>
      <button data-cancel @click=${() => q.cancel()}>${t('keepWidgets')}</button>
    </div>
  </div>`;
}

/** Moves focus to the question (its text is read first; Tab leads to its buttons). */
export function focusQuestion(root: ParentNode): void {
  root.querySelector<HTMLElement>('#confirm-title')?.focus();
}
