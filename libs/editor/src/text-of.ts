/** The text of rendered html, its blocks apart ("Weight 1.2 kg", not "Weight1.2 kg"). */
export function textOf(html: string): string {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
  const parts: string[] = [];
  while (walker.nextNode()) parts.push(walker.currentNode.textContent ?? '');
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/** The origin of a URL (`blocked` may also be a keyword such as `inline` or `eval`). */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
