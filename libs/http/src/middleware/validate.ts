import Joi from 'joi';
import type { Middleware } from 'koa';
import { fieldErrors, ValidationError, type FieldErrors } from '../errors';
import { fieldMessage, fieldPath } from '../messages';
import type { AppContext, AppState } from '../types';

/**
 * The joi schemas of a route's parts. Each schema's declared type (`Joi.object<T, true>(…)`, whose
 * strict key map makes TypeScript check the schema's keys against T) becomes the type of that
 * part in the handler's `ctx.state.input`.
 */
export interface InputSchemas<P = unknown, Q = unknown, B = unknown> {
  params?: Joi.Schema<P>;
  query?: Joi.Schema<Q>;
  body?: Joi.Schema<B>;
}

/**
 * Refuses a schema typed `any` (a bare `Joi.object({…})`): its part would reach the handler
 * unchecked by TypeScript. Declare the schema's type with `Joi.object<T, true>({…})`.
 */
type Typed<P, Q, B> = (0 extends 1 & P ? { params: never } : unknown) &
  (0 extends 1 & Q ? { query: never } : unknown) &
  (0 extends 1 & B ? { body: never } : unknown);

/** What validate() leaves on ctx.state for the handlers after it. */
export interface Validated<P, Q, B> {
  input: { params: P; query: Q; body: B };
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
 * ctx.state.input, typed from the schemas for the handlers after it (koa-router infers the
 * state from the middleware before a handler). Every problem of every part is reported at once
 * (422). `messages` words the errors of a type for this route (e.g. which shapes a field with
 * alternatives accepts).
 */
export function validate<P = unknown, Q = unknown, B = unknown>(
  schemas: InputSchemas<P, Q, B> & Typed<P, Q, B>,
  opts: { messages?: MessageOverrides } = {},
): Middleware<AppState & Validated<P, Q, B>, AppContext> {
  return async (ctx, next) => {
    const errors = fieldErrors();
    // Each part is unknown until its schema has checked it (the loop below).
    const input: Record<'params' | 'query' | 'body', unknown> = {
      params: ctx.params,
      query: ctx.query,
      body: ctx.request.body,
    };
    for (const part of ['params', 'query', 'body'] as const) {
      const schema = schemas[part];
      if (!schema) continue;
      const result = schema.validate(input[part], { abortEarly: false, convert: true, stripUnknown: false });
      if (result.error) collect(errors, part, result.error, opts.messages ?? {});
      else input[part] = result.value;
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    // The one place the checked values meet their types: each part passed its schema just above.
    ctx.state.input = input as Validated<P, Q, B>['input'];
    await next();
  };
}

/**
 * How a status of a route is described in docs/openapi.yaml: the name of a shared response of
 * docs/openapi.base.yaml (`'WlEntityNotFound'`), `true` when the router's `<name>.docs.yaml`
 * describes it, `false` for a status every route of its kind answers but this one cannot.
 */
export type StatusAnswer = string | boolean;

/**
 * A route's declaration, next to the route: the operation it is in docs/openapi.yaml, the joi
 * schemas that validate its parts (as validate() takes them), the joi schemas of its response
 * bodies and the statuses it answers. scripts/gen-openapi.mjs reads the path and method from
 * the router the route is on, the authentication from the router's kind (routerAuth()), and
 * writes the operation from this declaration and the prose and examples of the operation's
 * entry in the router's `<name>.docs.yaml`.
 */
export interface RouteShapes<P = unknown, Q = unknown, B = unknown> extends InputSchemas<P, Q, B> {
  operationId: string;
  /** Response bodies by status: documentation (and tests) only, never checked at runtime. */
  response?: Partial<Record<number, Joi.Schema>>;
  /**
   * The statuses the handler answers besides those of `response` and those every route of its
   * kind answers (401, 403, 429, 500, 503 by authentication; 422 with an input schema; 400,
   * 413, 415 with a body; see scripts/gen-openapi.mjs), or that replace or remove one of those.
   */
  statuses?: Partial<Record<number, StatusAnswer>>;
  /**
   * The documented path, when the router serves the operation on several literal paths (one
   * per value of a documented path parameter): `/editor/v1/messages/{lang}.json`.
   */
  path?: string;
  /**
   * The request body as documented, when the validator checks only its envelope and a service
   * checks the rest (with its own error wording): documentation only, never run.
   */
  documentedBody?: Joi.Schema;
  /**
   * Path or query parameters as documented, when the handler (not a validator) reads them and
   * answers what is unknown with its own status (a public file's 404): documentation only.
   */
  documentedParams?: Joi.Schema;
  documentedQuery?: Joi.Schema;
  messages?: MessageOverrides;
}

/** validate() of a route's input, carrying the route's declared shapes for the generator. */
export type Guard<P, Q, B> = Middleware<AppState & Validated<P, Q, B>, AppContext> & {
  readonly openapi: RouteShapes<P, Q, B>;
};

/**
 * The route's validation middleware and its OpenAPI shapes in one declaration (like logto's
 * koaGuard): the input is checked by validate() exactly as before (same schemas, same error
 * wording, nothing more per request), the response schemas are not checked at runtime. A
 * routes module exports its guards so that the generator finds them; a route with no input
 * passes straight through.
 */
export function guard<P = unknown, Q = unknown, B = unknown>(
  shapes: RouteShapes<P, Q, B> & Typed<P, Q, B>,
): Guard<P, Q, B> {
  const hasInput = !!(shapes.params || shapes.query || shapes.body);
  const middleware: Middleware<AppState & Validated<P, Q, B>, AppContext> = hasInput
    ? validate<P, Q, B>(shapes, { messages: shapes.messages })
    : (_ctx, next) => next();
  return Object.assign(middleware, { openapi: shapes });
}

/**
 * A list-valued query parameter (`include`, `lang`): the document's comma-separated form
 * (`?include=a,b`, `style: form, explode: false`), the repeated form most generated clients send
 * by default (`?include=a&include=b`), or both mixed (`?include=a,b&include=c`), all read as one
 * list: the values split at commas, trimmed, empty ones dropped, each once, in order. An empty
 * parameter (`?lang=`) is an empty list. Anything but strings, or more than `maxLength`
 * characters in all, is a 422 of the parameter. The values themselves are checked by the
 * service, which words what is unknown or unavailable.
 */
export function queryList(maxLength = 200): Joi.ArraySchema<string[]> {
  return Joi.array<string[]>()
    .items(Joi.string().allow(''))
    .single()
    .custom((parts: string[], helpers) => {
      if (parts.reduce((sum, part) => sum + part.length + 1, -1) > maxLength)
        return helpers.error('string.max', { limit: maxLength });
      const values = parts.flatMap((part) => part.split(',')).map((v) => v.trim());
      return [...new Set(values.filter((v) => v !== ''))];
    });
}

/** A response body's joi object for guard()'s `response`: every key required unless `.optional()`. */
export function responseObject(keys: Joi.PartialSchemaMap): Joi.ObjectSchema {
  return Joi.object(keys).prefs({ presence: 'required' });
}

/** A component written by hand in docs/openapi.base.yaml, for response schemas (a `$ref`). */
export function baseComponent(name: string): Joi.LinkSchema {
  return Joi.link(`#${name}`);
}
