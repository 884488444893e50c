/**
 * The state of <ccs-editor> and what it does with the white-label API (v3): open, reload,
 * change, reorder, delete and undo, favourite, copy, follow a generation; every change tells
 * the host page through DOM events (`ccs-ready`, `ccs-change`, `ccs-generation`, `ccs-error`).
 */
import { LitElement, type PropertyValues } from 'lit';
import { Api, ApiError } from './api';
import { errorMessage, translator, type Translate } from './i18n';
import { editableNodes, editedValue, makeEditable } from './inline-edit';
import { editorStyles } from './styles';
import type { CatalogueWidget, ContentWidget, GenerationJob } from './types';
import { JobWatcher } from './job-watcher';

export type Panel = 'none' | 'add' | 'generate' | 'designs';

interface Deleted {
  widget: ContentWidget;
  position: number;
}

/**
 * The editor's state and its operations against the API; ccs-editor.ts renders it.
 */
export class EditorCore extends LitElement {
  static override styles = editorStyles;
  static override properties = {
    apiBase: { attribute: 'api-base' },
    token: {},
    entityId: { attribute: 'entity-id' },
    entityType: { attribute: 'entity-type' },
    entityTitle: { attribute: 'entity-title' },
    uiLang: { attribute: 'ui-lang' },
    phase: { state: true },
    languages: { state: true },
    lang: { state: true },
    widgets: { state: true },
    busy: { state: true },
    status: { state: true },
    error: { state: true },
    fatal: { state: true },
    deleted: { state: true },
    panel: { state: true },
    job: { state: true },
    dropIndex: { state: true },
    copying: { state: true },
  };

  declare apiBase: string;
  declare token: string;
  declare entityId: string;
  declare entityType: string;
  declare entityTitle: string;
  declare uiLang: string;
  declare phase: 'loading' | 'ready' | 'fatal';
  declare languages: string[];
  declare lang: string;
  declare widgets: ContentWidget[];
  declare busy: boolean;
  declare status: string;
  declare error: string;
  declare fatal: string;
  declare deleted: Deleted | null;
  declare panel: Panel;
  declare job: GenerationJob | null;
  declare dropIndex: number | null;
  /** The widget whose "copy to another entity" form is open. */
  declare copying: number | null;

  protected api!: Api;
  /** Catalogue widget names by id, for the widgets' labels. */
  protected names = new Map<number, string>();
  /** The API client (read by the job watcher). */
  get apiClient(): Api {
    return this.api;
  }
  protected dragFrom: number | null = null;
  protected readonly watcher = new JobWatcher(this, (job) => this.onJob(job));

  constructor() {
    super();
    this.apiBase = '';
    this.token = '';
    this.entityId = '';
    this.entityType = 'product';
    this.entityTitle = '';
    this.uiLang = 'en';
    this.phase = 'loading';
    this.languages = [];
    this.lang = 'default';
    this.widgets = [];
    this.busy = false;
    this.status = '';
    this.error = '';
    this.fatal = '';
    this.deleted = null;
    this.panel = 'none';
    this.job = null;
    this.dropIndex = null;
    this.copying = null;
  }

  get t(): Translate {
    return translator(this.uiLang);
  }

  protected get entityPath(): string {
    return `/${encodeURIComponent(this.entityId)}/type/${encodeURIComponent(this.entityType)}`;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (
      changed.has('apiBase') ||
      changed.has('token') ||
      changed.has('entityId') ||
      changed.has('entityType')
    ) {
      this.api = new Api(this.apiBase || location.origin, this.token);
    }
  }

  protected override firstUpdated(): void {
    void this.open();
  }

  /** Reads everything again from the API (the host calls it after changing the entity elsewhere). */
  async refresh(): Promise<void> {
    await this.open();
  }

  protected emit(name: string, detail: unknown): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  /** Shows an API failure and tells the host; what the person typed stays where it was. */
  protected fail(err: unknown, fatal = false): void {
    const message = errorMessage(this.t, err);
    const status = err instanceof ApiError ? err.status : 0;
    const code = err instanceof ApiError ? err.code : undefined;
    if (fatal) {
      this.fatal = message;
      this.phase = 'fatal';
    } else this.error = message;
    this.status = '';
    this.emit('ccs-error', { status, message, code });
  }

