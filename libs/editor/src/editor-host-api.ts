/**
 * What a host page calls on <ccs-editor> besides `open()` and `refresh()` (editor-load.ts) and
 * `undo()` / `redo()` (editor-history.ts): the content language, the widgets shown, an html.
 */
import { EditorHistory } from './editor-history';
import type { ContentWidget, EntityHtml } from '@catalogue/content/v3';

export class EditorHostApi extends EditorHistory {
  /** Shows the content in another language (as the select does) and resolves once it is read. */
  async setLanguage(lang: string): Promise<void> {
    this.lang = lang;
    await this.updateComplete;
    await this.loading;
  }

  /** The widgets as shown (a copy: changing it changes nothing). */
  getContent(): ContentWidget[] {
    return structuredClone(this.widgets);
  }

  /** The entity's rendered html in a language (as the shop shows it), read from the API. */
  async getHtml(lang: string = this.lang): Promise<string> {
    const { html } = await this.content.api.get<EntityHtml>(`/entity${this.entityPath}/html`);
    return html[lang] ?? '';
  }
}
