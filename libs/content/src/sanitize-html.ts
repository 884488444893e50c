/**
 * The sanitiser, in one place. sanitize-html is pinned to 2.17: 2.18 moved to htmlparser2 12,
 * which is ESM-only, and Jest on Node 20 cannot load an ESM-only dependency of a CommonJS
 * package. Move up when the project runs on Node ≥ 22 (or Jest loads ESM natively).
 */
import sanitize from 'sanitize-html';
import type SanitizeHtml from 'sanitize-html';

export { sanitize };
export type { SanitizeHtml };
