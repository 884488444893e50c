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

  /**
   * Moves focus into the panel, on the panel itself (its title names it; Tab goes on to its
   * first control), so a panel opened from the keyboard is where the keyboard is.
   */
  async focusInside(): Promise<void> {
    await this.updateComplete;
    const section = this.renderRoot.querySelector<HTMLElement>('.panel');
    if (!section) return;
    if (!section.hasAttribute('tabindex')) section.tabIndex = -1;
    section.focus();
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
