/**
 * Typed errors carry their HTTP status and the exact public body; the error middleware
 * renders them. Anything else that reaches the middleware is a 500 without internals.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    message?: string,
  ) {
    super(message ?? (typeof body.error === 'string' ? body.error : `HTTP ${status}`));
    this.name = new.target.name;
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
    super(422, { error: message, errors });
  }
}

export class BadRequestError extends HttpError {
  constructor(message: string) {
    super(400, { error: message });
  }
}

export class UnauthorizedError extends HttpError {
  constructor(message = 'Authorization token required') {
    super(401, { error: message });
  }
}

export class ForbiddenError extends HttpError {
  constructor(message: string) {
    super(403, { error: message });
  }
}

export class NotFoundError extends HttpError {
  constructor(message = 'Not found') {
    super(404, { error: message });
  }
}

export class ConflictError extends HttpError {
  constructor(message: string, extra: Record<string, unknown> = {}) {
    super(409, { error: message, ...extra });
  }
}
