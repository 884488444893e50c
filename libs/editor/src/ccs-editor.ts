/**
 * <ccs-editor>: the content editor a host page embeds. It talks only to the white-label API
 * (v3) at `api-base`, with the host's white-label token. The state is in editor-state.ts, the
 * operations in editor-core.ts, the API calls in content-api.ts; this file draws them (a
 * widget's row in widget-item.ts, in-place editing in inline-edit.ts, the panels in *-panel.ts).
 */
import { html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { EditorHostApi } from './editor-host-api';
import { markNode, NOTE_IDS } from './marks';
import { originOf, textOf } from './text-of';
import { renderToolbar } from './toolbar';
import { entriesOf } from './entries';
import { activeIn } from './guards';
import { adoptContentSheet, watchCsp } from './host';
import {
  cachedTranslator,
  languageName,
  loadMessages,
  messagesToLoad,
  type MessageOverrides,
  type Translate,
} from './i18n';
import { editableNodes, makeEditable } from './inline-edit';
import type { GenerationJobView, RevisionView } from '@catalogue/content/v3';
import { renderWidgetItem, type WidgetItemView } from './widget-item';
import './add-panel';
import './generate-panel';
import './designs-panel';
import './media-form';
import './history-panel';
import './publish-bar';
import { creditsSpentOn } from './confirm-replace';

/** The id of the text every editable text is described by. */
const EDIT_HINT = 'ccs-edit-hint';

/** The stylesheet of rendered content, served by the API (so widgets look as on the shop). */
const CONTENT_CSS = 'content/v1/ccs-content.css';

export class CcsEditor extends EditorHostApi {
  static override properties = {
    ...EditorHostApi.properties,
    // The host's texts: replaces messages or adds a language (see i18n.ts, MessageOverrides).
    messages: { attribute: false },
  };

  declare messages: MessageOverrides | undefined;

  private unwatchCsp: (() => void) | undefined;

  override get t(): Translate {
    return cachedTranslator(this.uiLang, this.messages);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // What the page's Content-Security-Policy blocks of the editor reaches the host as an event.
    this.unwatchCsp = watchCsp(
      () => new URL(this.api?.url('') ?? location.href).origin,
      ({ directive, blocked }) => {
        // The message names the origin (what a policy lists); the event carries the whole URL.
        const message = this.t('errCsp', { directive, blocked: originOf(blocked) });
        this.error = message;
        this.emit('ccs-error', {
          status: 0,
          code: 'csp_blocked',
          message,
          directive,
          blocked,
          entity_id: this.shown?.content.entityId ?? this.entityId,
        });
      },
      () => this.renderRoot,
    );
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unwatchCsp?.();
  }

  protected override render() {
    const t = this.t;
    return html`
      <header part="header">
        <h2>${t('title', { entity: this.entityTitle || this.entityId })}</h2>
        ${this.phase === 'ready' ? this.renderToolbar() : nothing}
      </header>
      <div class="status" role="status" aria-live="polite">${this.status}</div>
      ${
        this.error
          ? html`<div class="error" role="alert" part="error">${this.error}${this.staleButton()}</div>`
          : nothing
      }
      ${this.refusedNotice()}
      ${
        this.phase === 'fatal'
          ? html`<div class="fatal">
              <div class="error" role="alert" part="error">${this.fatal}</div>
              <button class="retry" part="retry" @click=${() => void this.refresh()}>${t('retry')}</button>
            </div>`
          : nothing
      }
      ${this.phase === 'loading' ? html`<p class="hint">${t('loading')}</p>` : nothing}
      ${this.phase === 'ready' ? this.renderReady() : nothing}
    `;
  }

  /**
   * A text refused as stale, kept once the current content is shown (in the entity and language
   * it was written in): apply it again, or discard it.
   */
  private refusedNotice() {
    const refused = this.refused;
    const shown = this.shown;
    if (!refused || this.stale || this.phase !== 'ready' || !shown) return nothing;
    if (shown.content.entityId !== refused.entityId || shown.lang !== refused.lang) return nothing;
    return html`<div class="refused" role="status" part="refused">
      <p>${this.t('refusedKept', { text: refused.text })}</p>
      <button class="reapply" ?disabled=${this.busy} @click=${() => void this.reapplyRefused()}>
        ${this.t('reapply')}
      </button>
      <button class="discard" @click=${() => this.keepRefused(null)}>${this.t('discardRefused')}</button>
    </div>`;
  }

  /** A write refused as stale offers a reload, inside the message. */
  private staleButton() {
    if (!this.stale) return nothing;
    return html`<button class="stale-reload" part="reload" @click=${() => void this.reloadStale()}>
      ${this.t('reloadView')}
    </button>`;
  }

  protected renderToolbar() {
    return renderToolbar({
      t: this.t,
      lang: this.lang,
      languages: this.languages,
      panel: this.panel,
      busy: this.busy,
      deleted: Boolean(this.deleted),
      canRedo: this.redoStack.length > 0,
      has: (f) => this.has(f),
      switchLanguage: (l) => this.switchLanguage(l),
      toggle: (panel) => void this.togglePanel(panel),
      undo: () => void this.undo(),
      redo: () => void this.redo(),
      refresh: () => void this.refresh(),
    });
  }

  protected renderReady() {
    const t = this.t;
    const running = this.job && (this.job.status === 'pending' || this.job.status === 'running');
    return html`
      <ccs-publish-bar
        .api=${this.api}
        .t=${t}
        .entityPath=${this.entityPath}
        .entityId=${this.content.entityId}
        .lang=${this.lang}
        .version=${this.content.version}
        @ccs-content-replaced=${() => void this.reload()}
        @ccs-failed=${(e: CustomEvent<unknown>) => this.fail(e.detail)}
      ></ccs-publish-bar>
      ${
        running
          ? html`<div class="progress" role="status">
              <progress aria-label=${t('generate')}></progress>
              ${t('generating', { status: this.job!.status === 'pending' ? t('jobPending') : t('jobRunning') })}
            </div>`
          : nothing
      }
      ${
        this.deleted
          ? html`<div class="undo">
              ${t('deleted')}
              <button class="undo-button" @click=${() => void this.undoDelete()}>${t('undo')}</button>
            </div>`
          : nothing
      }
      ${
        this.panel === 'add'
          ? html`<ccs-add-panel
              part="panel"
              .api=${this.api}
              .t=${t}
              .count=${this.widgets.length}
              @ccs-failed=${(e: CustomEvent<unknown>) => this.fail(e.detail)}
              @ccs-add=${(e: CustomEvent<{ body: Record<string, unknown>; via: string }>) => void this.add(e.detail.body, e.detail.via)}
              @ccs-close=${() => void this.closePanel()}
            ></ccs-add-panel>`
          : nothing
      }
      ${
        this.panel === 'generate'
          ? html`<ccs-generate-panel
              part="panel"
              .api=${this.api}
              .t=${t}
              .entityPath=${this.entityPath}
              .entityType=${this.entityType}
              .languages=${this.languages}
              .lang=${this.lang}
              .count=${this.widgets.length}
              .replaced=${this.replacedNames()}
              .spent=${() => this.content.revisions().then(creditsSpentOn)}
              .running=${Boolean(running)}
              @ccs-started=${(e: CustomEvent<GenerationJobView>) => this.watcher.watch(e.detail)}
              @ccs-failed=${(e: CustomEvent<unknown>) => this.panelFailed(e.detail)}
              @ccs-close=${() => void this.closePanel()}
            ></ccs-generate-panel>`
          : nothing
      }
      ${
        this.panel === 'designs'
          ? html`<ccs-designs-panel
              part="panel"
              .api=${this.api}
              .t=${t}
              .entityPath=${this.entityPath}
              .entityType=${this.entityType}
              .replaced=${this.replacedNames()}
              .spent=${() => this.content.revisions().then(creditsSpentOn)}
              .languageNames=${this.languages.map((l) => languageName(t, l))}
              .lang=${this.lang}
              @ccs-filled=${(e: CustomEvent<{ widget_created: number }>) => void this.afterFill(e.detail.widget_created)}
              @ccs-failed=${(e: CustomEvent<unknown>) => this.panelFailed(e.detail)}
              @ccs-close=${() => void this.closePanel()}
            ></ccs-designs-panel>`
          : nothing
      }
      ${
        this.panel === 'history'
          ? html`<ccs-history-panel
              part="panel"
              .api=${this.api}
              .t=${t}
              .read=${() => this.content.revisions()}
              .current=${this.content.version}
              @ccs-restore-revision=${(e: CustomEvent<{ revision: RevisionView; when: string }>) =>
                void this.restoreRevision(e.detail.revision, e.detail.when)}
              @ccs-failed=${(e: CustomEvent<unknown>) => this.fail(e.detail)}
              @ccs-close=${() => void this.closePanel()}
            ></ccs-history-panel>`
          : nothing
      }
      ${
        !this.widgets.length
          ? html`<p class="hint">${t('empty')}</p>`
          : this.has('edit')
            ? html`<p class="hint" id=${EDIT_HINT}>${t('editHint')}</p>
                <p hidden id=${NOTE_IDS.sample}>${t('toFill')}</p>
                <p hidden id=${NOTE_IDS.fallback}>${t('fallbackShown')}</p>`
            : nothing
      }
      <ol
        class="widgets"
        part="widget-list"
        aria-label=${t('widgetsLabel')}
        aria-busy=${this.busy || this.readingAnew}
        ?inert=${this.readingAnew}
      >
        ${repeat(
          this.widgets,
          (w) => w.id,
          (w, i) => renderWidgetItem(this.itemView, w, i),
        )}
      </ol>
    `;
  }

  /** The widgets shown, as an owner recognises them: "Section — Built for trails" (a replace lists them). */
  protected replacedNames(): string[] {
    return this.widgets.map((w, i) => {
      const text = textOf(w.html);
      const name = this.nameOf(w) ?? this.t('widgetLabel', { n: i + 1, total: this.widgets.length });
      return text ? `${name} — ${text.length > 60 ? `${text.slice(0, 59)}…` : text}` : name;
    });
  }

  /** What a widget's row needs from the editor (see widget-item.ts). */
  protected get itemView(): WidgetItemView {
    return {
      t: this.t,
      total: this.widgets.length,
      busy: this.busy || this.readingAnew,
      editable: this.has('edit'),
      drawn: this.drawn,
      dropIndex: this.dropIndex,
      copying: this.copying,
      entriesOpen: this.entriesOf,
      nameOf: (w) => {
        const widget = this.catalogue.get(w.widget_id);
        return widget && this.t.catalogue(`widget.${widget.type}`, widget.name);
      },
      dragStart: (i) => (this.dragFrom = i),
      dragOver: (i) => {
        if (this.dragFrom === null) return false;
        this.dropIndex = i;
        return true;
      },
      dragEnd: () => {
        this.dragFrom = null;
        this.dropIndex = null;
      },
      drop: (i) => {
        const from = this.dragFrom;
        this.dragFrom = null;
        this.dropIndex = null;
        if (from !== null) void this.move(from, i);
      },
      moveBy: (from, to) => void this.moveByKeyboard(from, to),
      remove: (w, i) => void this.deleteWidget(w, i),
      favourite: (w) => void this.saveFavourite(w),
      toggleCopy: (w) => (this.copying = this.copying === w.id ? null : w.id),
      copyTo: (w, target) => void this.copyTo(w, target),
      entries: (w) => entriesOf(w, this.catalogue.get(w.widget_id)?.item_class ?? null, this.lang),
      toggleEntries: (w) => (this.entriesOf = this.entriesOf === w.id ? null : w.id),
      mediaOpen: this.mediaOf,
      lang: this.shown?.lang ?? this.lang,
      toggleMedia: (w) => (this.mediaOf = this.mediaOf === w.id ? null : w.id),
      saveMedia: (w, save) => void this.saveMedia(w, save.elementId, save.extension),
      entryAction: (action, w, entry, k) => void this.entryAction(action, w, entry.element, k),
    };
  }

  protected override updated(): void {
    // A UI language whose texts are served beside the bundle: read them, then draw again.
    const lang = messagesToLoad(this.uiLang, this.messages);
    if (lang && this.api)
      void loadMessages(this.api.url(`editor/v1/messages/${lang}.json`), lang).then(
        (ok) => ok && this.requestUpdate(),
      );
    // The content stylesheet as a constructable sheet: a strict style-src blocks a <link>.
    if (this.api && this.renderRoot instanceof ShadowRoot)
      void adoptContentSheet(this.renderRoot, this.api.url(CONTENT_CSS)).catch(() => undefined);
    // `?selected` does not move a select the person already used; the language may change
    // under it (a finished generation shows its own language).
    const select = this.renderRoot.querySelector<HTMLSelectElement>('select.lang');
    if (select && select.value !== this.lang) select.value = this.lang;
    this.wireEditables();
  }

  /**
   * The text being edited is left, which saves it (see inline-edit.ts): focus may be in its
   * formatting toolbar, so the field is focused first.
   */
  protected override commitEdit(): void {
    for (const editing of this.renderRoot.querySelectorAll<HTMLElement>(
      'ol.widgets .ccs-editable[contenteditable]',
    )) {
      if (activeIn(this.renderRoot) !== editing) editing.focus();
      editing.blur();
    }
  }

  /** Marks the editable texts of every rendered widget and edits them in place. */
  protected wireEditables(): void {
    const view = this.shown;
    if (!view || !this.has('edit')) return;
    for (const item of this.renderRoot.querySelectorAll<HTMLElement>('li.widget')) {
      const widget = this.widgets.find((w) => String(w.id) === item.dataset.id);
      const body = item.querySelector<HTMLElement>('.widget-body');
      if (!widget || !body) continue;
      // A question's answer is edited too: the editor keeps every details open.
      for (const details of body.querySelectorAll('details')) details.open = true;
      for (const { element, node, plain } of editableNodes(widget, body, view.lang)) {
        makeEditable(node, plain, {
          describedBy: EDIT_HINT,
          commit: () => this.track(this.save(view, widget, element.id, node, plain)),
          changed: (unsaved) => this.markUnsaved(node, unsaved, view),
          texts: () => this.t,
        });
        markNode(node, element, view.lang, this.t, EDIT_HINT);
      }
    }
  }
}

if (!customElements.get('ccs-editor')) customElements.define('ccs-editor', CcsEditor);

declare global {
  interface HTMLElementTagNameMap {
    'ccs-editor': CcsEditor;
  }
}
