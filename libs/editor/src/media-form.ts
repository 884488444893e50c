/**
 * <ccs-media-form>: a widget's images, links and videos (see media.ts), each a small form with
 * its URL (and an image's alt text in the language shown) and a preview of what will be
 * shown. A URL the API would refuse is said at the field and nothing is sent; Save sends one
 * item (`ccs-media-save`), the editor writes it and draws the widget again.
 */
import { css, html, nothing, type CSSResultGroup, type PropertyValues } from 'lit';
import { PanelBase } from './panel-base';
import { fieldValue } from './guards';
import { editorStyles } from './styles';
import type { MessageKey } from './messages/en';
import { attributesToSend, embedOf, mediaOf, urlProblem, type MediaItem } from './media';
import type { ContentWidget } from '@catalogue/content/v3';

export interface MediaSave {
  elementId: number;
  extension: Record<string, unknown>;
}

interface Draft {
  url: string;
  alt: string;
  /** The stored values when the draft was begun. */
  from: { url: string; alt: string };
  problem: MessageKey | null;
}

const URL_LABEL: Record<MediaItem['kind'], MessageKey> = {
  image: 'imageUrl',
  link: 'linkUrl',
  video: 'videoUrl',
};

export class CcsMediaForm extends PanelBase {
  static override styles: CSSResultGroup = [
    editorStyles,
    css`
      .media {
        list-style: none;
        padding: 0;
        margin: 0.5rem 0;
        display: grid;
        gap: 0.75rem;
      }
      .media-item {
        display: grid;
        gap: 0.5rem;
        padding: 0.75rem;
        border: 1px solid #d1d5db;
        border-radius: 6px;
      }
      .media-item input {
        width: 100%;
        box-sizing: border-box;
      }
      .media-preview img {
        display: block;
        max-width: min(100%, 16rem);
        max-height: 10rem;
        object-fit: contain;
      }
      .media-preview a {
        overflow-wrap: anywhere;
      }
    `,
  ];
  static override properties = {
    ...PanelBase.properties,
    widget: { attribute: false },
    lang: { attribute: false },
    label: { attribute: false },
    drafts: { state: true },
  };
  declare widget: ContentWidget;
  declare lang: string;
  /** The widget's label (its name and position), for the list's name. */
  declare label: string;
  declare drafts: ReadonlyMap<number, Draft>;

  constructor() {
    super();
    this.drafts = new Map();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('widget') || this.drafts.size === 0) return;
    // A draft whose item changed since it was begun was saved (the API may store a URL in
    // its canonical form): the form shows the stored values again.
    const stored = new Map(mediaOf(this.widget, this.lang).map((item) => [item.element.id, item]));
    const left = [...this.drafts].filter(([id, d]) => {
      const item = stored.get(id);
      return item !== undefined && item.url === d.from.url && item.alt === d.from.alt;
    });
    if (left.length !== this.drafts.size) this.drafts = new Map(left);
  }

  private draftOf(item: MediaItem): Draft {
    const from = { url: item.url, alt: item.alt };
    return this.drafts.get(item.element.id) ?? { ...from, from, problem: null };
  }

  private edit(item: MediaItem, patch: Partial<Draft>): void {
    const draft = { ...this.draftOf(item), ...patch };
    // A problem shown goes away as soon as the URL is good; a new one waits for Save.
    if (draft.problem && urlProblem(item.kind, draft.url) === null) draft.problem = null;
    this.drafts = new Map(this.drafts).set(item.element.id, draft);
  }

  private save(item: MediaItem, form: HTMLFormElement): void {
    const draft = this.draftOf(item);
    const problem = urlProblem(item.kind, draft.url);
    if (problem) {
      this.edit(item, { problem });
      void this.updateComplete.then(() => form.querySelector<HTMLInputElement>('input[name="url"]')?.focus());
      return;
    }
    this.send('ccs-media-save', {
      elementId: item.element.id,
      extension: attributesToSend(item, draft.url, draft.alt, this.lang),
    } satisfies MediaSave);
  }

  private preview(item: MediaItem, draft: Draft) {
    const t = this.t;
    if (draft.url.trim() === '' || urlProblem(item.kind, draft.url)) {
      return html`<p class="media-preview hint">${t('noPreview')}</p>`;
    }
    if (item.kind === 'image') {
      return html`<div class="media-preview"><img src=${draft.url.trim()} alt=${draft.alt} /></div>`;
    }
    if (item.kind === 'video') {
      return html`<p class="media-preview hint">${t('videoPlays', { url: embedOf(draft.url) ?? '' })}</p>`;
    }
    return html`<p class="media-preview hint">
      ${t('linkOpens', { text: item.text })}
      <a href=${draft.url.trim()} target="_blank" rel="noopener noreferrer">${draft.url.trim()}</a>
    </p>`;
  }

  private renderItem(item: MediaItem, n: number) {
    const t = this.t;
    const draft = this.draftOf(item);
    const id = `m-${item.element.id}`;
    return html`<li>
      <form
        class="media-item"
        aria-label=${t('mediaN', { n })}
        novalidate
        @submit=${(e: SubmitEvent) => {
          e.preventDefault();
          if (e.target instanceof HTMLFormElement) this.save(item, e.target);
        }}
      >
        <div class="field">
          <label for="${id}-url">${t(URL_LABEL[item.kind])}</label>
          <input
            id="${id}-url"
            name="url"
            type="url"
            inputmode="url"
            maxlength="2048"
            .value=${draft.url}
            aria-invalid=${draft.problem ? 'true' : 'false'}
            aria-describedby=${draft.problem ? `${id}-problem` : nothing}
            @input=${(e: Event) => this.edit(item, { url: fieldValue(e) })}
          />
          ${draft.problem ? html`<p class="error" id="${id}-problem">${t(draft.problem)}</p>` : nothing}
        </div>
        ${
          item.kind === 'image'
            ? html`<div class="field">
                <label for="${id}-alt">${t('altText')}</label>
                <input
                  id="${id}-alt"
                  name="alt"
                  maxlength="255"
                  .value=${draft.alt}
                  @input=${(e: Event) => this.edit(item, { alt: fieldValue(e) })}
                />
              </div>`
            : nothing
        }
        ${this.preview(item, draft)}
        <button type="submit">${t('save')}</button>
      </form>
    </li>`;
  }

  protected override render() {
    const items = mediaOf(this.widget, this.lang);
    return html`<ol class="media" aria-label=${this.t('mediaOf', { widget: this.label })}>
      ${items.map((item, k) => this.renderItem(item, k + 1))}
    </ol>`;
  }
}

if (!customElements.get('ccs-media-form')) customElements.define('ccs-media-form', CcsMediaForm);
