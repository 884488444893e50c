/**
 * The state of <ccs-editor>: its attributes, what it shows, and how it tells the host page
 * (DOM events `ccs-change`, `ccs-error`, …). Operations are in editor-core.ts, calls in
 * content-api.ts, drawing in ccs-editor.ts.
 */
import { LitElement, type PropertyValues } from 'lit';
import { Api, ApiError } from './api';
import { ContentApi } from './content-api';
import { editorErrorCode } from './errors';
import { activeIn } from './guards';
import { errorMessage, translator, type Translate } from './i18n';
import { editorStyles } from './styles';
import { formatStyles, markStyles } from './styles-more';
import type { ContentWidget, GenerationJobView, WidgetView } from '@catalogue/content/v3';

/** What a host may turn on (`features`): all of them unless it names some. */
export type Feature = 'edit' | 'add' | 'designs' | 'generate' | 'history';

export type Panel = 'none' | 'add' | 'generate' | 'designs' | 'history';

export interface Deleted {
  widget: ContentWidget;
  position: number;
}

/**
 * An entity in a language, as the editor shows it: every read and write is made for one, and
 * its answer is drawn only while that view is still the one shown (a new object whenever the
 * host switches the entity, the token, the API or the language).
 */
export interface View {
  readonly content: ContentApi;
  readonly lang: string;
}

/** An edit refused as stale: where it was to go and what it said. */
export interface Refused {
  entityId: string;
  lang: string;
  widgetId: number;
  elementId: number;
  /** The value as it would have been sent (inner HTML, or escaped plain text). */
  value: string;
  /** What the person reads of it. */
  text: string;
}

export class EditorState extends LitElement {
  static override styles = [editorStyles, markStyles, formatStyles];
  static override properties = {
    apiBase: { attribute: 'api-base' },
    token: {},
    entityId: { attribute: 'entity-id' },
    entityType: { attribute: 'entity-type' },
    entityTitle: { attribute: 'entity-title' },
    // JSON: the entity's title per language ({"default": "…", "cs": "…"}); generation in a
    // language writes from that language's title only, so a host with translations sends them.
    entityTitles: { attribute: 'entity-titles', type: Object },
    uiLang: { attribute: 'ui-lang' },
    // The content language the host opens the entity in; unset: the editor chooses (see
    // opening-language.ts). Not the global `lang` attribute: that one says what language the
    // editor's own texts are in.
    contentLang: { attribute: 'content-lang' },
    // The language of the content shown ('' while the editor is choosing it); the language
    // select, `setLanguage()` and `content-lang` change it.
    lang: { state: true },
    // What the person may do: a list ("edit add", "edit,history" or an array), all when unset.
    features: {},
    // Shows the content only: nothing can be changed (whatever `features` says).
    readonly: { type: Boolean },
    phase: { state: true },
    languages: { state: true },
    widgets: { state: true },
    busy: { state: true },
    status: { state: true },
    error: { state: true },
    fatal: { state: true },
    deleted: { state: true },
    stale: { state: true },
    redoStack: { state: true },
    panel: { state: true },
    job: { state: true },
    dropIndex: { state: true },
    copying: { state: true },
    entriesOf: { state: true },
    mediaOf: { state: true },
    catalogue: { state: true },
    refused: { state: true },
    switching: { state: true },
    refreshing: { state: true },
  };

