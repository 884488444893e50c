import type { ErrorCode } from './codes';

/**
 * Typed errors carry their HTTP status, their stable `code` (see codes.ts) and the exact
 * public body; the error middleware renders them with `code` added to the body and `headers`
 * set on the response. Anything else that reaches the middleware is a 500 without internals.
 */
export class HttpError extends Error {
  /** The public body: the specification's fields, then `code`. */
  readonly body: Record<string, unknown>;

  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.error === 'string' ? body.error : `HTTP ${status} ${code}`);
    this.name = new.target.name;
    this.body = { ...body, code };
  }
}

export type FieldErrors = Record<string, string[]>;

/**
 * An empty FieldErrors without a prototype: its keys are field names a client chose, and on a
 * plain object `toString`, `constructor` or `valueOf` would already be there (a push onto a
 * function: 500) and `__proto__` would replace the prototype instead of naming a field (the
 * error silently lost).
 */
export function fieldErrors(): FieldErrors {
  return Object.create(null) as FieldErrors;
}

/** 422: the request is well-formed JSON but its content is not acceptable. */
export class ValidationError extends HttpError {
  constructor(
    readonly errors: FieldErrors,
    message = 'The given data was invalid.',
  ) {
    super(422, 'validation_failed', { error: message, errors });
  }
}

export class BadRequestError extends HttpError {
  constructor(message: string, code: ErrorCode = 'malformed_json') {
    super(400, code, { error: message });
  }
}

/**
 * 401 with a `WWW-Authenticate` challenge (RFC 9110 requires one): `token_missing` when no
 * token was sent, `token_invalid` when it is unknown or revoked.
 */
export class UnauthorizedError extends HttpError {
  constructor(message: string, code: 'token_missing' | 'token_invalid', challenge: string) {
    super(401, code, { error: message }, { 'WWW-Authenticate': challenge });
  }
}

export class ForbiddenError extends HttpError {
  constructor(message: string, code: 'origin_forbidden' | 'licence_invalid') {
    super(403, code, { error: message });
  }
}

export class NotFoundError extends HttpError {
  constructor(message = 'Not found') {
    super(404, 'not_found', { error: message });
  }
}

export class ConflictError extends HttpError {
  constructor(message: string, code: ErrorCode, extra: Record<string, unknown> = {}) {
    super(409, code, { error: message, ...extra });
  }
}

/** 410: what the request names existed and is gone for good. */
export class GoneError extends HttpError {
  constructor(message: string, code: ErrorCode) {
    super(410, code, { error: message });
  }
}

export class UnsupportedMediaTypeError extends HttpError {
  constructor(message = 'Send the body as application/json.') {
    super(415, 'unsupported_media_type', { error: message });
  }
}

/** 503 with `Retry-After`: a dependency is unavailable and the request changed nothing. */
export class UnavailableError extends HttpError {
  constructor(message: string, retryAfterSeconds = 5) {
    super(503, 'unavailable', { error: message }, { 'Retry-After': String(retryAfterSeconds) });
  }
}
