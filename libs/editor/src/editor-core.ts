/**
 * What <ccs-editor> does: open, reload, change, reorder, delete and undo, edit in place,
 * duplicate or remove an entry (element-copy), favourite, copy, follow a generation. The state
 * is editor-state.ts's, the calls content-api.ts's; ccs-editor.ts draws it.
 */
import { ApiError } from './api';
import { EditorState } from './editor-state';
import { editableNodes, editedValue } from './inline-edit';
import { JobWatcher } from './job-watcher';
import { en, type MessageKey } from './messages/en';
import type { ContentElement, ContentWidget, GenerationJob } from './types';

export type { Panel } from './editor-state';

export class EditorCore extends EditorState {
  protected readonly watcher = new JobWatcher(this, (job) => this.onJob(job));

  protected override firstUpdated(): void {
    void this.open();
  }

  /** Reads everything again from the API (the host calls it after changing the entity elsewhere). */
  async refresh(): Promise<void> {
    await this.open();
  }

  /**
   * Opening costs round trips (each with a CORS preflight), so the first one asks for
   * everything the first widget needs at once: the licence check, the registration and the
   * content. Only an entity seen for the first time has no content to read before it is
   * registered: its read is then made again. The content is drawn as soon as it is there,
   * while the languages, a running generation and the widget catalogue are read (on a busy
   * server the first widget comes sooner without their company).
   */
  protected async open(): Promise<void> {
    this.error = '';
    this.fatal = '';
    if (this.phase !== 'ready') this.phase = 'loading';
    const content = this.content;
    try {
      const [licence, registered, read] = await Promise.allSettled([
        content.checkLicence(),
        content.register(registeredTitle(this.entityTitles, this.entityTitle)),
        content.widgets(this.lang),
      ]);
      // The licence check speaks first: a refused registration is then only its consequence.
      if (licence.status === 'rejected') throw licence.reason;
      if (!licence.value.data.has_valid_license) {
        this.fail(
          new ApiError(
            403,
            'The white-label licence of this eshop is not valid',
            'licence_invalid',
            undefined,
          ),
          true,
        );
        return;
      }
      if (registered.status === 'rejected') throw registered.reason;
      const widgets = read.status === 'fulfilled' ? read.value : await content.widgets(this.lang);
      const rest = Promise.all([content.languages(), content.running(), content.catalogue()]);
      rest.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
      this.widgets = widgets;
      if (this.languages.length === 0) this.languages = [this.lang];
      this.phase = 'ready';
      await this.updateComplete;
      if (widgets.length) performance.mark('ccs-first-widget');
      const [languages, running, catalogue] = await rest;
      this.languages = languages;
      this.catalogue = new Map(catalogue.map((w) => [w.id, w]));
      this.emit('ccs-ready', {
        entity_id: this.entityId,
        languages: this.languages,
        widgets: widgets.length,
      });
      if (running) this.watcher.watch(running);
    } catch (err) {
      this.fail(err, this.phase !== 'ready');
    }
  }

  protected async reload(): Promise<void> {
    this.widgets = await this.content.widgets(this.lang);
  }

  protected async switchLanguage(lang: string): Promise<void> {
    this.lang = lang;
    try {
      await this.reload();
    } catch (err) {
      this.fail(err);
    }
  }

  /** Which widgets the job left out and why, in the UI language ('' when none). */
  private skippedText(job: GenerationJob): string {
    const skipped = job.widgets_skipped ?? [];
    if (skipped.length === 0) return '';
    const names = new Map([...this.catalogue.values()].map((w) => [w.type, w.name]));
    const list = skipped.map((s) => {
      const key = `skip_${s.reason}` as MessageKey;
      const reason = key in en ? this.t(key) : s.reason;
      return `${names.get(s.type) ?? s.type} (${reason})`;
    });
    return this.t('generatedSkipped', { list: list.join(', ') });
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
      () => this.content.reorder(order, this.lang),
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
      () => this.content.remove(widget, this.lang),
      '', // the undo bar says it
    );
    if (ok) {
      this.deleted = { widget, position };
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLButtonElement>('button.undo-button')?.focus();
    }
  }

  /** Puts a deleted widget back where it was, with the texts and images it had. */
  protected async undo(): Promise<void> {
    const deleted = this.deleted;
    if (!deleted) return;
    const ok = await this.change(
      'restore',
      { widget_id: deleted.widget.widget_id },
      () => this.content.restore(deleted.widget, Math.min(deleted.position, this.widgets.length), this.lang),
      this.t('restored'),
    );
    if (ok) this.deleted = null;
  }

  protected onJob(job: GenerationJob): void {
    this.job = job;
    this.emit('ccs-generation', { job });
    if (job.status === 'done') {
      this.status = [this.t('generated', { n: job.widgets_created }), this.skippedText(job)]
        .filter(Boolean)
        .join(' ');
      // The texts were written in the job's language: show that one.
      if (this.languages.includes(job.lang)) this.lang = job.lang;
      void this.reload().then(
        () => this.emit('ccs-change', { action: 'generate', entity_id: this.entityId, job_id: job.id }),
        (err: unknown) => this.fail(err),
      );
    } else if (job.status === 'failed') {
      this.error = this.t('generationFailed', { message: job.error_message ?? '' });
    }
  }

  /** Saves a text edited in place (see inline-edit.ts) in the language shown. */
  protected async save(
    widget: ContentWidget,
    elementId: number,
    node: HTMLElement,
    plain: boolean,
  ): Promise<void> {
    if (!node.isContentEditable) return;
    if (node.innerHTML === node.dataset.before) {
      node.removeAttribute('contenteditable');
      this.keepFocus(widget.id, elementId, node);
      return;
    }
    const value = editedValue(node, plain);
    const ok = await this.change(
      'edit',
      { widget_id: widget.id, element_id: elementId },
      () => this.content.edit(widget, elementId, value, this.lang),
      this.t('saved'),
    );
    // On failure the text stays in the field, still editable, next to the message.
    if (!ok) {
      node.classList.add('invalid');
      return;
    }
    node.removeAttribute('contenteditable');
    await this.updateComplete;
    this.keepFocus(widget.id, elementId, node);
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
      () => this.content.elementAction(action, widget, entry, this.lang),
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
      () => this.content.add(body, this.lang),
      this.t('added'),
    );
    if (ok) await this.closePanel();
  }

  protected async afterFill(created: number): Promise<void> {
    void this.closePanel();
    this.status = this.t('filled', { n: created });
    try {
      await this.reload();
      this.emit('ccs-change', { action: 'fill-design', entity_id: this.entityId, widgets: created });
    } catch (err) {
      this.fail(err);
    }
  }

  /** Closes the open panel and puts focus back on the button that opened it. */
  protected async closePanel(): Promise<void> {
    const open = this.panel;
    this.panel = 'none';
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLButtonElement>(`button[data-panel="${open}"]`)?.focus();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.watcher.stop();
  }
}

/**
 * What the editor registers as the entity's title: the host's per-language map (`entity-titles`)
 * when it is one of non-empty strings, else the one `entity-title` (stored as `default`).
 */
export function registeredTitle(titles: unknown, title: string): string | Record<string, string> {
  if (typeof titles === 'object' && titles !== null && !Array.isArray(titles)) {
    const map = Object.fromEntries(
      Object.entries(titles).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].trim() !== '',
      ),
    );
    if (Object.keys(map).length > 0) return map;
  }
  return title;
}