  declare apiBase: string;
  declare token: string;
  declare entityId: string;
  declare entityType: string;
  declare entityTitle: string;
  declare entityTitles: unknown;
  declare uiLang: string;
  declare phase: 'loading' | 'ready' | 'fatal';
  declare languages: string[];
  declare lang: string;
  declare contentLang: string;
  declare features: string | string[] | undefined;
  declare readonly: boolean;
  declare widgets: ContentWidget[];
  declare busy: boolean;
  declare status: string;
  declare error: string;
  declare fatal: string;
  declare deleted: Deleted | null;
  /** A write was refused because the content changed elsewhere: the view offers a reload. */
  declare stale: boolean;
  /** The versions undone, to restore again (newest last); a new action clears them. */
  declare redoStack: number[];
  /** The version whose tree is shown after an undo or redo (null: the current version's). */
  protected undoBase: number | null = null;
  declare panel: Panel;
  declare job: GenerationJobView | null;
  declare dropIndex: number | null;
  /** The widget whose "copy to another entity" form is open. */
  declare copying: number | null;
  /** The widget whose list of entries (duplicate / remove an entry) is open. */
  declare entriesOf: number | null;
  /** The widget whose images, links and videos are open to edit. */
  declare mediaOf: number | null;
  /**
   * A text the server refused as stale (the content changed elsewhere), kept to apply again to
   * the current content once it is read; null when there is none.
   */
  declare refused: Refused | null;
  /** The widget catalogue by id: names for the labels, entry classes for element-copy. */
  declare catalogue: ReadonlyMap<number, WidgetView>;
  /**
   * The content language being read after a switch (null when none is): until it is drawn, the
   * texts of the language left are shown busy and cannot be edited.
   */
  declare switching: string | null;
  /**
   * Reads of everything (`refresh()`) under way: until they are drawn the texts shown are busy
   * and cannot be edited, like during a language switch.
   */
  declare refreshing: number;

