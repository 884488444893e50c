import { html, nothing } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import type { Entry } from './entries';
import { icon, type IconName } from './icons';
import type { Translate } from './i18n';
import type { MessageKey } from './messages/en';
import type { MediaSave } from './media-form';
import type { ContentWidget } from '@catalogue/content/v3';

/** What a widget's row shows and does; the editor provides it. */
export interface WidgetItemView {
  t: Translate;
  total: number;
  busy: boolean;
  /** False: the widget is shown only (`features` without `edit`, or `readonly`). */
  editable: boolean;
  /** Bumped by every full read: the bodies are drawn anew (no text left as a person typed it). */
  drawn: number;
  dropIndex: number | null;
  copying: number | null;
  /** The widget whose list of entries is open. */
  entriesOpen: number | null;
  nameOf(widget: ContentWidget): string | undefined;
  dragStart(index: number): void;
  /** False when no widget of this editor is being dragged (the drop is then not ours). */
  dragOver(index: number): boolean;
  dragEnd(): void;
  drop(index: number): void;
  moveBy(from: number, to: number): void;
  remove(widget: ContentWidget, index: number): void;
  favourite(widget: ContentWidget): void;
  toggleCopy(widget: ContentWidget): void;
  copyTo(widget: ContentWidget, target: string): void;
  /** The entries element-copy can duplicate or remove (none for a widget that repeats nothing). */
  entries(widget: ContentWidget): Entry[];
  toggleEntries(widget: ContentWidget): void;
  /** The widget whose images, links and videos are open to edit; the language shown. */
  mediaOpen: number | null;
  lang: string;
  toggleMedia(widget: ContentWidget): void;
  saveMedia(widget: ContentWidget, save: MediaSave): void;
  entryAction(action: 'copy' | 'remove', widget: ContentWidget, entry: Entry, index: number): void;
}

/**
 * One widget of the list: its toolbar (drag handle; move up/down, the keyboard's way to
 * reorder; its entries, when it repeats some; favourite; copy to another item; delete) and its
 * content, rendered from the API's sanitised `html`.
 */
export function renderWidgetItem(v: WidgetItemView, widget: ContentWidget, i: number) {
  const { t } = v;
  const name = v.nameOf(widget);
  const label = `${name ? `${name} · ` : ''}${t('widgetLabel', { n: i + 1, total: v.total })}`;
  const entries = v.entries(widget);
  const hasMedia = widget.children.some((e) => ['img', 'a', 'iframe'].includes(e.tag.toLowerCase()));
  const button = (
    glyph: IconName,
    key: MessageKey,
    action: () => void,
    opts: { disabled?: boolean; cls?: string; move?: string; expanded?: boolean } = {},
  ) =>
    html`<button
      class="icon ${opts.cls ?? ''}"
      data-move=${opts.move ?? nothing}
      aria-label=${`${t(key)} (${label})`}
      aria-expanded=${opts.expanded === undefined ? nothing : String(opts.expanded)}
      title=${t(key)}
      ?disabled=${opts.disabled ?? false}
      @click=${action}
    >
      ${icon(glyph)}
    </button>`;
  return html`<li
    class="widget ${v.dropIndex === i ? 'drop-target' : ''}"
    data-id=${widget.id}
    aria-label=${label}
    @dragover=${(e: DragEvent) => {
      if (v.dragOver(i)) e.preventDefault();
    }}
    @drop=${(e: DragEvent) => {
      e.preventDefault();
      v.drop(i);
    }}
  >
    <div class="widget-bar">
      ${
        v.editable
          ? html`<span
              class="handle"
              draggable="true"
              role="img"
              aria-label=${t('dragHandle')}
              title=${t('dragHandle')}
              @dragstart=${(e: DragEvent) => {
                v.dragStart(i);
                e.dataTransfer?.setData('text/plain', String(widget.id));
              }}
              @dragend=${() => v.dragEnd()}
              >${icon('grip')}</span
            >`
          : nothing
      }
      <span class="name">${label}</span>
      ${
        v.editable
          ? html`${button('up', 'moveUp', () => v.moveBy(i, i - 1), { disabled: v.busy || i === 0, move: 'up' })}
            ${button('down', 'moveDown', () => v.moveBy(i, i + 1), { disabled: v.busy || i === v.total - 1, move: 'down' })}
            ${
              entries.length
                ? button('entries', 'entries', () => v.toggleEntries(widget), {
                    expanded: v.entriesOpen === widget.id,
                  })
                : nothing
            }
            ${
              hasMedia
                ? button('media', 'media', () => v.toggleMedia(widget), {
                    expanded: v.mediaOpen === widget.id,
                  })
                : nothing
            }
            ${button('favourite', 'favourite', () => v.favourite(widget), { disabled: v.busy })}
            ${button('copy', 'copyTo', () => v.toggleCopy(widget), { expanded: v.copying === widget.id })}
            ${button('delete', 'delete', () => v.remove(widget, i), { disabled: v.busy, cls: 'danger' })}`
          : nothing
      }
    </div>
    ${
      v.copying === widget.id
        ? html`<form
            class="copy-form toolbar"
            @submit=${(e: SubmitEvent) => {
              e.preventDefault();
              if (!(e.target instanceof HTMLFormElement)) return;
              const target = new FormData(e.target).get('target');
              if (typeof target === 'string' && target.trim()) v.copyTo(widget, target.trim());
            }}
          >
            <label>${t('copyTarget')} <input name="target" required maxlength="255" /></label>
            <button type="submit">${t('copy')}</button>
          </form>`
        : nothing
    }
    ${v.entriesOpen === widget.id && entries.length ? renderEntries(v, widget, entries, label) : nothing}
    ${
      v.mediaOpen === widget.id && hasMedia
        ? html`<ccs-media-form
            .t=${t}
            .widget=${widget}
            .lang=${v.lang}
            .label=${label}
            @ccs-media-save=${(e: CustomEvent<MediaSave>) => v.saveMedia(widget, e.detail)}
            @ccs-close=${() => v.toggleMedia(widget)}
          ></ccs-media-form>`
        : nothing
    }
    <div class="widget-body" part="preview">${keyed(v.drawn, unsafeHTML(widget.html))}</div>
  </li>`;
}

/** The widget's entries, each with "duplicate" and "remove" (the last one cannot be removed). */
function renderEntries(v: WidgetItemView, widget: ContentWidget, entries: Entry[], label: string) {
  const { t } = v;
  return html`<ol class="entries" aria-label=${t('entriesOf', { widget: label })}>
    ${entries.map((entry, k) => {
      const name = `${t('entryN', { n: k + 1 })}${entry.text ? `: ${entry.text}` : ''}`;
      return html`<li>
        <span class="entry-text">${name}</span>
        <button
          aria-label=${`${t('entryDuplicate')} (${name})`}
          ?disabled=${v.busy}
          @click=${() => v.entryAction('copy', widget, entry, k)}
        >
          ${t('entryDuplicate')}
        </button>
        <button
          class="danger"
          aria-label=${`${t('entryRemove')} (${name})`}
          ?disabled=${v.busy || entries.length === 1}
          @click=${() => v.entryAction('remove', widget, entry, k)}
        >
          ${t('entryRemove')}
        </button>
      </li>`;
    })}
  </ol>`;
}
