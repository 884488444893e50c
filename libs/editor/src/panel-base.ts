import { LitElement, type CSSResultGroup } from 'lit';
import type { Api } from './api';
import type { Translate } from './i18n';
import { editorStyles } from './styles';

/** What every panel of the editor shares: the API client, the texts, and events to the editor. */
export class PanelBase extends LitElement {
  static override styles: CSSResultGroup = editorStyles;
  static override properties = { api: { attribute: false }, t: { attribute: false } };
  declare api: Api;
  declare t: Translate;

  constructor() {
    super();
    // Escape closes the panel from anywhere inside it (the editor puts focus back on its button).
    this.addEventListener('keydown', (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      e.preventDefault();
      this.close();
    });
  }

  protected send(name: string, detail?: unknown): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  protected close(): void {
    this.send('ccs-close');
  }
}
