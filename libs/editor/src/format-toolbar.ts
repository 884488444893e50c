/**
 * The formatting toolbar of a rich text being edited (an html-format field: a section's
 * paragraph, an FAQ answer): bold, italic, link, bulleted and numbered lists, clear formatting —
 * the markup such a field allows (libs/content markup.ts). Drawn with plain DOM right before the
 * edited text inside the rendered widget (which Lit does not own), so Shift+Tab from the text
 * reaches it; Alt+F10 does too. It is an ARIA toolbar: one button in the tab order (roving
 * tabindex), arrow keys, Home and End move between them, toggles say aria-pressed, and each
 * names its shortcut (aria-keyshortcuts, the tooltip, and the line of shortcuts under it).
 * Written as one closure rather than a class: the bundle budget counts every property name.
 */
import { safeLinkHref } from '@catalogue/content/urls';
import { activeIn, selectionIn } from './guards';
import type { Translate } from './i18n';
import type { MessageKey } from './messages/en';

type Command = 'bold' | 'italic' | 'link' | 'ul' | 'ol' | 'clear';

/** Command, label, shortcut (shown; aria-keyshortcuts says Control), elements that press the toggle. */
const BUTTONS: Array<[Command, MessageKey, string, string[]?]> = [
  ['bold', 'fmtBold', 'Ctrl+B', ['strong', 'b']],
  ['italic', 'fmtItalic', 'Ctrl+I', ['em', 'i']],
  ['link', 'fmtLink', 'Ctrl+K'],
  ['ul', 'fmtBullets', 'Ctrl+Shift+8', ['ul']],
  ['ol', 'fmtNumbers', 'Ctrl+Shift+7', ['ol']],
  ['clear', 'fmtClear', 'Ctrl+\\'],
];
const LINK = 2;

const EXEC: Partial<Record<Command, string>> = {
  bold: 'bold',
  italic: 'italic',
  ul: 'insertUnorderedList',
  ol: 'insertOrderedList',
};

export interface FormatToolbar {
  /** Whether focus going to `target` stays in the toolbar (the text is still being edited). */
  contains(target: EventTarget | null): boolean;
  /** The text's own shortcuts; true when the key was one of them. */
  handleKey(e: KeyboardEvent): boolean;
  destroy(): void;
}

let counter = 0;

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  text = '',
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.textContent = text;
  return node;
}

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// execCommand is deprecated but is still the only way to edit a contenteditable with the
// browser's own undo stack; every browser the editor supports implements these commands.
const exec = (command: string, value?: string): boolean => document.execCommand(command, false, value);

/**
 * Puts the toolbar, its link form and the line of shortcuts right before `node`. `leave`: focus
 * went from the text and the toolbar to elsewhere (the text is saved).
 */