  /** Tells the host about a failure a panel already shows. */
  protected report(err: unknown): void {
    const status = err instanceof ApiError ? err.status : 0;
    const code = err instanceof ApiError ? err.code : undefined;
    this.emit('ccs-error', { status, message: errorMessage(this.t, err), code });
  }

  /**
   * Opening costs round trips (each with a CORS preflight), so it runs what it can at once:
   * the licence check beside the registration, then the content alone (on a busy server the
   * first widget comes sooner without company), drawn as soon as it arrives, while the
   * languages, a running generation and the widget names are read.
   */
  protected async open(): Promise<void> {
    this.error = '';
    this.fatal = '';
    if (this.phase !== 'ready') this.phase = 'loading';
    try {
      const [licence, registered] = await Promise.allSettled([
        this.api.post<{ data: { has_valid_license: boolean } }>('/check-license'),
        this.api.post('/register-entity', {
          entity_id: this.entityId,
          type: this.entityType,
          ...(this.entityTitle && { title: this.entityTitle }),
        }),
      ]);
      // The licence check speaks first: a refused registration is then only its consequence.
      if (licence.status === 'rejected') throw licence.reason;
      if (!licence.value.data.has_valid_license) {
        this.fail(
          new ApiError(403, 'The white-label licence of this eshop is not valid', 'licence', undefined),
          true,
        );
        return;
      }
      if (registered.status === 'rejected') throw registered.reason;
      const widgets = await this.api.get<ContentWidget[]>(`/content${this.entityPath}?lang=${this.lang}`);
      const rest = Promise.all([
        this.api.get<{ html: Record<string, string> }>(`/entity${this.entityPath}/html`),
        this.api.get<{ data: GenerationJob }>(`/content${this.entityPath}/generate`).catch((err: unknown) => {
          if (err instanceof ApiError && err.status === 404) return null;
          throw err;
        }),
        this.api.get<{ data: CatalogueWidget[] }>('/widget'),
      ]);
      rest.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
      this.widgets = widgets;
      if (this.languages.length === 0) this.languages = [this.lang];
      this.phase = 'ready';
      await this.updateComplete;
      if (widgets.length) performance.mark('ccs-first-widget');
      const [all, running, catalogue] = await rest;
      this.languages = Object.keys(all.html);
      this.names = new Map(catalogue.data.map((w) => [w.id, w.name]));
      this.emit('ccs-ready', {
        entity_id: this.entityId,
        languages: this.languages,
        widgets: widgets.length,
      });
      if (running) this.watcher.watch(running.data);
    } catch (err) {
      this.fail(err, this.phase !== 'ready');
    }
  }

  protected async reload(): Promise<void> {
    this.widgets = await this.api.get<ContentWidget[]>(`/content${this.entityPath}?lang=${this.lang}`);
  }

  /** Runs one change against the API; the answer (the widgets) replaces the list. */
  protected async change(
    action: string,
    detail: Record<string, unknown>,
    run: () => Promise<ContentWidget[]>,
    done: string,
  ): Promise<boolean> {
    this.busy = true;
    this.error = '';
    this.status = this.t('saving');
    try {
      this.widgets = await run();
      this.status = done;
      this.emit('ccs-change', { action, entity_id: this.entityId, lang: this.lang, ...detail });
      return true;
    } catch (err) {
      this.fail(err);
      return false;
    } finally {
      this.busy = false;
    }
  }

  protected async switchLanguage(lang: string): Promise<void> {
    this.lang = lang;
    try {
      await this.reload();
    } catch (err) {
      this.fail(err);
    }
  }

