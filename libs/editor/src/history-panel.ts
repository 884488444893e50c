import { html, nothing } from 'lit';
import { languageName } from './i18n';
import { PanelBase } from './panel-base';
import { editorStyles } from './styles';
import { revisionStyles } from './styles-more';
import type { RevisionView } from '@catalogue/content/v3';

/**
 * Which revision the storefront serves, and which waited as drafts: only where drafts were kept
 * (`drafting`); an eshop that publishes at once serves its newest revision, always.
 */
function revisionBadge(t: CcsHistoryPanel['t'], r: RevisionView, drafting: boolean) {
  if (!drafting) return nothing;
  if (r.published) return html` <em class="badge published">${t('historyPublished')}</em>`;
  if (r.draft) return html` <em class="badge draft">${t('historyDraft')}</em>`;
  return nothing;
}

/** The content's revisions, newest first: who wrote each, when, in which languages; Restore. */
export class CcsHistoryPanel extends PanelBase {
  static override styles = [editorStyles, revisionStyles];
  static override properties = {
    ...PanelBase.properties,
    read: { attribute: false },
    current: { attribute: false },
    revisions: { state: true },
  };
  /** Reads the revisions (the editor's ContentApi). */
  declare read: () => Promise<RevisionView[]>;
  /** The version shown now (its Restore is left out). */
  declare current: number | null;
  declare revisions: RevisionView[] | null;

  constructor() {
    super();
    this.current = null;
    this.revisions = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.read().then(
      (revisions) => (this.revisions = revisions),
      (err: unknown) => this.send('ccs-failed', err),
    );
  }

  /** A revision's time as the UI language writes it. */
  private when(r: RevisionView): string {
    try {
      return new Date(r.created_at).toLocaleString(this.t.lang, { dateStyle: 'medium', timeStyle: 'short' });
    } catch {
      return r.created_at;
    }
  }

  protected override render() {
    const t = this.t;
    const drafting = (this.revisions ?? []).some(
      (r) => r.draft || r.source === 'publish' || r.source === 'discard',
    );
    return html`<section class="panel" aria-labelledby="history-title">
      <h3 id="history-title">${t('historyTitle')}</h3>
      ${this.revisions === null ? html`<p class="hint">${t('loading')}</p>` : nothing}
      ${this.revisions?.length === 0 ? html`<p class="hint">${t('historyEmpty')}</p>` : nothing}
      <ol class="revisions">
        ${(this.revisions ?? []).map((r) => {
          const when = this.when(r);
          const langs = r.languages_changed.map((l) => languageName(t, l)).join(', ');
          return html`<li>
            <span
              ><strong>${t(`source_${r.source}`)}</strong>${revisionBadge(t, r, drafting)} ·
              <time datetime=${r.created_at}>${when}</time
              >${langs ? ` · ${t('historyLanguages', { list: langs })}` : ''}</span
            >
            ${
              r.version === this.current
                ? html`<em>${t('historyNow')}</em>`
                : html`<button
                    aria-label=${t('restoreRevisionOf', { when })}
                    @click=${() => this.send('ccs-restore-revision', { revision: r, when })}
                  >
                    ${t('restoreRevision')}
                  </button>`
            }
          </li>`;
        })}
      </ol>
      <button @click=${() => this.close()}>${t('close')}</button>
    </section>`;
  }
}

if (!customElements.get('ccs-history-panel')) customElements.define('ccs-history-panel', CcsHistoryPanel);
