/**
 * The canonical form of an allowed origin: "scheme://host[:port]" with the host lower-cased
 * and a default port dropped, exactly as browsers send it in the Origin header.
 * Returns null for anything that is not a plain http(s) origin.
 */
export function normaliseOrigin(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || url.search || url.hash) return null;
  if (url.pathname !== '/' && url.pathname !== '') return null;
  // Stored in varchar(255); no real host name comes near it.
  return url.origin.length <= 255 ? url.origin : null;
}
