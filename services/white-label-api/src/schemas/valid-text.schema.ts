import type { FieldErrors } from '@catalogue/http';

/** A NUL character or an unpaired UTF-16 surrogate: JSON allows them, PostgreSQL cannot store them. */
// eslint-disable-next-line no-control-regex -- the NUL character is exactly what is refused
const INVALID_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const isValidText = (value: string): boolean => !INVALID_TEXT.test(value);

/**
 * Every string (and object key) of a parsed body that PostgreSQL could not store, keyed by its
 * path, in the catalogue API's wording. Checked before anything is written, so such text is a
 * 422 instead of a 500 from the database, and is never silently changed.
 */
export function invalidTextErrors(value: unknown, path = ''): FieldErrors {
  const errors: FieldErrors = {};
  const walk = (node: unknown, at: string): void => {
    if (typeof node === 'string') {
      if (!isValidText(node)) {
        const field = at || 'body';
        errors[field] = [`The ${field} field must be valid text (no NUL characters or unpaired surrogates).`];
      }
    } else if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, at ? `${at}.${index}` : String(index)));
    } else if (typeof node === 'object' && node !== null) {
      for (const [key, item] of Object.entries(node)) {
        const child = at ? `${at}.${key}` : key;
        if (!isValidText(key)) walk(key, child);
        else walk(item, child);
      }
    }
  };
  walk(value, path);
  return errors;
}
