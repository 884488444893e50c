import { fieldErrors, type FieldErrors } from './errors';
import { isObject } from './objects';

declare global {
  interface String {
    /** ES2024 (Node ≥ 20): false when the string has an unpaired UTF-16 surrogate. */
    isWellFormed(): boolean;
  }
}

/**
 * No NUL character and no unpaired UTF-16 surrogate: text PostgreSQL can store as sent (JSON
 * allows both; Postgres refuses NUL with an error, and a lone surrogate would be silently
 * changed to U+FFFD). Native checks, because every string of every import passes here (a
 * lookaround regex cost 3–4 times as much on the import benchmark).
 */
export function isStorableText(text: string): boolean {
  return text.isWellFormed() && !text.includes('\u0000');
}

export const unstorableTextMessage = (field: string): string =>
  `The ${field} field must be valid text (no NUL characters or unpaired surrogates).`;

/**
 * The path (`a.0.b`) of the first string or key inside `value` that cannot be stored, `''` when
 * `value` itself is such a string, or undefined. Keys are collected only once one is found: the
 * hot path (every import item) finds none.
 */
export function firstUnstorablePath(value: unknown): string | undefined {
  return unstorableKeys(value)?.join('.');
}

function unstorableKeys(value: unknown): string[] | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : [];
  if (!isObject(value)) return undefined;
  for (const key of Object.keys(value)) {
    if (!isStorableText(key)) return [key];
    const found = unstorableKeys(value[key]);
    if (found) {
      found.unshift(key);
      return found;
    }
  }
  return undefined;
}

/** Every string (or key) inside `value` that cannot be stored, as field errors keyed by path. */
export function unstorableTextErrors(value: unknown, prefix = ''): FieldErrors {
  const errors = fieldErrors();
  const walk = (node: unknown, at: string): void => {
    if (typeof node === 'string') {
      if (!isStorableText(node)) errors[at || 'body'] = [unstorableTextMessage(at || 'body')];
    } else if (node !== null && typeof node === 'object') {
      for (const [key, item] of Object.entries(node)) {
        const child = at ? `${at}.${key}` : key;
        if (!isStorableText(key)) walk(key, child);
        else walk(item, child);
      }
    }
  };
  walk(value, prefix);
  return errors;
}