  protected api!: Api;
  /** The view asked for (the attributes now); `shown` is the one the widgets on screen are of. */
  protected view!: View;
  protected shown: View | null = null;
  protected dragFrom: number | null = null;

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
    this.lang = '';
    this.contentLang = '';
    this.readonly = false;
    this.widgets = [];
    this.busy = false;
    this.status = '';
    this.error = '';
    this.fatal = '';
    this.deleted = null;
    this.stale = false;
    this.redoStack = [];
    this.panel = 'none';
    this.job = null;
    this.dropIndex = null;
    this.copying = null;
    this.entriesOf = null;
    this.mediaOf = null;
    this.catalogue = new Map();
    this.refused = null;
    this.switching = null;
    this.refreshing = 0;
  }

  /** Whether the texts shown are being read anew (a language switch, a refresh): busy and inert. */
  protected get readingAnew(): boolean {
    return this.switching !== null || this.refreshing > 0;
  }

  /** The API client (read by the job watcher and handed to the panels). */
  get apiClient(): Api {
    return this.api;
  }

  get t(): Translate {
    return translator(this.uiLang);
  }

  protected get content(): ContentApi {
    return this.view.content;
  }

  protected get entityPath(): string {
    return this.content.entityPath;
  }

  /**
   * A new view when what it names changed: `entity` when the entity (or token, or API) did, else
   * `lang` when only the language did. A new entity opens in the host's language, or in the one
   * the editor chooses for it ('' until then).
   */
  protected nextView(changed: PropertyValues<this>): 'entity' | 'lang' | null {
    const entity =
      changed.has('apiBase') || changed.has('token') || changed.has('entityId') || changed.has('entityType');
    if (changed.has('contentLang') && this.contentLang) this.lang = this.contentLang;
    else if (entity && this.view !== undefined && !changed.has('lang')) this.lang = this.contentLang;
    if (entity) {
      this.api = new Api(this.apiBase || location.origin, this.token);
      this.view = { content: new ContentApi(this.api, this.entityId, this.entityType), lang: this.lang };
      return 'entity';
    }
    if (this.lang !== this.view.lang) {
      this.view = { content: this.view.content, lang: this.lang };
      return 'lang';
    }
    return null;
  }

  /** Whether the answer made for `view` may be drawn (the host did not switch meanwhile). */
  protected current(view: View): boolean {
    return view === this.view;
  }

  /** Whether the host lets the person do this (`features`, `readonly`). */
  protected has(feature: Feature): boolean {
    if (this.readonly) return false;
    const list = typeof this.features === 'string' ? this.features.split(/[\s,]+/) : this.features;
    return !Array.isArray(list) || list.includes(feature);
  }

  /** Asks the host (`ccs-before-save`, cancellable) whether this write may be made. */
  protected allowed(detail: Record<string, unknown>): boolean {
    const event = new CustomEvent('ccs-before-save', {
      detail,
      bubbles: true,
      composed: true,
      cancelable: true,
    });
    return this.dispatchEvent(event);
  }

  protected emit(name: string, detail: unknown): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  /** Shows an API failure and tells the host; what the person typed stays where it was. */
  protected fail(err: unknown, fatal = false, action?: string): void {
    // A refusal as stale says what was not made: an edit, or any other change (an undo…).
    const other = action !== undefined && action !== 'edit' && action !== 'media';
    const message =
      err instanceof ApiError && err.status === 412 && other
        ? this.t('errStaleChange')
        : errorMessage(this.t, err);
    if (fatal) {
      this.fatal = message;
      this.phase = 'fatal';
    } else this.error = message;
    this.stale = err instanceof ApiError && err.status === 412;
    this.retryable = !(err instanceof ApiError && [401, 403, 404].includes(err.status));
    this.status = '';
    if (this.stale) void this.offerReload();
    this.report(err);
  }

  /** Whether the last failure may pass when tried again (not a refused token, right or item). */
  protected retryable = true;

  /**
   * After a write refused as stale, focus that went nowhere (the button or text that made it was
   * drawn anew or left) goes to the Reload button next to the message.
   */
  protected async offerReload(): Promise<void> {
    await this.updateComplete;
    const outer = document.activeElement;
    const inner = activeIn(this.renderRoot);
    if (!outer || outer === document.body || (outer === this && !inner))
      this.renderRoot.querySelector<HTMLButtonElement>('button.stale-reload')?.focus();
  }

  /**
   * Tells the host about a failure (a panel may already show it), naming the entity it was
   * about: the one shown unless the caller names the entity its call was made for.
   */
  protected report(err: unknown, entityId: string = this.shown?.content.entityId ?? this.entityId): void {
    const status = err instanceof ApiError ? err.status : 0;
    const apiCode = err instanceof ApiError ? err.code : undefined;
    this.emit('ccs-error', {
      status,
      message: errorMessage(this.t, err),
      code: editorErrorCode(err),
      api_code: apiCode,
      entity_id: entityId,
    });
  }

  /**
   * Runs one change against the API, for the entity and language the widgets on screen are of
   * (`view`: the shown one unless the caller names the one its widget came from); the answer
   * (the widgets) replaces the list while that view is still shown, and is dropped otherwise.
   * A change made for a view the host has left (a text saved as the entity switched) ends in
   * that view's context: its events name its entity, and nothing of it (Saving…, an error, the
   * undo state) is shown on the view that replaced it.
   */
  protected async change(
    action: string,
    detail: Record<string, unknown>,
    run: (view: View) => Promise<ContentWidget[]>,
    done: string,
    view: View = this.shown ?? this.view,
  ): Promise<boolean> {
    const entity = view.content.entityId;
    const shown = () => this.current(view) && (this.shown === null || this.shown.content === view.content);
    if (this.readonly || !this.allowed({ action, entity_id: entity, lang: view.lang, ...detail })) {
      if (shown()) this.error = this.t('saveVetoed');
      return false;
    }
    const mine = shown();
    if (mine) {
      this.busy = true;
      this.error = '';
      this.stale = false;
      this.status = this.t('saving');
    }
    try {
      const widgets = await run(view);
      this.emit('ccs-change', { action, entity_id: entity, lang: view.lang, ...detail });
      if (!this.current(view)) return false;
      if (action !== 'undo' && action !== 'redo') this.newAction();
      this.widgets = widgets;
      this.shown = view;
      this.status = done;
      return true;
    } catch (err) {
      if (this.current(view)) this.fail(err, false, action);
      else this.report(err, entity);
      return false;
    } finally {
      if (mine) {
        this.busy = false;
        // Left for another view meanwhile: what this change said is not that view's.
        if (!this.current(view) && this.status === this.t('saving')) this.status = '';
      }
    }
  }

  /** A change other than an undo or redo: what was undone cannot be redone any more. */
  protected newAction(): void {
    this.redoStack = [];
    this.undoBase = null;
  }

  /** Runs a call that answers no widgets (a favourite, a copy elsewhere) with the same feedback. */
  protected async act(run: () => Promise<void>): Promise<void> {
    this.busy = true;
    this.error = '';
    this.stale = false;
    try {
      await run();
    } catch (err) {
      this.fail(err);
    } finally {
      this.busy = false;
    }
  }
}
