/**
 * Checks that give what the DOM and the API hand over as loosely typed (an event's target, a
 * parsed JSON body, a node's root) the type it is found to have: each checks what it claims.
 */

/**
 * Whether `value` is an object whose fields can be read (a parsed JSON object or array, an error
 * body): each field is `unknown` until checked where it is used.
 */
export function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null;
}

/** The value of the form field an `input`/`change` event came from ('' from anything else). */
export function fieldValue(e: Event): string {
  const target = e.target;
  return target instanceof HTMLInputElement ||
    target instanceof HTMLSelectElement ||
    target instanceof HTMLTextAreaElement
    ? target.value
    : '';
}

/** Whether the checkbox (or radio button) an event came from is checked. */
export function fieldChecked(e: Event): boolean {
  return e.target instanceof HTMLInputElement && e.target.checked;
}

/** The element that has focus inside `root` (a component's shadow root), null when none there. */
export function activeIn(root: Node): Element | null {
  return root instanceof ShadowRoot || root instanceof Document ? root.activeElement : null;
}

/** A root with a selection of its own: the document, and a shadow root in Chromium. */
function hasSelection(root: Node): root is Node & { getSelection(): Selection | null } {
  return 'getSelection' in root && typeof root.getSelection === 'function';
}

/**
 * The selection inside the tree `root` is the root of: a shadow root's own where the browser
 * keeps one (Chromium), else the document's.
 */
export function selectionIn(root: Node): Selection | null {
  return (hasSelection(root) ? root.getSelection() : null) ?? document.getSelection();
}
