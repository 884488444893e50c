/**
 * The `code` of every `ccs-error` event: one closed list, the table "Error codes" of
 * libs/editor/README.md (a test compares the two). The API's own code, when it sent one, goes
 * with it as `api_code`.
 */
import { ApiError } from './api';
import { isObject } from './guards';

export type EditorErrorCode =
  | 'network'
  | 'origin_not_allowed'
  | 'token_invalid'
  | 'licence_invalid'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'content_changed'
  | 'insufficient_credits'
  | 'invalid'
  | 'rate_limited'
  | 'unavailable'
  | 'server_error'
  | 'http_error'
  | 'csp_blocked';

/** The editor's code for a failure (an {@link ApiError}, or anything else thrown). */
export function editorErrorCode(err: unknown): EditorErrorCode {
  if (!(err instanceof ApiError)) return 'http_error';
  const body = isObject(err.body) ? err.body : {};
  if (err.code === 'network' || err.status === 0) return 'network';
  if (err.status === 401) return 'token_invalid';
  if (err.status === 403) {
    if (isLicence(err)) return 'licence_invalid';
    if (isOrigin(err)) return 'origin_not_allowed';
    return 'forbidden';
  }
  if (err.status === 404) return 'not_found';
  if (err.status === 409) return 'conflict';
  if (err.status === 412) return 'content_changed';
  if (err.status === 422 && typeof body.required === 'number') return 'insufficient_credits';
  if (err.status === 422 || err.status === 400) return 'invalid';
  if (err.status === 429) return 'rate_limited';
  if (err.status === 503) return 'unavailable';
  if (err.status >= 500) return 'server_error';
  return 'http_error';
}

export function isLicence(err: ApiError): boolean {
  return /licen[cs]e/i.test(err.message) || Boolean(err.code?.includes('licen'));
}

export function isOrigin(err: ApiError): boolean {
  return /origin/i.test(err.message) || Boolean(err.code?.includes('origin'));
}