export function formatToolbar(node: HTMLElement, t: Translate, leave: () => void): FormatToolbar {
  const id = `ccs-format-${++counter}`;
  const root = node.getRootNode();
  const selection = () => selectionIn(root);
  let saved: Range | null = null;
  let active = 0;

  const box = el('div', { class: 'ccs-format' });
  const bar = el('div', {
    class: 'ccs-format-bar',
    role: 'toolbar',
    'aria-label': t('formatting'),
    'aria-describedby': `${id}-keys`,
  });
  const buttons = BUTTONS.map(([command, label, keys, pressedBy], i) => {
    const button = el(
      'button',
      { type: 'button', 'data-format': command, 'aria-keyshortcuts': keys.replace('Ctrl', 'Control') },
      t(label),
    );
    button.title = `${t(label)} (${keys})`;
    button.tabIndex = i ? -1 : 0;
    if (pressedBy) button.setAttribute('aria-pressed', 'false');
    if (i === LINK) button.setAttribute('aria-expanded', 'false');
    // A pointer keeps focus (and the selection) in the text; the keyboard's focus stays here.
    button.addEventListener('mousedown', (e) => e.preventDefault());
    button.addEventListener('click', () => run(command));
    return button;
  });
  bar.append(...buttons);

  const form = el('div', { class: 'ccs-format-link', role: 'group', 'aria-label': t('fmtLink') });
  form.hidden = true;
  const label = el('label', {}, t('fmtLinkAddress'));
  const input = el('input', {
    type: 'text',
    inputmode: 'url',
    autocomplete: 'url',
    spellcheck: 'false',
    'aria-describedby': `${id}-error`,
  });
  label.append(' ', input);
  const apply = el('button', { type: 'button', 'data-link-apply': '' }, t('fmtLinkApply'));
  const cancel = el('button', { type: 'button', 'data-link-cancel': '' }, t('fmtLinkCancel'));
  const error = el('p', { class: 'ccs-format-error', id: `${id}-error`, role: 'alert' });
  form.append(label, apply, cancel, error);
  const keys = BUTTONS.map(([, label, shortcut]) => `${shortcut} ${t(label)}`).join(', ');
  box.append(bar, form, el('p', { class: 'ccs-format-keys', id: `${id}-keys` }, `${keys}. ${t('fmtKeys')}`));

  const contains = (target: EventTarget | null) => target instanceof Node && box.contains(target);

  /** The elements around the remembered selection, up to the text. */
  const around = () => {
    const found = new Set<string>();
    for (let n: Node | null = saved?.startContainer ?? null; n && n !== node; n = n.parentNode)
      if (n instanceof Element) found.add(n.localName);
    return found;
  };

  /** Keeps the selection inside the text, so a command from the toolbar applies to it. */
  const remember = () => {
    const s = selection();
    if (!s?.rangeCount || !node.contains(s.getRangeAt(0).commonAncestorContainer)) return;
    saved = s.getRangeAt(0).cloneRange();
    const tags = around();
    BUTTONS.forEach(([, , , pressedBy], i) => {
      if (pressedBy) buttons[i]!.setAttribute('aria-pressed', String(pressedBy.some((tag) => tags.has(tag))));
    });
  };

  /** Focus and the remembered selection back in the text. */
  const restore = () => {
    node.focus();
    const s = selection();
    if (!s) return;
    let range = saved;
    if (!range || !node.contains(range.commonAncestorContainer)) {
      range = document.createRange();
      range.selectNodeContents(node);
      range.collapse(false);
    }
    s.removeAllRanges();
    s.addRange(range);
  };

  const focusBar = (index = active) => {
    buttons[active]!.tabIndex = -1;
    active = (index + buttons.length) % buttons.length;
    buttons[active]!.tabIndex = 0;
    buttons[active]!.focus();
  };

  /** Bold, italics, links and lists of the selection go; of all of the text when nothing is selected. */
  const clear = () => {
    const s = selection();
    if (s?.isCollapsed) {
      const range = document.createRange();
      range.selectNodeContents(node);
      s.removeAllRanges();
      s.addRange(range);
    }
    exec('removeFormat');
    exec('unlink');
    remember();
    const tags = around();
    if (tags.has('ul')) exec('insertUnorderedList');
    if (tags.has('ol')) exec('insertOrderedList');
  };

  const closeLink = () => {
    // Focus goes first: hiding the focused field would send focus nowhere, which saves the text.
    restore();
    form.hidden = true;
    buttons[LINK]!.setAttribute('aria-expanded', 'false');
  };

  const openLink = () => {
    const start = saved?.startContainer;
    const link = (start instanceof Element ? start : start?.parentElement)?.closest('a');
    input.value = link && node.contains(link) ? (link.getAttribute('href') ?? '') : '';
    error.textContent = '';
    input.removeAttribute('aria-invalid');
    form.hidden = false;
    buttons[LINK]!.setAttribute('aria-expanded', 'true');
    input.focus();
  };

  /** Links the selection (or puts the address as a link at the caret) when it is a full address. */
  const applyLink = () => {
    const href = safeLinkHref(input.value);
    if (href === null) {
      error.textContent = t('fmtLinkInvalid');
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      return;
    }
    closeLink();
    if (selection()?.isCollapsed) exec('insertHTML', `<a href="${escapeHtml(href)}">${escapeHtml(href)}</a>`);
    else exec('createLink', href);
    remember();
  };

  function run(command: Command): void {
    if (command === 'link') return openLink();
    const fromBar = contains(activeIn(root));
    restore();
    if (command === 'clear') clear();
    else exec(EXEC[command]!);
    remember();
    if (fromBar) focusBar(BUTTONS.findIndex(([c]) => c === command));
  }

  bar.addEventListener('keydown', (e) => {
    const to = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
    if (to !== undefined || e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      focusBar(to !== undefined ? active + to : e.key === 'Home' ? 0 : buttons.length - 1);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      restore();
    }
  });
  apply.addEventListener('click', applyLink);
  cancel.addEventListener('click', closeLink);
  input.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' && e.key !== 'Escape') return;
    e.preventDefault();
    e.stopPropagation();
    if (e.key === 'Enter') applyLink();
    else closeLink();
  });
  box.addEventListener('focusout', (e) => {
    const to = e.relatedTarget;
    if (to !== node && !contains(to)) leave();
  });
  document.addEventListener('selectionchange', remember);
  node.before(box);
  remember();

  const shortcut = (e: KeyboardEvent, act: () => void): true => {
    e.preventDefault();
    act();
    return true;
  };

  return {
    contains,
    destroy() {
      document.removeEventListener('selectionchange', remember);
      box.remove();
    },
    handleKey(e) {
      if (e.altKey && e.key === 'F10') return shortcut(e, focusBar);
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return false;
      if (e.shiftKey) {
        if (e.code === 'Digit8') return shortcut(e, () => run('ul'));
        if (e.code === 'Digit7') return shortcut(e, () => run('ol'));
        return false;
      }
      const key = e.key.toLowerCase();
      if (key === 'b') return shortcut(e, () => run('bold'));
      if (key === 'i') return shortcut(e, () => run('italic'));
      if (key === 'k') return shortcut(e, openLink);
      if (e.code === 'Backslash') return shortcut(e, () => run('clear'));
      // Underline is no markup a rich text keeps: the browser's own Ctrl+U would add it.
      if (key === 'u') return shortcut(e, () => undefined);
      return false;
    },
  };
}