  protected move(from: number, to: number): Promise<boolean> {
    if (to < 0 || to >= this.widgets.length || from === to) return Promise.resolve(false);
    const order = this.widgets.map((w) => w.id);
    const [id] = order.splice(from, 1);
    order.splice(to, 0, id!);
    return this.change(
      'reorder',
      { order },
      () => this.api.post(`/content${this.entityPath}?lang=${this.lang}`, { ord: order }),
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
      () => this.api.delete(`/content${this.entityPath}/widget/${widget.id}?lang=${this.lang}`),
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
    const json = this.elementsOf(deleted.widget);
    const ok = await this.change(
      'restore',
      { widget_id: deleted.widget.widget_id },
      () =>
        this.api.post(`/content${this.entityPath}?lang=${this.lang}`, {
          widget_id: deleted.widget.widget_id,
          position: Math.min(deleted.position, this.widgets.length),
          json,
        }),
      this.t('restored'),
    );
    if (ok) this.deleted = null;
  }

  protected onJob(job: GenerationJob): void {
    this.job = job;
    this.emit('ccs-generation', { job });
    if (job.status === 'done') {
      this.status = this.t('generated', { n: job.widgets_created });
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

  protected override updated(): void {
    // `?selected` does not move a select the person already used; the language may change
    // under it (a finished generation shows its own language).
    const select = this.renderRoot.querySelector<HTMLSelectElement>('select.lang');
    if (select && select.value !== this.lang) select.value = this.lang;
    this.wireEditables();
  }

  /** Marks the editable texts of every rendered widget and edits them in place. */
  protected wireEditables(): void {
    for (const item of this.renderRoot.querySelectorAll<HTMLElement>('li.widget')) {
      const widget = this.widgets.find((w) => String(w.id) === item.dataset.id);
      const body = item.querySelector<HTMLElement>('.widget-body');
      if (!widget || !body) continue;
      for (const { element, node, plain } of editableNodes(widget, body, this.lang)) {
        makeEditable(node, plain, this.t('edit'), () => void this.save(widget, element.id, node, plain));
      }
    }
  }

  protected async save(
    widget: ContentWidget,
    elementId: number,
    node: HTMLElement,
    plain: boolean,
  ): Promise<void> {
    if (!node.isContentEditable) return;
    if (node.innerHTML === node.dataset.before) {
      node.removeAttribute('contenteditable');
      return;
    }
    const value = editedValue(node, plain);
    const ok = await this.change(
      'edit',
      { widget_id: widget.id, element_id: elementId },
      () =>
        this.api.put(`/content${this.entityPath}?lang=${this.lang}`, {
          [widget.id]: { children: [{ id: elementId, value: { [this.lang]: value } }] },
        }),
      this.t('saved'),
    );
    // On failure the text stays in the field, still editable, next to the message.
    if (ok) node.removeAttribute('contenteditable');
    else node.classList.add('invalid');
  }

  /** The widget's elements as a write body takes them (`[]` values become empty maps). */
  protected elementsOf(widget: ContentWidget) {
    return widget.children.map((e) => ({
      id: e.id,
      parent_id: e.parent_id,
      child_id: e.child_id,
      class: e.class,
      is_editable: e.is_editable,
      tag: e.tag,
      value: Array.isArray(e.value) ? {} : e.value,
      extension: e.extension,
    }));
  }

  protected async saveFavourite(widget: ContentWidget, name: string | undefined): Promise<void> {
    this.busy = true;
    this.error = '';
    try {
      const title = `${name ?? widget.widget_id} — ${this.entityTitle || this.entityId}`.slice(0, 255);
      await this.api.post('/widget-favourite', {
        name: title,
        widget_id: widget.widget_id,
        children: this.elementsOf(widget),
      });
      this.status = this.t('favourited');
      this.emit('ccs-change', { action: 'favourite', entity_id: this.entityId, widget_id: widget.id });
    } catch (err) {
      this.fail(err);
    } finally {
      this.busy = false;
    }
  }

  /** Copies one widget, as it is, to the end of another registered entity of the same type. */
  protected async copyTo(widget: ContentWidget, target: string): Promise<void> {
    this.busy = true;
    this.error = '';
    try {
      await this.api.post(
        `/content/${encodeURIComponent(target)}/type/${encodeURIComponent(this.entityType)}`,
        {
          widget_id: widget.widget_id,
          json: this.elementsOf(widget),
        },
      );
      this.copying = null;
      this.status = this.t('copied', { target });
      this.emit('ccs-change', {
        action: 'copy',
        entity_id: this.entityId,
        widget_id: widget.id,
        target_entity_id: target,
      });
    } catch (err) {
      this.fail(err);
    } finally {
      this.busy = false;
    }
  }

  protected async add(body: Record<string, unknown>, via: string): Promise<void> {
    const ok = await this.change(
      'add',
      { widget_id: body.widget_id, via },
      () => this.api.post(`/content${this.entityPath}?lang=${this.lang}`, body),
      this.t('added'),
    );
    if (ok) this.panel = 'none';
  }

  protected async afterFill(created: number): Promise<void> {
    this.panel = 'none';
    this.status = this.t('filled', { n: created });
    try {
      await this.reload();
      this.emit('ccs-change', { action: 'fill-design', entity_id: this.entityId, widgets: created });
    } catch (err) {
      this.fail(err);
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.watcher.stop();
  }
}
