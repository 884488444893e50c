/**
 * What <ccs-editor> does: open, reload, change, reorder, delete and undo, edit in place,
 * duplicate or remove an entry (element-copy), favourite, copy, follow a generation. The state
 * is editor-state.ts's, the calls content-api.ts's; ccs-editor.ts draws it.
 */
import { ApiError } from './api';
import { EditorLoad } from './editor-load';
import type { Panel, Refused, View } from './editor-state';
import type { PanelBase } from './panel-base';
import { editableNodes, editedValue } from './inline-edit';
import { isMessageKey } from './i18n';
import type { ContentElement, ContentWidget, GenerationJobView } from '@catalogue/content/v3';

export type { Panel } from './editor-state';

export class EditorCore extends EditorLoad {
  constructor() {
    super();
    // Escape closes the open panel from anywhere in the editor but a text being edited (there
    // it cancels the edit) or a panel's own field that used it.
    this.addEventListener('keydown', (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || this.panel === 'none') return;
      const target = e.composedPath()[0];
      if (target instanceof HTMLElement && target.isContentEditable) return;
      e.preventDefault();
      void this.closePanel();
    });
  }

  /** Which widgets the job left out and why, in the UI language ('' when none). */
  private skippedText(job: GenerationJobView): string {
    const skipped = job.widgets_skipped ?? [];
    if (skipped.length === 0) return '';
    const names = new Map([...this.catalogue.values()].map((w) => [w.type, w.name]));
    const name = (type: string) => names.get(type) ?? type;
    // What the page already shows is said apart: it is not for want of material.
    const repeats = skipped.filter((s) => s.reason === 'already_shown');
    const list = skipped
      .filter((s) => s.reason !== 'already_shown')
      .map((s) => {
        const key = `skip_${s.reason}`;
        const reason = isMessageKey(key) ? this.t(key) : s.reason;
        return `${name(s.type)} (${reason})`;
      });
    return [
      list.length > 0 ? this.t('generatedSkipped', { list: list.join(', ') }) : '',
      repeats.length > 0
        ? this.t('generatedRepeats', { list: repeats.map((s) => name(s.type)).join(', ') })
        : '',
    ]
      .filter(Boolean)
      .join(' ');
  }

  protected nameOf(widget: ContentWidget): string | undefined {
    return this.catalogue.get(widget.widget_id)?.name;
  }

  protected move(from: number, to: number): Promise<boolean> {
    if (to < 0 || to >= this.widgets.length || from === to) return Promise.resolve(false);
    const order = this.widgets.map((w) => w.id);
    const [id] = order.splice(from, 1);
    order.splice(to, 0, id!);
    return this.change(
      'reorder',
      { order },
      (v) => v.content.reorder(order, v.lang),
      this.t('moved', { n: to + 1 }),
    );
  }

  protected async moveByKeyboard(from: number, to: number): Promise<void> {
    if (!(await this.move(from, to))) return;
    await this.updateComplete;
    // Focus follows the widget, so pressing the same key again keeps moving it (or, at the
    // end of the list, lands on the other direction's button).
    const item = this.renderRoot.querySelector(`li.widget:nth-child(${to + 1})`);
    const same = item?.querySelector<HTMLButtonElement>(`button[data-move="${to < from ? 'up' : 'down'}"]`);
    const other = item?.querySelector<HTMLButtonElement>(`button[data-move="${to < from ? 'down' : 'up'}"]`);
    (same && !same.disabled ? same : other)?.focus();
  }

  protected async deleteWidget(widget: ContentWidget, position: number): Promise<void> {
    const ok = await this.change(
      'delete',
      { widget_id: widget.id },
      (v) => v.content.remove(widget, v.lang),
      '', // the undo bar says it
    );
    if (ok) {
      this.deleted = { widget, position };
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLButtonElement>('button.undo-button')?.focus();
    }
  }

  /** Puts a deleted widget back where it was, with the texts and images it had. */
  protected async undoDelete(): Promise<void> {
    const deleted = this.deleted;
    if (!deleted) return;
    const ok = await this.change(
      'restore',
      { widget_id: deleted.widget.widget_id },
      (v) => v.content.restore(deleted.widget, Math.min(deleted.position, this.widgets.length), v.lang),
      this.t('restored'),
    );
    if (!ok) return;
    this.deleted = null;
    // The Undo button goes away with the bar: focus goes to the restored widget's Delete.
    await this.updateComplete;
    const position = Math.min(deleted.position, this.widgets.length - 1);
    this.renderRoot
      .querySelector<HTMLButtonElement>(`li.widget:nth-child(${position + 1}) button.danger`)
      ?.focus();
  }

  protected override onJob(job: GenerationJobView): void {
    this.job = job;
    this.emit('ccs-generation', { job, entity_id: this.entityId });
    if (job.status === 'done') {
      this.newAction();
      this.status = [this.t('generated', { n: job.widgets_created }), this.skippedText(job)]
        .filter(Boolean)
        .join(' ');
      // The texts were written in the job's language: show that one (its change reads them).
      const entity = this.entityId;
      const switched = this.languages.includes(job.lang) && job.lang !== this.lang;
      if (switched) this.lang = job.lang;
      void (switched ? this.updateComplete.then(() => this.loading) : this.reload()).then((read) => {
        if (read !== false)
          this.emit('ccs-change', { action: 'generate', entity_id: entity, job_id: job.id });
      });
    } else if (job.status === 'failed') {
      this.error = this.t('generationFailed', { message: job.error_message ?? '' });
    }
  }

  /** Saves a text edited in place (see inline-edit.ts) for the entity and language it was shown in. */
  protected async save(
    view: View,
    widget: ContentWidget,
    elementId: number,
    node: HTMLElement,
    plain: boolean,
  ): Promise<void> {
    if (!node.isContentEditable) return;
    if (node.innerHTML === node.dataset.before) {
      node.removeAttribute('contenteditable');
      this.markUnsaved(node, false);
      this.keepFocus(widget.id, elementId, node);
      return;
    }
    const value = editedValue(node, plain);
    const ok = await this.change(
      'edit',
      { widget_id: widget.id, element_id: elementId, value },
      // Saved is saved, whatever view is shown when the answer comes (the host may have left it).
      (v) =>
        v.content.edit(widget, elementId, value, v.lang).then((widgets) => {
          this.markUnsaved(node, false, v);
          return widgets;
        }),
      this.t('saved'),
      view,
    );
    // On failure the text stays in the field, still editable, next to the message, and is
    // counted as unsaved until it is saved or drawn anew.
    if (!ok) {
      // Left meanwhile: the text is gone with its view; the host heard of the failure for its
      // entity (`ccs-error`), and nothing of it is left to save.
      if (!this.current(view)) {
        this.markUnsaved(node, false, view);
        node.removeAttribute('contenteditable');
        return;
      }
      node.classList.add('invalid');
      // Changed elsewhere: retrying cannot help; the message offers a reload (and takes focus),
      // and the text is kept to apply again to the current content once it is read.
      if (this.stale) {
        this.keepRefused({
          entityId: view.content.entityId,
          lang: view.lang,
          widgetId: widget.id,
          elementId,
          value,
          text: (node.textContent ?? '').trim(),
        });
        return;
      }
      // Trying again helps only where the refusal may pass (the network, a busy or failing
      // server, a value to correct); a refused token or a missing item says so.
      if (this.error)
        this.error = this.t(this.retryable ? 'editNotSaved' : 'editNotSavedFinal', { message: this.error });
      // Enter left the text: focus goes back into it, so Enter again retries.
      if (node.isConnected && (document.activeElement === document.body || !document.activeElement))
        node.focus();
      return;
    }
    this.markUnsaved(node, false);
    node.removeAttribute('contenteditable');
    await this.updateComplete;
    this.keepFocus(widget.id, elementId, node);
  }

  protected override async load(): Promise<void> {
    await super.load();
    if (this.shown && this.current(this.shown)) this.readRefused();
  }

  /** Keeps a text refused as stale (for the tab's session: a reload of the page keeps it too). */
  protected keepRefused(refused: Refused | null): void {
    this.refused = refused;
    const key = `ccs-refused:${this.content.api.url('')}${this.entityPath}`;
    try {
      if (refused) sessionStorage.setItem(key, JSON.stringify(refused));
      else sessionStorage.removeItem(key);
    } catch {
      // storage refused: kept until the page is left
    }
  }

  /** The refused text kept for the entity shown (after a reload of the page). */
  protected readRefused(): void {
    try {
      const key = `ccs-refused:${this.content.api.url('')}${this.entityPath}`;
      const kept = JSON.parse(sessionStorage.getItem(key) ?? 'null') as Refused | null;
      this.refused = kept && kept.entityId === this.entityId ? kept : null;
    } catch {
      this.refused = null;
    }
  }

  /** Writes the refused text again, into the current content (its element, if still there). */
  protected async reapplyRefused(): Promise<void> {
    const refused = this.refused;
    const view = this.shown;
    if (!refused || !view) return;
    const widget = this.widgets.find((w) => w.id === refused.widgetId);
    if (!widget || !widget.children.some((e) => e.id === refused.elementId)) {
      this.error = this.t('refusedGone');
      return;
    }
    const ok = await this.change(
      'edit',
      { widget_id: widget.id, element_id: refused.elementId, value: refused.value },
      (v) => v.content.edit(widget, refused.elementId, refused.value, v.lang),
      this.t('saved'),
      view,
    );
    if (ok) this.keepRefused(null);
  }

  /**
   * After Enter saved a text (focus went nowhere), focus goes back to that text — drawn anew
   * from the answer's html when it changed — so the keyboard goes on from there rather than
   * from the top of the page. A person who moved on (Tab, a click) keeps focus where it went.
   */
  private keepFocus(widgetId: number, elementId: number, node: HTMLElement): void {
    if (document.activeElement !== document.body && document.activeElement !== null) return;
    if (node.isConnected) {
      node.focus();
      return;
    }
    const body = this.renderRoot.querySelector<HTMLElement>(`li.widget[data-id="${widgetId}"] .widget-body`);
    const widget = this.widgets.find((w) => w.id === widgetId);
    if (!body || !widget) return;
    editableNodes(widget, body, this.lang)
      .find((e) => e.element.id === elementId)
      ?.node.focus();
  }

  /**
   * Duplicates an entry of a widget (a question, a benefit, a row; it appears right after the
   * original) or removes it, with the API's element-copy. The list of entries stays open and
   * focus stays in it (on the copy, or on the entry that took the removed one's place).
   */
  protected async entryAction(
    action: 'copy' | 'remove',
    widget: ContentWidget,
    entry: ContentElement,
    index: number,
  ): Promise<void> {
    const ok = await this.change(
      action === 'copy' ? 'entry-copy' : 'entry-remove',
      { widget_id: widget.id, element_id: entry.id },
      (v) => v.content.elementAction(action, widget, entry, v.lang),
      this.t(action === 'copy' ? 'entryCopied' : 'entryRemoved', { n: index + 1 }),
    );
    if (!ok) return;
    await this.updateComplete;
    const rows = this.renderRoot.querySelectorAll<HTMLElement>(
      `li.widget[data-id="${widget.id}"] .entries li`,
    );
    const row = rows[action === 'copy' ? index + 1 : Math.min(index, rows.length - 1)];
    row?.querySelector<HTMLButtonElement>(action === 'copy' ? 'button' : 'button:not(:disabled)')?.focus();
  }

  /** Saves an image's, a link's or a video's attributes (see media-form.ts). */
  protected async saveMedia(
    widget: ContentWidget,
    elementId: number,
    extension: Record<string, unknown>,
  ): Promise<void> {
    await this.change(
      'media',
      { widget_id: widget.id, element_id: elementId, extension },
      (v) => v.content.attributes(widget, elementId, extension, v.lang),
      this.t('saved'),
    );
  }

  protected saveFavourite(widget: ContentWidget): Promise<void> {
    return this.act(async () => {
      const title = `${this.nameOf(widget) ?? widget.widget_id} — ${this.entityTitle || this.entityId}`;
      await this.content.favourite(widget, title.slice(0, 255));
      this.status = this.t('favourited');
      this.emit('ccs-change', { action: 'favourite', entity_id: this.entityId, widget_id: widget.id });
    });
  }

  /** Copies one widget, as it is, to the end of another registered entity of the same type. */
  protected copyTo(widget: ContentWidget, target: string): Promise<void> {
    return this.act(async () => {
      await this.content.copyTo(widget, target);
      this.copying = null;
      this.status = this.t('copied', { target });
      this.emit('ccs-change', {
        action: 'copy',
        entity_id: this.entityId,
        widget_id: widget.id,
        target_entity_id: target,
      });
    });
  }

  protected async add(body: Record<string, unknown>, via: string): Promise<void> {
    const ok = await this.change(
      'add',
      { widget_id: body.widget_id, via },
      (v) => v.content.add(body, v.lang),
      this.t('added'),
    );
    if (ok) await this.closePanel();
  }

  protected async afterFill(created: number): Promise<void> {
    this.newAction();
    void this.closePanel();
    this.status = this.t('filled', { n: created });
    const entity = this.entityId;
    if (await this.reload())
      this.emit('ccs-change', { action: 'fill-design', entity_id: entity, widgets: created });
  }

  /** Reads the content anew after a write was refused as stale; focus goes to the toolbar's Reload. */
  protected async reloadStale(): Promise<void> {
    await this.refresh();
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLButtonElement>('button[data-refresh]')?.focus();
  }

  /**
   * A panel's write failed (the panel shows why): the host is told, and a write refused as stale
   * (a fill made from a view changed elsewhere) also offers the editor's reload.
   */
  protected panelFailed(err: unknown): void {
    if (err instanceof ApiError && err.status === 412) this.fail(err);
    else this.report(err);
  }

  /** Opens a panel (focus moves into it) or closes the one open (focus back on its button). */
  protected async togglePanel(panel: Panel): Promise<void> {
    if (this.panel === panel) return this.closePanel();
    this.panel = panel;
    await this.updateComplete;
    await this.renderRoot.querySelector<PanelBase>('[part="panel"]')?.focusInside();
  }

  /** Closes the open panel and puts focus back on the button that opened it. */
  protected async closePanel(): Promise<void> {
    const open = this.panel;
    this.panel = 'none';
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLButtonElement>(`button[data-panel="${open}"]`)?.focus();
  }
}
