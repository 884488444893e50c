/**
 * <ccs-editor>: the content editor a host page embeds. It talks only to the white-label API
 * (v3) at `api-base`, with the host's white-label token, and tells the host what happens
 * through DOM events (`ccs-ready`, `ccs-change`, `ccs-generation`, `ccs-error`).
 */
import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { Api, ApiError } from './api';
import { errorMessage, translator, type Translate } from './i18n';
import { editableNodes, editedValue } from './inline-edit';
import { editorStyles } from './styles';
import type { CatalogueWidget, ContentWidget, GenerationJob } from './types';
import { JobWatcher } from './job-watcher';
import './add-panel';
import './generate-panel';
import './designs-panel';

/** The stylesheet of rendered content, served by the API (so widgets look as on the shop). */
const CONTENT_CSS = 'content/v1/ccs-content.css';

type Panel = 'none' | 'add' | 'generate' | 'designs';

interface Deleted {
  widget: ContentWidget;
  position: number;
}

export class CcsEditor extends LitElement {
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

  private api!: Api;
  /** Catalogue widget names by id, for the widgets' labels. */
  private names = new Map<number, string>();
  /** The API client (read by the job watcher). */
  get apiClient(): Api {
    return this.api;
  }
  private dragFrom: number | null = null;
  private readonly watcher = new JobWatcher(this, (job) => this.onJob(job));

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
  }

  get t(): Translate {
    return translator(this.uiLang);
  }

  private get entityPath(): string {
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

  private emit(name: string, detail: unknown): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  /** Shows an API failure and tells the host; what the person typed stays where it was. */
  private fail(err: unknown, fatal = false): void {
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
  private report(err: unknown): void {
    const status = err instanceof ApiError ? err.status : 0;
    const code = err instanceof ApiError ? err.code : undefined;
    this.emit('ccs-error', { status, message: errorMessage(this.t, err), code });
  }

  private async open(): Promise<void> {
    this.error = '';
    this.fatal = '';
    if (this.phase !== 'ready') this.phase = 'loading';
    try {
      const licence = await this.api.post<{ data: { has_valid_license: boolean } }>('/check-license');
      if (!licence.data.has_valid_license) {
        this.fail(
          new ApiError(403, 'The white-label licence of this eshop is not valid', 'licence', undefined),
          true,
        );
        return;
      }
      await this.api.post('/register-entity', {
        entity_id: this.entityId,
        type: this.entityType,
        ...(this.entityTitle && { title: this.entityTitle }),
      });
      const [all, widgets, running, catalogue] = await Promise.all([
        this.api.get<{ html: Record<string, string> }>(`/entity${this.entityPath}/html`),
        this.api.get<ContentWidget[]>(`/content${this.entityPath}?lang=${this.lang}`),
        this.api.get<{ data: GenerationJob }>(`/content${this.entityPath}/generate`).catch((err: unknown) => {
          if (err instanceof ApiError && err.status === 404) return null;
          throw err;
        }),
        this.api.get<{ data: CatalogueWidget[] }>('/widget'),
      ]);
      this.languages = Object.keys(all.html);
      this.widgets = widgets;
      this.names = new Map(catalogue.data.map((w) => [w.id, w.name]));
      this.phase = 'ready';
      await this.updateComplete;
      if (widgets.length) performance.mark('ccs-first-widget');
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

  private async reload(): Promise<void> {
    this.widgets = await this.api.get<ContentWidget[]>(`/content${this.entityPath}?lang=${this.lang}`);
  }

  /** Runs one change against the API; the answer (the widgets) replaces the list. */
  private async change(
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

  private async switchLanguage(lang: string): Promise<void> {
    this.lang = lang;
    try {
      await this.reload();
    } catch (err) {
      this.fail(err);
    }
  }

  private move(from: number, to: number): Promise<boolean> {
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

  private async moveByKeyboard(from: number, to: number): Promise<void> {
    if (!(await this.move(from, to))) return;
    await this.updateComplete;
    // Focus follows the widget, so pressing the same key again keeps moving it (or, at the
    // end of the list, lands on the other direction's button).
    const item = this.renderRoot.querySelector(`li.widget:nth-child(${to + 1})`);
    const same = item?.querySelector<HTMLButtonElement>(`button[data-move="${to < from ? 'up' : 'down'}"]`);
    const other = item?.querySelector<HTMLButtonElement>(`button[data-move="${to < from ? 'down' : 'up'}"]`);
    (same && !same.disabled ? same : other)?.focus();
  }

  private async deleteWidget(widget: ContentWidget, position: number): Promise<void> {
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
  private async undo(): Promise<void> {
    const deleted = this.deleted;
    if (!deleted) return;
    const json = deleted.widget.children.map((e) => ({
      id: e.id,
      parent_id: e.parent_id,
      child_id: e.child_id,
      class: e.class,
      is_editable: e.is_editable,
      tag: e.tag,
      value: e.value,
      extension: e.extension,
    }));
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

  private onJob(job: GenerationJob): void {
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
  private wireEditables(): void {
    for (const item of this.renderRoot.querySelectorAll<HTMLElement>('li.widget')) {
      const widget = this.widgets.find((w) => String(w.id) === item.dataset.id);
      const body = item.querySelector<HTMLElement>('.widget-body');
      if (!widget || !body) continue;
      for (const { element, node, plain } of editableNodes(widget, body, this.lang)) {
        // unsafeHTML replaces the nodes when the html changes; a node already wired keeps its listeners.
        if (node.classList.contains('ccs-editable')) continue;
        node.classList.add('ccs-editable');
        node.tabIndex = 0;
        node.setAttribute('role', 'textbox');
        node.setAttribute('aria-label', `${this.t('edit')}: ${(node.textContent ?? '').slice(0, 60)}`);
        node.dataset.elementId = String(element.id);
        const start = () => {
          if (node.isContentEditable) return;
          node.dataset.before = node.innerHTML;
          node.contentEditable = plain ? 'plaintext-only' : 'true';
          node.focus();
        };
        node.addEventListener('click', (e) => {
          e.preventDefault();
          start();
        });
        node.addEventListener('keydown', (e) => {
          if (!node.isContentEditable) {
            if (e.key === 'Enter') {
              e.preventDefault();
              start();
            }
            return;
          }
          if (e.key === 'Escape') {
            node.innerHTML = node.dataset.before ?? node.innerHTML;
            node.removeAttribute('contenteditable');
          } else if (e.key === 'Enter' && (plain || !e.shiftKey)) {
            e.preventDefault();
            node.blur();
          }
        });
        node.addEventListener('blur', () => void this.save(widget, element.id, node, plain));
      }
    }
  }

  private async save(
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

  protected override render() {
    const t = this.t;
    const base = this.api?.url(CONTENT_CSS);
    return html`
      ${base ? html`<link rel="stylesheet" href=${base} />` : nothing}
      <header>
        <h2>${t('title', { entity: this.entityTitle || this.entityId })}</h2>
        ${this.phase === 'ready' ? this.renderToolbar() : nothing}
      </header>
      <div class="status" role="status" aria-live="polite">${this.status}</div>
      ${this.error ? html`<div class="error" role="alert">${this.error}</div>` : nothing}
      ${this.phase === 'fatal' ? html`<div class="error" role="alert">${this.fatal}</div>` : nothing}
      ${this.phase === 'loading' ? html`<p class="hint">${t('loading')}</p>` : nothing}
      ${this.phase === 'ready' ? this.renderReady() : nothing}
    `;
  }

  private renderToolbar() {
    const t = this.t;
    const toggle = (panel: Panel) => () => (this.panel = this.panel === panel ? 'none' : panel);
    return html`<div class="toolbar">
      <label
        >${t('language')}
        <select
          class="lang"
          @change=${(e: Event) => void this.switchLanguage((e.target as HTMLSelectElement).value)}
        >
          ${this.languages.map((l) => html`<option value=${l} ?selected=${l === this.lang}>${l === 'default' ? t('languageDefault') : l}</option>`)}
        </select>
      </label>
      <button aria-expanded=${this.panel === 'add'} @click=${toggle('add')}>${t('add')}</button>
      <button aria-expanded=${this.panel === 'designs'} @click=${toggle('designs')}>${t('designs')}</button>
      <button aria-expanded=${this.panel === 'generate'} @click=${toggle('generate')}>
        ${t('generate')}
      </button>
      <button @click=${() => void this.refresh()}>${t('refresh')}</button>
    </div>`;
  }

  private renderReady() {
    const t = this.t;
    const running = this.job && (this.job.status === 'pending' || this.job.status === 'running');
    return html`
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
              <button class="undo-button" @click=${() => void this.undo()}>${t('undo')}</button>
            </div>`
          : nothing
      }
      ${
        this.panel === 'add'
          ? html`<ccs-add-panel
              .api=${this.api}
              .t=${t}
              .count=${this.widgets.length}
              @ccs-failed=${(e: CustomEvent<unknown>) => this.fail(e.detail)}
              @ccs-add=${(e: CustomEvent<{ body: Record<string, unknown>; via: string }>) => void this.add(e.detail.body, e.detail.via)}
              @ccs-close=${() => (this.panel = 'none')}
            ></ccs-add-panel>`
          : nothing
      }
      ${
        this.panel === 'generate'
          ? html`<ccs-generate-panel
              .api=${this.api}
              .t=${t}
              .entityPath=${this.entityPath}
              .entityType=${this.entityType}
              .languages=${this.languages}
              .lang=${this.lang}
              .running=${Boolean(running)}
              @ccs-started=${(e: CustomEvent<GenerationJob>) => this.watcher.watch(e.detail)}
              @ccs-failed=${(e: CustomEvent<unknown>) => this.report(e.detail)}
              @ccs-close=${() => (this.panel = 'none')}
            ></ccs-generate-panel>`
          : nothing
      }
      ${
        this.panel === 'designs'
          ? html`<ccs-designs-panel
              .api=${this.api}
              .t=${t}
              .entityPath=${this.entityPath}
              .entityType=${this.entityType}
              @ccs-filled=${(e: CustomEvent<{ widget_created: number }>) => void this.afterFill(e.detail.widget_created)}
              @ccs-failed=${(e: CustomEvent<unknown>) => this.report(e.detail)}
              @ccs-close=${() => (this.panel = 'none')}
            ></ccs-designs-panel>`
          : nothing
      }
      ${this.widgets.length ? html`<p class="hint">${t('editHint')}</p>` : html`<p class="hint">${t('empty')}</p>`}
      <ol class="widgets" aria-label=${t('widgetsLabel')} aria-busy=${this.busy}>
        ${repeat(
          this.widgets,
          (w) => w.id,
          (w, i) => this.renderWidget(w, i),
        )}
      </ol>
    `;
  }

  private renderWidget(widget: ContentWidget, i: number) {
    const t = this.t;
    const total = this.widgets.length;
    const name = this.names.get(widget.widget_id);
    const label = `${name ? `${name} · ` : ''}${t('widgetLabel', { n: i + 1, total })}`;
    return html`<li
      class="widget ${this.dropIndex === i ? 'drop-target' : ''}"
      data-id=${widget.id}
      aria-label=${label}
      @dragover=${(e: DragEvent) => {
        if (this.dragFrom !== null) {
          e.preventDefault();
          this.dropIndex = i;
        }
      }}
      @dragleave=${() => (this.dropIndex = null)}
      @drop=${(e: DragEvent) => {
        e.preventDefault();
        const from = this.dragFrom;
        this.dragFrom = null;
        this.dropIndex = null;
        if (from !== null) void this.move(from, i);
      }}
    >
      <div class="widget-bar">
        <span
          class="handle"
          draggable="true"
          role="img"
          aria-label=${t('dragHandle')}
          title=${t('dragHandle')}
          @dragstart=${(e: DragEvent) => {
            this.dragFrom = i;
            e.dataTransfer?.setData('text/plain', String(widget.id));
          }}
          @dragend=${() => {
            this.dragFrom = null;
            this.dropIndex = null;
          }}
          >⠿</span
        >
        <span class="name">${label}</span>
        <button
          class="icon"
          data-move="up"
          aria-label=${`${t('moveUp')} (${label})`}
          title=${t('moveUp')}
          ?disabled=${this.busy || i === 0}
          @click=${() => void this.moveByKeyboard(i, i - 1)}
        >
          ↑
        </button>
        <button
          class="icon"
          data-move="down"
          aria-label=${`${t('moveDown')} (${label})`}
          title=${t('moveDown')}
          ?disabled=${this.busy || i === total - 1}
          @click=${() => void this.moveByKeyboard(i, i + 1)}
        >
          ↓
        </button>
        <button
          class="icon danger"
          aria-label=${`${t('delete')} (${label})`}
          title=${t('delete')}
          ?disabled=${this.busy}
          @click=${() => void this.deleteWidget(widget, i)}
        >
          ✕
        </button>
      </div>
      <div class="widget-body">${unsafeHTML(widget.html)}</div>
    </li>`;
  }

  private async add(body: Record<string, unknown>, via: string): Promise<void> {
    const ok = await this.change(
      'add',
      { widget_id: body.widget_id, via },
      () => this.api.post(`/content${this.entityPath}?lang=${this.lang}`, body),
      this.t('added'),
    );
    if (ok) this.panel = 'none';
  }

  private async afterFill(created: number): Promise<void> {
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

if (!customElements.get('ccs-editor')) customElements.define('ccs-editor', CcsEditor);

declare global {
  interface HTMLElementTagNameMap {
    'ccs-editor': CcsEditor;
  }
}
