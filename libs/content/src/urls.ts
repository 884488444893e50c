/**
 * URL checks shared by the sanitiser, the renderers, filling and rich snippets. A URL is judged
 * by the WHATWG parser (the one browsers use), after refusing any whitespace or control
 * character: browsers silently strip tabs and newlines inside a scheme (`jav&#x09;ascript:`),
 * so a URL containing them is never worth the risk of a different reading.
 */

export type UrlScheme = 'http' | 'https' | 'mailto' | 'tel';

// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const UNSAFE_CHARACTERS = /[\u0000-\u0020\u007f-\u009f\u2028\u2029]/;

/** The URL (trimmed, otherwise unchanged) when it is absolute and uses an allowed scheme; else null. */
export function safeUrl(value: unknown, schemes: readonly UrlScheme[]): string | null {
  if (typeof value !== 'string') return null;
  const url = value.trim();
  if (url === '' || url.length > 2048 || UNSAFE_CHARACTERS.test(url)) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  // Compared, not narrowed with libs/config's isOneOf: the editor's browser bundle imports this
  // module, and libs/config is Node's.
  const scheme = parsed.protocol.slice(0, -1);
  if (!schemes.some((allowed) => allowed === scheme)) return null;
  if ((scheme === 'http' || scheme === 'https') && parsed.hostname === '') return null;
  return url;
}

export const safeHref = (value: unknown): string | null => safeUrl(value, ['http', 'https', 'mailto']);
/** A link a person writes into a rich text: absolute http(s), mailto or tel (a shop's phone number). */
export const safeLinkHref = (value: unknown): string | null =>
  safeUrl(value, ['http', 'https', 'mailto', 'tel']);
export const safeSrc = (value: unknown): string | null => safeUrl(value, ['http', 'https']);

/** Hosts whose embed players the video widget may show in an iframe. */
export const VIDEO_EMBED_HOSTS = [
  'www.youtube-nocookie.com',
  'www.youtube.com',
  'youtube.com',
  'player.vimeo.com',
] as const;

const YOUTUBE_ID = /^[A-Za-z0-9_-]{6,20}$/;
const VIMEO_ID = /^\d{1,12}$/;

/**
 * The canonical embed URL for a YouTube or Vimeo link (watch, short, share or embed form), or
 * null. YouTube is always embedded from youtube-nocookie.com, which sets no cookies until play;
 * query strings are dropped so no player option (autoplay, origin, …) is taken from input.
 */
export function videoEmbedUrl(value: unknown): string | null {
  const url = safeUrl(value, ['https', 'http']);
  if (!url) return null;
  const parsed = new URL(url);
  const host = parsed.hostname.toLowerCase();
  const segments = parsed.pathname.split('/').filter((s) => s !== '');
  let youtubeId: string | undefined;
  if (host === 'youtu.be') youtubeId = segments[0];
  else if (['youtube.com', 'www.youtube.com', 'm.youtube.com'].includes(host)) {
    if (segments[0] === 'watch') youtubeId = parsed.searchParams.get('v') ?? undefined;
    else if (segments[0] === 'embed' || segments[0] === 'shorts') youtubeId = segments[1];
  } else if (['youtube-nocookie.com', 'www.youtube-nocookie.com'].includes(host) && segments[0] === 'embed') {
    youtubeId = segments[1];
  }
  if (youtubeId !== undefined) {
    return YOUTUBE_ID.test(youtubeId) ? `https://www.youtube-nocookie.com/embed/${youtubeId}` : null;
  }
  let vimeoId: string | undefined;
  if (host === 'vimeo.com' || host === 'www.vimeo.com') vimeoId = segments[0];
  else if (host === 'player.vimeo.com' && segments[0] === 'video') vimeoId = segments[1];
  if (vimeoId !== undefined && VIMEO_ID.test(vimeoId)) return `https://player.vimeo.com/video/${vimeoId}`;
  return null;
}
