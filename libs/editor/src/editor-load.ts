/**
 * How <ccs-editor> opens an entity and reads it again: on first draw, when the host changes
 * what it names (`entity-id`, `entity-type`, `token`, `api-base`, `content-lang`, or `open()`),
 * on Reload, and when the language select changes. Each read is made for one view (entity and
 * language, see editor-state.ts) and drawn only while that view is still the one asked for, so
 * a slow answer for a product the host has left never lands on the next one. Texts the person
 * changed and could not save are tracked here too: the host hears of them (`ccs-dirty`), and a
 * read that replaces them says they were not saved.
 */
import type { PropertyValues } from 'lit';
import { ApiError } from './api';
import { EditorState, type View } from './editor-state';
import { languageName } from './i18n';
import { JobWatcher } from './job-watcher';
import { openingLanguage } from './opening-language';
import type { ContentWidget, GenerationJobView } from '@catalogue/content/v3';

export class EditorLoad extends EditorState {
  protected readonly watcher = new JobWatcher(this, (job) => this.onJob(job));
  /** The read under way (awaited by `open()`), or a settled one. */
  protected loading: Promise<unknown> = Promise.resolve();
  /** Bumped by every full read: widget bodies are drawn anew, whatever a person left in them. */
  protected drawn = 0;
  /** Edited texts not saved (being typed, or refused by the server), with the entity of each. */
  private readonly unsaved = new Map<HTMLElement, string>();
  /** Saves of texts edited in place still under way (a language switch waits for them). */
  private readonly saves = new Set<Promise<void>>();

  protected override willUpdate(changed: PropertyValues<this>): void {
    const first = this.view === undefined;
    const next = this.nextView(changed);
    if (first) return; // firstUpdated opens
    if (next === 'entity') {
      // A title is the entity's: one not given with the new entity is not written onto it.
      if (!changed.has('entityTitle')) this.entityTitle = '';
      if (!changed.has('entityTitles')) this.entityTitles = undefined;
      this.watcher.stop();
      this.job = null;
      this.deleted = null;
      this.redoStack = [];
      this.undoBase = null;
      this.panel = 'none';
      this.copying = null;
      this.entriesOf = null;
      this.mediaOf = null;
      this.refused = null;
      this.switching = null;
      this.widgets = [];
      this.shown = null;
      this.phase = 'loading';
      this.loading = this.load();
    } else if (next === 'lang' && this.shown !== null && this.shown.lang !== this.lang) {
      // A message about the language left ("nothing in Slovak") is not about this one.
      this.error = '';
      this.stale = false;
      this.loading = this.switchTo(this.view);
      this.emit('ccs-language-change', { lang: this.lang, entity_id: this.entityId });
    } else if (next === 'lang' && this.switching !== null) {
      // Back to the language shown before the other one's texts came: nothing to read.
      this.switching = null;
      this.status = '';
      this.emit('ccs-language-change', { lang: this.lang, entity_id: this.entityId });
    }
  }

  protected override firstUpdated(): void {
    this.loading = this.load();
  }

  /** Shows another entity (its type: the one shown unless named) and resolves once it is read. */
  async open(entityId: string, entityType: string = this.entityType): Promise<void> {
    this.entityId = entityId;
    this.entityType = entityType;
    await this.updateComplete;
    await this.loading;
  }

  /**
   * Reads everything again from the API (the host calls it after changing the entity elsewhere).
   * Like a language switch: until the texts are drawn anew the list is busy and inert, and a text
   * being edited is saved first (the read waits for every save under way), so nothing typed
   * before or during the read is drawn over unsaved.
   */
  async refresh(): Promise<void> {
    this.loading = this.reread();
    await this.loading;
  }

  private async reread(): Promise<void> {
    const view = this.view;
    this.refreshing++;
    try {
      this.commitEdit();
      await Promise.allSettled([...this.saves]);
      // The host opened another entity meanwhile: its own read is under way.
      if (!this.current(view)) return;
      await this.load();
    } finally {
      this.refreshing--;
    }
  }

