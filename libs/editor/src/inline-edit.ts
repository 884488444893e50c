/**
 * Finds, in a widget's rendered HTML (the API's `html`, which carries no element ids), the DOM
 * node of each editable element. The renderer writes every element with its class, in tree
 * order (siblings by `child_id`), and leaves out empty ones, so the k-th rendered node with a
 * class is the k-th non-empty element of the tree with that class. When the counts disagree
 * (an element the renderer dropped for another reason, e.g. an unsafe link) that class is not
 * offered for editing rather than editing the wrong element.
 */
import type { ContentElement, ContentWidget } from '@catalogue/content/v3';
import { formatToolbar, type FormatToolbar } from './format-toolbar';
import { selectionIn } from './guards';
import type { Translate } from './i18n';
import { MARKED } from './marks';
import { cleanRich } from './rich-clean';

/** Tags whose text is a plain-text field: edited as text, sent back escaped. */
const PLAIN_TAGS = new Set([
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'cite',
  'a',
  'span',
  'th',
  'td',
  'dt',
  'figcaption',
]);

export interface EditableNode {
  element: ContentElement;
  node: HTMLElement;
  plain: boolean;
}

export function valueIn(element: ContentElement, lang: string): string {
  const value = Array.isArray(element.value) ? {} : element.value;
  const own = value[lang];
  if (typeof own === 'string' && own.trim() !== '') return own;
  return typeof value.default === 'string' ? value.default : '';
}

/** Classes the editor itself puts on a rendered node (not the renderer's). */
const OWN_CLASSES = new Set(['ccs-editable', 'invalid', MARKED]);

const classKey = (cls: string): string =>
  cls
    .trim()
    .split(/\s+/)
    .filter((c) => c && !OWN_CLASSES.has(c))
    .join(' ');

/** The widget's elements in document order (depth first, siblings by child_id then id). */
export function inTreeOrder(widget: ContentWidget): ContentElement[] {
  const byParent = new Map<number, ContentElement[]>();
  for (const e of widget.children) byParent.set(e.parent_id, [...(byParent.get(e.parent_id) ?? []), e]);
  const out: ContentElement[] = [];
  const seen = new Set<number>();
  const visit = (parent: number): void => {
    const siblings = [...(byParent.get(parent) ?? [])].sort((a, b) => a.child_id - b.child_id || a.id - b.id);
    for (const e of siblings) {
      if (seen.has(e.id)) continue;
      seen.add(e.id);
      out.push(e);
      visit(e.id);
    }
  };
  visit(0);
  return out;
}

/** Cells a row keeps, empty ones too, as soon as one of its cells has content (as the renderer does). */
const CELL_TAGS = new Set(['th', 'td']);

/**
 * The elements the renderer writes (with text, or holding one that is written): an empty cell
 * of a row that shows is written too, so its value can be typed in place.
 */
function renderedElements(widget: ContentWidget, lang: string): Set<number> {
  const children = new Map<number, ContentElement[]>();
  for (const e of widget.children) children.set(e.parent_id, [...(children.get(e.parent_id) ?? []), e]);
  const rendered = new Set<number>();
  const visit = (e: ContentElement): boolean => {
    const kids = children.get(e.id) ?? [];
    const shown = kids.map(visit).some(Boolean);
    const own = valueIn(e, lang) !== '' || shown;
    if (own) rendered.add(e.id);
    if (e.tag.toLowerCase() === 'tr' && shown)
      for (const cell of kids) if (CELL_TAGS.has(cell.tag)) rendered.add(cell.id);
    return own;
  };
  (children.get(0) ?? []).forEach(visit);
  return rendered;
}

export function editableNodes(widget: ContentWidget, root: HTMLElement, lang: string): EditableNode[] {
  const ordered = inTreeOrder(widget);
  const hasChildren = new Set(widget.children.map((e) => e.parent_id));
  const rendered = renderedElements(widget, lang);
  const byClass = new Map<string, ContentElement[]>();
  for (const e of ordered) {
    const key = classKey(e.class);
    if (!key || e.tag === 'img' || e.tag === 'iframe' || e.tag === 'hr' || e.tag === 'br') continue;
    if (!rendered.has(e.id)) continue;
    byClass.set(key, [...(byClass.get(key) ?? []), e]);
  }
  const nodesByClass = new Map<string, HTMLElement[]>();
  for (const node of root.querySelectorAll<HTMLElement>('[class]')) {
    const key = classKey(node.getAttribute('class') ?? '');
    nodesByClass.set(key, [...(nodesByClass.get(key) ?? []), node]);
  }
  const out: EditableNode[] = [];
  for (const [key, elements] of byClass) {
    const nodes = nodesByClass.get(key) ?? [];
    if (nodes.length !== elements.length) continue;
    elements.forEach((element, i) => {
      // Only leaves with text are edited in place: a container's children are its own elements.
      if (!element.is_editable || hasChildren.has(element.id)) return;
      out.push({ element, node: nodes[i]!, plain: PLAIN_TAGS.has(element.tag.toLowerCase()) });
    });
  }
  return out;
}

