/**
 * The parts of a widget that are not text: its images (and icons), links and videos, each with
 * its URL and, for an image, its alt text in the language shown. A URL is checked by the very
 * rules the API applies before it stores one (libs/content urls.ts, bundled), so a refused URL
 * is said in the form and never sent.
 */
import { safeHref, safeSrc, videoEmbedUrl } from '@catalogue/content/urls';
import { isObject } from './guards';
import { inTreeOrder } from './inline-edit';
import type { ContentElement, ContentWidget } from '@catalogue/content/v3';

export type MediaKind = 'image' | 'link' | 'video';

export interface MediaItem {
  element: ContentElement;
  kind: MediaKind;
  /** The stored URL (`src`, or `href` for a link). */
  url: string;
  /** An image's alt text in the language shown (its default when it has none). */
  alt: string;
  /** A link's text, to recognise it by. */
  text: string;
}

const KINDS: Record<string, MediaKind> = { img: 'image', a: 'link', iframe: 'video' };

type Attributes = Record<string, unknown>;

function attributes(element: ContentElement): Attributes {
  const ext = element.extension;
  return isObject(ext) && !Array.isArray(ext) ? ext : {};
}

/** An attribute as the renderer reads it: a string, or a language map (its `lang`, else `default`). */
export function pick(value: unknown, lang: string): string {
  if (typeof value === 'string') return value;
  if (!isObject(value)) return '';
  const own = value[lang];
  if (typeof own === 'string' && own.trim() !== '') return own;
  return typeof value.default === 'string' ? value.default : '';
}

const plain = (html: string): string =>
  (new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '').replace(/\s+/g, ' ').trim();

export function mediaOf(widget: ContentWidget, lang: string): MediaItem[] {
  return inTreeOrder(widget).flatMap((element) => {
    const kind = KINDS[element.tag.toLowerCase()];
    if (!kind) return [];
    const ext = attributes(element);
    const value = Array.isArray(element.value) ? {} : element.value;
    return [
      {
        element,
        kind,
        url: pick(kind === 'link' ? ext.href : ext.src, lang),
        alt: kind === 'image' ? pick(ext.alt, lang) : '',
        text: kind === 'link' ? plain(pick(value, lang)) : '',
      },
    ];
  });
}

/** Why the URL would be refused (a message key), or null when the API takes it. */
export function urlProblem(
  kind: MediaKind,
  url: string,
): 'badImageUrl' | 'badLinkUrl' | 'badVideoUrl' | null {
  if (url.trim() === '') return null; // no URL: the element is not shown
  if (kind === 'image') return safeSrc(url) === null ? 'badImageUrl' : null;
  if (kind === 'link') return safeHref(url) === null ? 'badLinkUrl' : null;
  return videoEmbedUrl(url) === null ? 'badVideoUrl' : null;
}

/** What the player of a video URL will be (the embed the renderer writes), or null. */
export function embedOf(url: string): string | null {
  return videoEmbedUrl(url);
}

/**
 * The attributes to send for an item: its URL, and an image's alt text in `lang` with the
 * other languages' kept (the API replaces an attribute's language map as a whole).
 */
export function attributesToSend(item: MediaItem, url: string, alt: string, lang: string): Attributes {
  const name = item.kind === 'link' ? 'href' : 'src';
  if (item.kind !== 'image') return { [name]: url.trim() };
  const stored = attributes(item.element).alt;
  // The other languages' texts are sent back as they were stored.
  const map: Record<string, unknown> =
    typeof stored === 'string' ? { default: stored } : isObject(stored) ? { ...stored } : {};
  map[lang] = alt.trim();
  return { src: url.trim(), alt: map };
}
