/**
 * Cleans the HTML of a rich text in the browser — a paste (from Word, a web page, another
 * editor) and the edited text before it is sent — to the markup the field allows
 * (libs/content markup.ts, which the API's sanitiser enforces again): what the person sees in
 * the field after pasting is what will be saved and published. The HTML is parsed into an inert
 * document (DOMParser: no script runs, no image loads) and rebuilt from allowed elements only.
 */
import {
  OFFICE_LIST_MARKER,
  RICH_BLOCKS,
  RICH_DROPPED_WITH_TEXT,
  RICH_RENAMES,
  RICH_TAGS,
} from '@catalogue/content/markup';
import { safeLinkHref } from '@catalogue/content/urls';

const ALLOWED = new Set<string>(RICH_TAGS);
const DROPPED = new Set<string>(RICH_DROPPED_WITH_TEXT);
const BLOCKS = new Set<string>(RICH_BLOCKS);
/** Blocks of other editors (a `div` line, a quote) that become paragraphs when they hold no block. */
const AS_PARAGRAPH = new Set(['div', 'blockquote', 'pre', 'address']);

/** Word writes a list as paragraphs styled `mso-list:l0 level1 …`, each with its marker in a span. */
const OFFICE_LIST_ITEM = /mso-list\s*:\s*l\d+\s+level/i;
/** A marker that counts (`1.`, `a)`, `iv.`) rather than a bullet glyph. */
const NUMBERED_MARKER = /^\s*[0-9a-z]{1,4}[.)]/i;

/** Copies the allowed part of `from`'s children into `into`. */
function copyChildren(from: Node, into: Node, doc: Document): void {
  // The list the Word list paragraphs just copied went into (null after anything else).
  let list: HTMLElement | null = null;
  for (const child of [...from.childNodes]) {
    if (child.nodeType === Node.TEXT_NODE) {
      // A line break in HTML source is a space; spaces between Word's list paragraphs are no text.
      const text = (child.textContent ?? '').replace(/[\r\n]+/g, ' ');
      if (text.trim()) list = null;
      into.appendChild(doc.createTextNode(text));
      continue;
    }
    if (!(child instanceof Element)) continue;
    const tag = child.localName.toLowerCase();
    const style = child.getAttribute('style') ?? '';
    if (DROPPED.has(tag) || OFFICE_LIST_MARKER.test(style)) continue;
    if (tag === 'p' && OFFICE_LIST_ITEM.test(style)) {
      const marker = [...child.querySelectorAll('[style]')].find((m) =>
        OFFICE_LIST_MARKER.test(m.getAttribute('style') ?? ''),
      );
      const kind = NUMBERED_MARKER.test(marker?.textContent ?? '') ? 'ol' : 'ul';
      if (list === null || list.localName !== kind) {
        list = doc.createElement(kind);
        into.appendChild(list);
      }
      copyChildren(child, list.appendChild(doc.createElement('li')), doc);
      continue;
    }
    list = null;
    let name = RICH_RENAMES[tag] ?? tag;
    if (AS_PARAGRAPH.has(name) && !child.querySelector('p,div,ul,ol,li,h1,h2,h3,h4,h5,h6,table,blockquote'))
      name = 'p';
    const href = name === 'a' ? safeLinkHref(child.getAttribute('href') ?? '') : null;
    if (!ALLOWED.has(name) || (name === 'a' && href === null)) {
      copyChildren(child, into, doc);
      continue;
    }
    const clean = doc.createElement(name);
    if (href !== null) clean.setAttribute('href', href);
    copyChildren(child, clean, doc);
    into.appendChild(clean);
  }
}

/** Removes what shows nothing: empty blocks and links, empty bold/italics, a block's last `br`. */
function prune(root: Element): void {
  for (const el of [...root.querySelectorAll('*')].reverse()) {
    const name = el.localName;
    const empty = (el.textContent ?? '').trim() === '';
    if (empty && (BLOCKS.has(name) || name === 'a')) el.remove();
    else if (empty && (name === 'strong' || name === 'em')) el.replaceWith(...el.childNodes);
    else if (
      name === 'br' &&
      !el.nextSibling &&
      el.parentElement !== root &&
      BLOCKS.has(el.parentElement!.localName)
    )
      el.remove();
  }
}

/** The HTML a rich text keeps of `html` (see the module comment). */
export function cleanRich(html: string): string {
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  const out = document.implementation.createHTMLDocument('');
  const root = out.createElement('div');
  copyChildren(parsed.body, root, out);
  prune(root);
  return root.innerHTML
    .replace(/\s+(<\/?(?:p|li|ul|ol|h3|h4)>)/g, '$1')
    .replace(/(<\/(?:p|li|ul|ol|h3|h4)>|<(?:ul|ol)>)\s+/g, '$1')
    .trim();
}
