import type Joi from 'joi';
import type { Middleware } from 'koa';
import { fieldErrors, ValidationError, type FieldErrors } from '../errors';
import { fieldMessage, fieldPath } from '../messages';
import type { AppContext, AppState } from '../types';

export interface InputSchemas {
  params?: Joi.Schema;
  query?: Joi.Schema;
  body?: Joi.Schema;
}

/** A route's own wording for a joi error type (see fieldMessage's `overrides`). */
export type MessageOverrides = Partial<Record<string, (field: string) => string>>;

function collect(
  errors: FieldErrors,
  prefix: string,
  error: Joi.ValidationError,
  messages: MessageOverrides,
): void {
  for (const detail of error.details) {
    (errors[fieldPath(detail, prefix)] ??= []).push(fieldMessage(detail, prefix, messages));
  }
}

/**
 * Checks params, query and body against joi schemas and puts the converted values on
 * ctx.state.input. Every problem of every part is reported at once (422). `messages` words the
 * errors of a type for this route (e.g. which shapes a field with alternatives accepts).
 */
export function validate(
  schemas: InputSchemas,
  opts: { messages?: MessageOverrides } = {},
): Middleware<AppState, AppContext> {
  return async (ctx, next) => {
    const errors = fieldErrors();
    const input = { params: ctx.params as unknown, query: ctx.query as unknown, body: ctx.request.body };
    for (const part of ['params', 'query', 'body'] as const) {
      const schema = schemas[part];
      if (!schema) continue;
      const result = schema.validate(input[part], { abortEarly: false, convert: true, stripUnknown: false });
      if (result.error) collect(errors, part, result.error, opts.messages ?? {});
      else input[part] = result.value;
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    ctx.state.input = input;
    await next();
  };
}

/** The validated input of a route (see validate()). */
export function inputOf<P = unknown, Q = unknown, B = unknown>(ctx: {
  state: AppState;
}): { params: P; query: Q; body: B } {
  if (!ctx.state.input) throw new Error('inputOf() used on a route without validate()');
  return ctx.state.input as { params: P; query: Q; body: B };
}