export function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * What to send for a node the person edited: its text escaped, or its markup cleaned to what a
 * rich text allows (rich-clean.ts; the API sanitises it again): `ccs-change` carries this value.
 */
export function editedValue(node: HTMLElement, plain: boolean): string {
  return plain ? escapeText(node.textContent ?? '') : cleanRich(node.innerHTML);
}

/** What an editable node tells the editor. */
export interface EditHooks {
  /** The id of the text saying how to edit (the node keeps its own role: a heading, a summary). */
  describedBy: string;
  /** The node was left with Enter or by moving away: save it. */
  commit(): void;
  /** The text now differs from what was shown (true) or was put back (false). */
  changed(unsaved: boolean): void;
  /**
   * The UI texts as they are when editing starts (the UI language may change, or its texts
   * arrive, after the node was wired): given, a rich text being edited shows the formatting
   * toolbar (format-toolbar.ts).
   */
  texts?: () => Translate;
}

/** Whether the caret is in a list item of the node (where Enter starts a new item). */
function inListItem(node: HTMLElement): boolean {
  const at = selectionIn(node.getRootNode())?.anchorNode ?? null;
  const item = (at instanceof Element ? at : at?.parentElement)?.closest('li');
  return item != null && node.contains(item);
}

/** Puts the caret at the end of the node (the keyboard's way in: the selection may be elsewhere). */
function caretAtEnd(node: HTMLElement): void {
  const selection = selectionIn(node.getRootNode());
  if (!selection) return;
  const range = document.createRange();
  range.selectNodeContents(node);
  range.collapse(false);
  selection.removeAllRanges();
  selection.addRange(range);
}

/**
 * Makes a rendered node editable in place: focusable, a click or Enter starts editing, Enter
 * (Shift+Enter in rich text: a new line) or leaving the field saves, Escape puts the text
 * back. A node already wired is left alone (unsafeHTML replaces nodes when the html changes).
 * The node keeps its role (a heading stays a heading, a summary a summary): editing is said by
 * the text it is described by, and while it is edited it is an editable field of its own.
 */
export function makeEditable(node: HTMLElement, plain: boolean, hooks: EditHooks): void {
  if (node.classList.contains('ccs-editable')) return;
  node.classList.add('ccs-editable');
  if (node.tagName !== 'SUMMARY') node.tabIndex = 0;
  node.setAttribute('aria-describedby', hooks.describedBy);
  let toolbar: FormatToolbar | undefined;
  // Editing ends when the editor (a save, Escape) takes the attribute away: so does the toolbar.
  new MutationObserver(() => {
    if (node.isContentEditable) return;
    toolbar?.destroy();
    toolbar = undefined;
  }).observe(node, { attributes: true, attributeFilter: ['contenteditable'] });
  const start = (keyboard: boolean) => {
    if (node.isContentEditable) return;
    node.dataset.before = node.innerHTML;
    node.contentEditable = plain ? 'plaintext-only' : 'true';
    if (!plain && hooks.texts) toolbar = formatToolbar(node, hooks.texts(), () => hooks.commit());
    node.focus();
    if (keyboard) caretAtEnd(node);
  };
  if (!plain) {
    // A paste keeps only what the field allows, visibly, before anything is saved.
    node.addEventListener('paste', (e) => {
      if (!node.isContentEditable || !e.clipboardData) return;
      const html = e.clipboardData.getData('text/html');
      const text = e.clipboardData.getData('text/plain');
      e.preventDefault();
      if (html) document.execCommand('insertHTML', false, cleanRich(html));
      else if (text) document.execCommand('insertText', false, text);
    });
  }
  node.addEventListener('click', (e) => {
    // A summary would toggle its details: the editor keeps them open (see ccs-editor.ts).
    e.preventDefault();
    start(false);
  });
  node.addEventListener('input', () => hooks.changed(node.innerHTML !== node.dataset.before));
  node.addEventListener('keydown', (e) => {
    if (!node.isContentEditable) {
      if (e.key === 'Enter') {
        e.preventDefault();
        start(true);
      }
      return;
    }
    if (toolbar?.handleKey(e)) return;
    if (e.key === 'Escape') {
      node.innerHTML = node.dataset.before ?? node.innerHTML;
      node.removeAttribute('contenteditable');
      node.classList.remove('invalid');
      hooks.changed(false);
    } else if (e.key === ' ' && node.tagName === 'SUMMARY') {
      // A summary takes Space as "toggle", not as a character: type it here.
      e.preventDefault();
      document.execCommand('insertText', false, ' ');
    } else if (e.key === 'Enter' && (plain || !e.shiftKey)) {
      // In a list Enter starts a new item (Ctrl+Enter saves).
      if (!plain && !e.ctrlKey && !e.metaKey && inListItem(node)) return;
      e.preventDefault();
      node.blur();
    }
  });
  node.addEventListener('blur', (e) => {
    // Moving to the toolbar (or its link form) is still editing.
    if (toolbar?.contains(e.relatedTarget)) return;
    hooks.commit();
  });
}
