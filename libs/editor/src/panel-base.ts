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

  /** Asks the host (`ccs-before-save`, cancellable) whether this write may be made. */
  protected allowed(detail: Record<string, unknown>): boolean {
    return this.dispatchEvent(
      new CustomEvent('ccs-before-save', { detail, bubbles: true, composed: true, cancelable: true }),
    );
  }

  protected close(): void {
    this.send('ccs-close');
  }
}