  /**
   * Opening costs round trips (each with a CORS preflight), so the first one asks for
   * everything the first widget needs at once: the licence check, the registration and the
   * content. Only an entity seen for the first time has no content to read before it is
   * registered: its read is then made again. The content is drawn as soon as it is there,
   * while the languages, a running generation and the widget catalogue are read (on a busy
   * server the first widget comes sooner without their company).
   */
  protected async load(): Promise<void> {
    let view = this.view;
    const { content } = view;
    // '' when the host names no language: the editor chooses once it knows where the texts are.
    const named = view.lang;
    this.error = '';
    this.stale = false;
    this.fatal = '';
    if (this.phase !== 'ready') this.phase = 'loading';
    try {
      const [licence, registered, read] = await Promise.allSettled([
        content.checkLicence(),
        content.register(registeredTitle(this.entityTitles, this.entityTitle)),
        content.widgets(named || 'default'),
      ]);
      if (!this.current(view)) return;
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
      let widgets = read.status === 'fulfilled' ? read.value : await content.widgets(named || 'default');
      if (!this.current(view)) return;
      const eshop = licence.value.data;
      if (Array.isArray(eshop.languages)) this.languages = eshop.languages;
      if (!named) {
        const lang = openingLanguage(widgets, this.languages, eshop.default_language ?? null);
        if (lang !== 'default') widgets = await content.widgets(lang);
        if (!this.current(view)) return;
        view = { content, lang };
        this.view = view;
        this.lang = lang;
      }
      const lang = view.lang;
      const rest = Promise.all([content.languages(), content.running(), content.catalogue()]);
      rest.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
      this.draw(view, widgets);
      if (this.languages.length === 0) this.languages = [lang];
      this.phase = 'ready';
      await this.updateComplete;
      if (widgets.length) performance.mark('ccs-first-widget');
      const [languages, running, catalogue] = await rest;
      if (!this.current(view)) return;
      this.languages = languages;
      this.catalogue = new Map(catalogue.map((w) => [w.id, w]));
      this.emit('ccs-ready', {
        entity_id: content.entityId,
        lang,
        languages: this.languages,
        widgets: widgets.length,
      });
      if (running) this.watcher.watch(running);
    } catch (err) {
      if (this.current(view)) this.fail(err, this.phase !== 'ready');
    }
  }

  /** Reads the widgets again in the language asked for (false when another read superseded it). */
  protected async reload(): Promise<boolean> {
    const view = this.view;
    try {
      const widgets = await view.content.widgets(view.lang);
      if (!this.current(view)) return false;
      this.draw(view, widgets);
      this.stale = false;
      return true;
    } catch (err) {
      if (this.current(view)) this.fail(err);
      return false;
    }
  }

  /**
   * Shows the content in another language. Until its texts are drawn the list of the language
   * left is busy (nothing of it can be edited, see ccs-editor.ts) and the status says what is
   * loading. A text being edited is saved first, in the language it was typed in, and the texts
   * are read once every save under way has settled, so none is drawn over before it is saved.
   */
  private async switchTo(view: View): Promise<boolean> {
    // What the status said (a finished generation's summary) is said again once drawn; a
    // save under way for the language left ends unseen (see editor-state.ts, change()).
    const before = this.status;
    const status = this.t('loadingLanguage', { language: languageName(this.t, view.lang) });
    this.switching = view.lang;
    this.status = status;
    this.commitEdit();
    await Promise.allSettled([...this.saves]);
    if (!this.current(view)) return false;
    const read = await this.reload();
    if (!this.current(view)) return false;
    this.switching = null;
    if (this.status === status) this.status = before === this.t('saving') ? '' : before;
    return read;
  }

  /** Saves the text being edited now, if any (ccs-editor.ts knows the fields). */
  protected commitEdit(): void {}

  /** Follows a save of a text edited in place (a language switch waits for it). */
  protected track(save: Promise<void>): void {
    this.saves.add(save);
    const settled = () => void this.saves.delete(save);
    save.then(settled, settled);
  }

  /**
   * Shows widgets read anew; texts of this entity left unsaved in the old ones are said to be
   * lost. A text of an entity the host has left is not this view's: its own save settles it.
   */
  private draw(view: View, widgets: ContentWidget[]): void {
    const entity = view.content.entityId;
    const lost = [...this.unsaved].filter(([, of]) => of === entity);
    this.widgets = widgets;
    this.shown = view;
    this.drawn++;
    if (lost.length > 0) {
      for (const [node] of lost) this.unsaved.delete(node);
      this.dirtyChanged(entity, true);
      this.error = this.t('notSaved');
    }
  }

  protected switchLanguage(lang: string): void {
    this.lang = lang;
  }

  /** A text was changed in place (true) or saved, put back or drawn anew (false), in `view`'s entity. */
  protected markUnsaved(node: HTMLElement, unsaved: boolean, view: View | null = this.shown): void {
    const entity = this.unsaved.get(node) ?? view?.content.entityId ?? this.entityId;
    const had = this.hasUnsaved(entity);
    if (unsaved) this.unsaved.set(node, entity);
    else this.unsaved.delete(node);
    if (had !== this.hasUnsaved(entity)) this.dirtyChanged(entity, had);
  }

  private hasUnsaved(entity: string): boolean {
    return [...this.unsaved.values()].includes(entity);
  }

  /** Tells the host whether an entity has texts not saved (`had`: whether it had before). */
  private dirtyChanged(entity: string, had: boolean): void {
    const dirty = this.hasUnsaved(entity);
    if (dirty !== had) this.emit('ccs-dirty', { dirty, entity_id: entity });
  }

  protected onJob(_job: GenerationJobView): void {
    // editor-core.ts follows a generation
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
