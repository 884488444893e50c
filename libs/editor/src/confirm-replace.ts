/**
 * The question a panel asks before it replaces the entity's widgets (a design fill, a
 * generation with "replace the existing widgets"): which widgets go, in which languages, and
 * two buttons — replace, or go back to the form with nothing sent.
 */
import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import type { Translate } from './i18n';
import type { RevisionView } from '@catalogue/content/v3';

/**
 * The credits generations already cost for the content shown: what the generation revisions
 * since the newest fill were charged (a fill replaced everything before it). Revisions come
 * newest first; a replace refunds none of it.
 */
export function creditsSpentOn(revisions: readonly RevisionView[]): number {
  let spent = 0;
  for (const revision of revisions) {
    if (revision.source === 'fill') break;
    if (revision.source === 'generation') spent += revision.credits_charged ?? 0;
  }
  return spent;
}

export interface ReplaceQuestion {
  /** The widgets shown now, each as a shop owner recognises it ("Section — Built for trails"). */
  replaced: readonly string[];
  /** The eshop's languages by name: the widgets are deleted in all of them. */
  languages: readonly string[];
  /** Credits generations already cost for this content (shown when more than 0). */
  spent?: number | null;
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
    ${q.spent ? html`<p class="hint">${t('confirmSpent', { n: q.spent })}</p>` : nothing}
    <div class="toolbar">
      <button class="danger" data-confirm @click=${() => q.confirm()}>${q.action}</button>
      <button data-cancel @click=${() => q.cancel()}>${t('keepWidgets')}</button>
    </div>
  </div>`;
}

/**
 * Whether a panel is asking, and the moves around it: `ask` runs the action at once when it
 * replaces nothing, else shows the question with focus on it (its text is read first; Tab
 * leads to its buttons); `keep` goes back to the form with focus on the button that asked.
 */
export class ReplaceQuestionController implements ReactiveController {
  asking = false;
  /** Credits already spent on the content (read when the question is asked; null: unknown). */
  spent: number | null = null;

  constructor(private readonly host: ReactiveControllerHost & { readonly renderRoot: ParentNode }) {
    host.addController(this);
  }

  hostConnected(): void {}

  async ask(replaces: boolean, run: () => Promise<void>, spent?: () => Promise<number>): Promise<void> {
    if (!replaces) return run();
    this.spent = null;
    this.set(true);
    await this.host.updateComplete;
    this.host.renderRoot.querySelector<HTMLElement>('#confirm-title')?.focus();
    // What generations already cost is added once it is read (the question does not wait).
    const cost = spent ? await spent().catch(() => null) : null;
    if (this.asking && cost) {
      this.spent = cost;
      this.host.requestUpdate();
    }
  }

  async keep(): Promise<void> {
    this.set(false);
    await this.host.updateComplete;
    this.host.renderRoot.querySelector<HTMLButtonElement>('button.primary')?.focus();
  }

  /** The owner said yes (the action runs): the question goes away. */
  answered(): void {
    this.set(false);
  }

  private set(asking: boolean): void {
    this.asking = asking;
    this.host.requestUpdate();
  }
}
