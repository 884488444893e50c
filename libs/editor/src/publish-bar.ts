/**
 * <ccs-publish-bar>: in an eshop whose edits wait as drafts (`publish_mode: draft`), whether the
 * content shown is a draft the storefront does not serve yet, a Preview of the draft exactly as
 * the storefront will render it, Publish and Discard draft. Shown only when the eshop keeps
 * drafts or a draft is left over; an eshop that publishes at once sees nothing new. It reads the
 * draft state again whenever the content's version (the ETag) changes, and asks the editor to
 * reload its widgets after a publish or a discard.
 */
import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import type { Data, DraftView } from '@catalogue/content/v3';
import type { Api } from './api';
import { adoptContentSheet } from './host';
import { languageName, type Translate } from './i18n';
import { editorStyles } from './styles';
import { publishStyles } from './publish-styles';

/** The stylesheet of rendered content, served by the API (the preview looks as on the shop). */
const CONTENT_CSS = 'content/v1/ccs-content.css';

export class CcsPublishBar extends LitElement {
  static override styles = [editorStyles, publishStyles];
  static override properties = {
    api: { attribute: false },
    t: { attribute: false },
    entityPath: { attribute: false },
    entityId: { attribute: false },
    lang: { attribute: false },
    version: { attribute: false },
    state: { state: true },
    previewing: { state: true },
    confirming: { state: true },
    busy: { state: true },
    message: { state: true },
  };
  declare api: Api;
  declare t: Translate;
  /** `/{entity_id}/type/{entity_type}`. */
  declare entityPath: string;
  /** The entity shown: every event names the entity it belongs to. */
  declare entityId: string;
  declare lang: string;
  /** The content version the editor shows: a change means the draft state may have changed. */
  declare version: number | null;
  declare state: DraftView | null;
  declare previewing: boolean;
  declare confirming: boolean;
  declare busy: boolean;
  declare message: string;

  constructor() {
    super();
    this.state = null;
    this.previewing = false;
    this.confirming = false;
    this.busy = false;
    this.message = '';
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!this.api || !this.entityPath) return;
    // An eshop that publishes at once has no draft to follow: its state is read once per entity
    // (a switch of the setting shows from the next opening), not after every write.
    const settled = this.state?.publish_mode === 'immediate' && !this.state.has_draft;
    if (changed.has('entityPath') || changed.has('api') || (changed.has('version') && !settled))
      void this.read();
  }

  protected override updated(): void {
    if (this.previewing && this.api && this.renderRoot instanceof ShadowRoot)
      void adoptContentSheet(this.renderRoot, this.api.url(CONTENT_CSS)).catch(() => undefined);
  }

  private get base(): string {
    return `/content${this.entityPath}`;
  }

  private async read(): Promise<void> {
    const path = this.entityPath;
    try {
      const state = (await this.api.get<Data<DraftView>>(`${this.base}/draft`)).data;
      // An answer about an entity no longer shown is dropped.
      if (path === this.entityPath) this.state = state;
    } catch (err) {
      if (path === this.entityPath) this.fail(err);
    }
  }

  private send(name: string, detail?: unknown): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  private fail(err: unknown): void {
    this.send('ccs-failed', err);
  }

  /** Publish or discard (the editor's ETag goes with it as If-Match), then the editor reloads. */
  private async act(action: 'publish' | 'discard'): Promise<void> {
    this.busy = true;
    this.confirming = false;
    this.message = '';
    const lang = `?lang=${encodeURIComponent(this.lang)}`;
    try {
      if (action === 'publish') await this.api.post(`${this.base}/publish${lang}`);
      else await this.api.delete(`${this.base}/draft${lang}`);
      this.message = this.t(action === 'publish' ? 'publishedNow' : 'draftDiscarded');
      this.send(action === 'publish' ? 'ccs-published' : 'ccs-draft-discarded', {
        entity_id: this.entityId,
        entityPath: this.entityPath,
      });
      this.send('ccs-content-replaced');
      await this.read();
      // The button pressed is gone now: keep the keyboard in the bar, not on the page's body.
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('.preview-toggle')?.focus();
    } catch (err) {
      this.fail(err);
    } finally {
      this.busy = false;
    }
  }

  /** Asks before discarding; the keyboard goes to the question's buttons, Keep the draft back. */
  private async confirmDiscard(): Promise<void> {
    this.confirming = true;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('.confirm button')?.focus();
  }

  private keep(): void {
    this.confirming = false;
    void this.updateComplete.then(() =>
      this.renderRoot.querySelector<HTMLElement>('.discard-button')?.focus(),
    );
  }

  protected override render() {
    const state = this.state;
    if (state === null || (state.publish_mode === 'immediate' && !state.has_draft)) return nothing;
    const t = this.t;
    const language = languageName(t, this.lang);
    const shown = state.html[this.lang] ?? '';
    return html`<section class="publish" part="publish" aria-labelledby="publish-state">
      <div class="publish-row">
        <p id="publish-state" class=${state.has_draft ? 'state draft' : 'state published'}>
          <strong>${state.has_draft ? t('draftNotPublished') : t('publishedState')}</strong>
          ${state.has_draft ? html`<span class="hint">${t('draftHint')}</span>` : nothing}
        </p>
        <div class="publish-actions" role="group" aria-label=${t('publishRegion')}>
          <button
            class="preview-toggle"
            aria-expanded=${this.previewing}
            aria-controls="publish-preview"
            @click=${() => (this.previewing = !this.previewing)}
          >
            ${t('preview')}
          </button>
          ${
            state.has_draft
              ? html`<button
                    class="primary publish-button"
                    ?disabled=${this.busy}
                    @click=${() => void this.act('publish')}
                  >
                    ${t('publish')}
                  </button>
                  <button
                    class="danger discard-button"
                    ?disabled=${this.busy}
                    @click=${() => void this.confirmDiscard()}
                  >
                    ${t('discardDraft')}
                  </button>`
              : nothing
          }
        </div>
      </div>
      ${
        this.confirming
          ? html`<div class="confirm" role="alertdialog" aria-labelledby="discard-question">
              <p id="discard-question">${t('confirmDiscard')}</p>
              <button class="danger" @click=${() => void this.act('discard')}>${t('discardDraft')}</button>
              <button @click=${() => this.keep()}>${t('keepDraft')}</button>
            </div>`
          : nothing
      }
      <p class="publish-message" role="status" aria-live="polite">${this.message}</p>
      ${
        this.previewing
          ? html`<section id="publish-preview" class="storefront-preview" aria-labelledby="preview-title">
              <h3 id="preview-title">
                ${state.has_draft ? t('previewTitle', { language }) : t('previewPublishedTitle', { language })}
              </h3>
              <div
                class="ccs-content"
                part="draft-preview"
                lang=${this.lang === 'default' ? nothing : this.lang}
              >
                ${shown ? unsafeHTML(shown) : html`<p class="hint">${t('previewEmpty')}</p>`}
              </div>
            </section>`
          : nothing
      }
    </section>`;
  }
}

if (!customElements.get('ccs-publish-bar')) customElements.define('ccs-publish-bar', CcsPublishBar);

declare global {
  interface HTMLElementTagNameMap {
    'ccs-publish-bar': CcsPublishBar;
  }
}
