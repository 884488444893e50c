/**
 * The stable, machine-readable `code` of every error body of every service: the one list
 * clients (and the editor) branch on. Messages may be reworded; codes never change meaning.
 * docs/openapi.yaml (`ErrorCode`) and the README table are checked against this list by a test.
 */
export const ERROR_CODES = {
  malformed_json: { status: 400, meaning: 'The body is not valid JSON (or not a JSON object or array).' },
  body_encoding_invalid: {
    status: 400,
    meaning: 'The body does not decode with its Content-Encoding (gzip, deflate, br).',
  },
  body_too_deep: { status: 400, meaning: 'The JSON body nests arrays and objects more than 64 levels deep.' },
  bad_request: {
    status: 400,
    meaning: 'The HTTP request itself is malformed (request line, method or headers).',
  },
  idempotency_key_invalid: {
    status: 400,
    meaning: 'The Idempotency-Key header is empty, too long or not printable ASCII.',
  },
  cursor_invalid: {
    status: 400,
    meaning: 'The change feed cursor (`after`) is not one the service returned.',
  },
  token_missing: { status: 401, meaning: 'No token was sent.' },
  token_invalid: { status: 401, meaning: 'The token sent is unknown or revoked.' },
  origin_forbidden: { status: 403, meaning: 'The Origin header is missing or not allowed for the eshop.' },
  licence_invalid: { status: 403, meaning: 'The white-label licence of the eshop is not valid.' },
  not_found: { status: 404, meaning: 'Unknown route or resource (or another eshop’s).' },
  method_not_allowed: { status: 405, meaning: 'The path exists, but not with this method.' },
  request_timeout: { status: 408, meaning: 'The request was not received completely in time.' },
  generation_running: { status: 409, meaning: 'A generation is already running for the entity.' },
  idempotency_conflict: {
    status: 409,
    meaning: 'A request with this Idempotency-Key is still being processed; retry later.',
  },
  no_draft: {
    status: 409,
    meaning: 'The entity has no draft to publish or discard (its edits are already published).',
  },
  batch_finished: {
    status: 409,
    meaning: 'The bulk generation has ended (finished or cancelled); it cannot be paused, resumed or cancelled.',
  },
  webhook_disabled: {
    status: 409,
    meaning: 'The webhook endpoint is disabled (deliveries failed for too long); enable it first.',
  },
  cursor_expired: {
    status: 410,
    meaning:
      'Events after the change feed cursor (`after`) are past the retention and were deleted: read the lists again, then the feed from its start.',
  },
  content_version_mismatch: {
    status: 412,
    meaning:
      'The If-Match header names another version of the content than the stored one: read it again (its ETag) and retry.',
  },
  body_too_large: { status: 413, meaning: 'The body is larger than the configured limit.' },
  unsupported_media_type: {
    status: 415,
    meaning: 'The body is not sent as a content type the endpoint accepts (application/json).',
  },
  headers_too_large: { status: 431, meaning: 'The request headers are larger than the server accepts.' },
  validation_failed: {
    status: 422,
    meaning: 'The request is well-formed but its content is not acceptable.',
  },
  bulk_limit_exceeded: { status: 422, meaning: 'More items than a bulk request accepts (100).' },
  credits_insufficient: { status: 422, meaning: 'The estimated cost exceeds the remaining credits.' },
  generation_material_missing: {
    status: 422,
    meaning: "There is nothing in the job's language to write from (no name or description, sent or stored).",
  },
  replaced_language_missing: {
    status: 422,
    meaning:
      "Replacing the content would remove a language's text that there is nothing to write again from.",
  },
  budget_below_estimate: {
    status: 422,
    meaning: "A bulk generation's budget does not cover even one of its items at the current prices.",
  },
  selection_empty: { status: 422, meaning: "A bulk generation's selection has no catalogue item." },
  selection_too_large: {
    status: 422,
    meaning: "A bulk generation's selection has more than 10,000 catalogue items.",
  },
  idempotency_key_reused: {
    status: 422,
    meaning: 'The Idempotency-Key was used with another request (method, path or body).',
  },
  rate_limited: { status: 429, meaning: 'Over a rate limit; retry after `Retry-After` seconds.' },
  method_not_implemented: {
    status: 501,
    meaning: 'No route of the service has this method (TRACE, PROPFIND…).',
  },
  internal: { status: 500, meaning: 'An unexpected error; the body names the request id.' },
  unavailable: {
    status: 503,
    meaning: 'A dependency (PostgreSQL, Redis) is unavailable; retry after `Retry-After` seconds.',
  },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
