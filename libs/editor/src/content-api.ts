/**
 * The v3 calls the editor makes about its one entity, each naming the path and body the
 * specification gives it; every write answers the entity's widgets as they are now (in `lang`).
 * No state and no DOM: the editor (editor-core.ts) decides when to call and what to show.
 */
import { ApiError, type Api } from './api';
import type {
  ContentElement,
  ContentWidget,
  Data,
  EntityHtml,
  GenerationJobView,
  RevisionView,
  WidgetView,
} from '@catalogue/content/v3';

/** A widget's elements as a write body takes them (`[]` values become empty maps). */
export function elementsOf(widget: ContentWidget) {
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

export class ContentApi {
  constructor(
    readonly api: Api,
    readonly entityId: string,
    readonly entityType: string,
  ) {}

  /** `/{entity_id}/type/{entity_type}`, as every entity path of the API ends. */
  get entityPath(): string {
    return `/${encodeURIComponent(this.entityId)}/type/${encodeURIComponent(this.entityType)}`;
  }

  private content(lang: string, tail = ''): string {
    return `/content${this.entityPath}${tail}?lang=${encodeURIComponent(lang)}`;
  }

  /** The licence, with the eshop's active languages and main language (what an entity opens in). */
  checkLicence(): Promise<{
    data: { has_valid_license: boolean; languages?: string[]; default_language?: string | null };
  }> {
    return this.api.post('/check-license');
  }

  /** Registers the entity (a text sent replaces the stored title, all its languages). */
  register(title: string | Record<string, string>): Promise<unknown> {
    return this.api.post('/register-entity', {
      entity_id: this.entityId,
      type: this.entityType,
      ...(title && { title }),
    });
  }

  widgets(lang: string): Promise<ContentWidget[]> {
    return this.api.get(this.content(lang));
  }

  /** The eshop's languages: the keys of the entity's html map. */
  async languages(): Promise<string[]> {
    const { html } = await this.api.get<EntityHtml>(`/entity${this.entityPath}/html`);
    return Object.keys(html);
  }

  /** The entity's running generation, or null when none runs (the API's 404). */
  running(): Promise<GenerationJobView | null> {
    return this.api.get<Data<GenerationJobView>>(`/content${this.entityPath}/generate`).then(
      (r) => r.data,
      (err: unknown) => {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      },
    );
  }

  async catalogue(): Promise<WidgetView[]> {
    return (await this.api.get<Data<WidgetView[]>>('/widget')).data;
  }

  reorder(order: number[], lang: string): Promise<ContentWidget[]> {
    return this.api.post(this.content(lang), { ord: order });
  }

  /** Adds a catalogue widget (`widget_id`, optional `position` and `json`). */
  add(body: Record<string, unknown>, lang: string): Promise<ContentWidget[]> {
    return this.api.post(this.content(lang), body);
  }

  /** Puts a deleted widget back at `position`, with the texts and images it had. */
  restore(widget: ContentWidget, position: number, lang: string): Promise<ContentWidget[]> {
    return this.add({ widget_id: widget.widget_id, position, json: elementsOf(widget) }, lang);
  }

  remove(widget: ContentWidget, lang: string): Promise<ContentWidget[]> {
    return this.api.delete(this.content(lang, `/widget/${widget.id}`));
  }

  /** PUT one element's value in `lang`. */
  edit(widget: ContentWidget, elementId: number, value: string, lang: string): Promise<ContentWidget[]> {
    return this.api.put(this.content(lang), {
      [widget.id]: { children: [{ id: elementId, value: { [lang]: value } }] },
    });
  }

  /** PUT one element's attributes (an image's `src` and `alt`, a link's `href`, a video's `src`). */
  attributes(
    widget: ContentWidget,
    elementId: number,
    extension: Record<string, unknown>,
    lang: string,
  ): Promise<ContentWidget[]> {
    return this.api.put(this.content(lang), {
      [widget.id]: { children: [{ id: elementId, extension }] },
    });
  }

  /**
   * element-copy: duplicates (`copy`, right after it) or removes an element with what it holds.
   * The API names it by its parent and its 0-based index among the parent's children.
   */
  elementAction(
    action: 'copy' | 'remove',
    widget: ContentWidget,
    element: ContentElement,
    lang: string,
  ): Promise<ContentWidget[]> {
    const siblings = widget.children
      .filter((e) => e.parent_id === element.parent_id)
      .sort((a, b) => a.child_id - b.child_id || a.id - b.id);
    return this.api.post(`/content/element-copy${this.entityPath}?lang=${encodeURIComponent(lang)}`, {
      action,
      index: siblings.findIndex((e) => e.id === element.id),
      contentId: widget.id,
      parent: String(element.parent_id),
    });
  }

  /** The content version shown (the number of the last ETag read or written), or null. */
  get version(): number | null {
    const tag = this.api.etags.get(this.entityPath.slice(1));
    const n = tag ? /^"(\d+)"$/.exec(tag)?.[1] : undefined;
    return n ? Number(n) : null;
  }

  /** The newest revisions of the content (the API keeps at most 100 a page), newest first. */
  async revisions(): Promise<RevisionView[]> {
    return (await this.api.get<Data<RevisionView[]>>(`/content${this.entityPath}/revisions?per_page=100`))
      .data;
  }

  /** Makes a revision's tree the content again (a new revision, source `restore`). */
  restoreRevision(id: number, lang: string): Promise<ContentWidget[]> {
    return this.api.post(this.content(lang, `/revisions/${id}/restore`));
  }

  favourite(widget: ContentWidget, name: string): Promise<unknown> {
    return this.api.post('/widget-favourite', {
      name,
      widget_id: widget.widget_id,
      children: elementsOf(widget),
    });
  }

  /** Copies one widget, as it is, to the end of another registered entity of the same type. */
  copyTo(widget: ContentWidget, target: string): Promise<ContentWidget[]> {
    return this.api.post(
      `/content/${encodeURIComponent(target)}/type/${encodeURIComponent(this.entityType)}`,
      {
        widget_id: widget.widget_id,
        json: elementsOf(widget),
      },
    );
  }
}
