import { html, nothing } from 'lit';
import type { Panel } from './editor-state';
import { fieldValue } from './guards';
import { languageName, type Translate } from './i18n';

/** What the editor's toolbar shows and does; the editor provides it. */
export interface ToolbarView {
  t: Translate;
  lang: string;
  languages: string[];
  panel: Panel;
  busy: boolean;
  /** The delete bar shows its own Undo: the toolbar's is left out meanwhile. */
  deleted: boolean;
  canRedo: boolean;
  has(feature: 'add' | 'designs' | 'generate' | 'history'): boolean;
  switchLanguage(lang: string): void;
  toggle(panel: Panel): void;
  undo(): void;
  redo(): void;
  refresh(): void;
}

/** The language select, the panels' buttons (those the host allows), Undo, Redo and Reload. */
export function renderToolbar(v: ToolbarView) {
  const { t } = v;
  const panelButton = (panel: 'add' | 'designs' | 'generate', label: string) =>
    v.has(panel)
      ? html`<button data-panel=${panel} aria-expanded=${v.panel === panel} @click=${() => v.toggle(panel)}>
          ${label}
        </button>`
      : nothing;
  return html`<div class="toolbar" part="toolbar">
    <label
      >${t('language')}
      <select class="lang" @change=${(e: Event) => v.switchLanguage(fieldValue(e))}>
        ${v.languages.map((l) => html`<option value=${l} ?selected=${l === v.lang}>${languageName(t, l)}</option>`)}
      </select>
    </label>
    ${panelButton('add', t('add'))} ${panelButton('designs', t('designs'))}
    ${panelButton('generate', t('generate'))}
    ${
      v.has('history')
        ? html`${
              v.deleted
                ? nothing
                : html`<button data-undo ?disabled=${v.busy} @click=${() => v.undo()}>
                    ${t('undoLast')}
                  </button>`
            }
            <button data-redo ?disabled=${v.busy || !v.canRedo} @click=${() => v.redo()}>${t('redo')}</button>
            <button
              data-panel="history"
              data-history
              aria-expanded=${v.panel === 'history'}
              @click=${() => v.toggle('history')}
            >
              ${t('history')}
            </button>`
        : nothing
    }
    <button data-refresh @click=${() => v.refresh()}>${t('refresh')}</button>
  </div>`;
}
