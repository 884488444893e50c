import type { paths } from '@catalogue/client';
import { checkedFetch } from './openapi';

/**
 * The one request function of the tests: `contractCaller(...)` gives a `call(method, path, body?,
 * opts?)` that sends JSON, reads the answer, checks every answer (any status) against
 * docs/openapi.yaml and returns `{ status, body, headers }`, with `body` typed from the contract.
 *
 * How the body is typed: the concrete path (`/content/${id}/type/product?lang=cs`, ids filled
 * in, a query allowed) is matched segment by segment against the document's path templates
 * (`/content/{entity_id}/type/{entity_type}`), and the method picks the operation. The body is
 * the operation's success (2xx) body, with the fields of its error bodies (`error`, `code`,
 * `errors`, …) added as optional ones: a test asserts the status and then reads either the
 * success fields or the error fields, and the check against the document has already refused any
 * body that is not one of the documented ones for its status. A success field is not made
 * optional, so tests read success answers without narrowing; an error answer's success fields
 * are absent, whatever the type says, which the status assertion before them covers. A path
 * whose shape the types cannot see (built from a plain `string`) or that the document does not
 * have gives `unknown`, for the test to narrow.
 */

type Paths = paths;

/** The request methods of the document, as tests write them. */
export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

type WithoutQuery<P extends string> = P extends `${infer Path}?${string}` ? Path : P;
type Segments<P extends string> = P extends `${infer Head}/${infer Rest}` ? [Head, ...Segments<Rest>] : [P];
/** A template segment as a pattern: `{id}` is any text, `ccs-editor.{hash}.js` keeps its literal parts. */
type SegmentPattern<S extends string> = S extends `${infer Before}{${string}}${infer After}`
  ? `${Before}${string}${SegmentPattern<After>}`
  : S;
type SegmentsMatch<Concrete extends string[], Template extends string[]> = Concrete extends [
  infer C extends string,
  ...infer CRest extends string[],
]
  ? Template extends [infer T extends string, ...infer TRest extends string[]]
    ? C extends SegmentPattern<T>
      ? SegmentsMatch<CRest, TRest>
      : false
    : false
  : Template extends []
    ? true
    : false;

/** The document's path template a concrete path is a request of (never when none is). */
export type PathTemplate<P extends string> = {
  [T in keyof Paths & string]: SegmentsMatch<Segments<WithoutQuery<P>>, Segments<T>> extends true ? T : never;
}[keyof Paths & string];

type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 205 | 206 | 207 | 208 | 226 | '2XX';

/** The body of one documented response: JSON media types parsed, others text, none undefined. */
type ResponseBody<R> = R extends { content: infer Content }
  ? Content extends Record<string, unknown>
    ? { [K in keyof Content]: K extends `${string}json` ? Content[K] : string }[keyof Content]
    : undefined
  : undefined;

type Responses<Op> = Op extends { responses: infer R } ? R : never;
type SuccessBody<Op> = {
  [S in keyof Responses<Op>]: S extends SuccessStatus ? ResponseBody<Responses<Op>[S]> : never;
}[keyof Responses<Op>];
type ErrorBody<Op> = {
  [S in keyof Responses<Op>]: S extends SuccessStatus ? never : ResponseBody<Responses<Op>[S]>;
}[keyof Responses<Op>];

type KeysOf<U> = U extends object ? keyof U : never;
type FieldOf<U, K extends PropertyKey> = U extends object ? (K extends keyof U ? U[K] : never) : never;
/** The fields of the error bodies a success body lacks, each optional. */
type ErrorFields<E, Success> = { [K in Exclude<KeysOf<E>, KeysOf<Success>>]?: FieldOf<E, K> };

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
  ? I
  : never;
type IsUnion<U> = [U] extends [UnionToIntersection<U>] ? false : true;
type IsRecord<U> = U extends readonly unknown[] ? false : U extends object ? true : false;
/**
 * Several success bodies of objects (a dry run's and a real run's) as one object: the fields
 * all of them have, and the others optional, so tests read either without narrowing first.
 */
type MergedSuccess<S> =
  IsUnion<S> extends true
    ? false extends IsRecord<S>
      ? S
      : { [K in Extract<keyof S, PropertyKey>]: FieldOf<S, K> } & {
          [K in Exclude<KeysOf<S>, keyof S>]?: FieldOf<S, K>;
        }
    : S;

/** The success body with the operation's error fields added as optional (see the module comment). */
type AnswerBody<Op> = [SuccessBody<Op>] extends [never]
  ? ErrorBody<Op>
  : IsUnion<SuccessBody<Op>> extends true
    ? [SuccessBody<Op>] extends [object]
      ? MergedSuccess<SuccessBody<Op>> & ErrorFields<ErrorBody<Op>, SuccessBody<Op>>
      : SuccessBody<Op>
    : SuccessBody<Op> extends object
      ? SuccessBody<Op> & ErrorFields<ErrorBody<Op>, SuccessBody<Op>>
      : SuccessBody<Op>;

type Operation<M extends string, T> = T extends keyof Paths
  ? Lowercase<M> extends keyof Paths[T]
    ? NonNullable<Paths[T][Lowercase<M>]>
    : never
  : never;

type BodyOfPath<M extends string, P extends string> =
  Uppercase<M> extends 'HEAD'
    ? undefined
    : [PathTemplate<P>] extends [never]
      ? unknown
      : [Operation<M, PathTemplate<P>>] extends [never]
        ? unknown
        : AnswerBody<Operation<M, PathTemplate<P>>>;

/**
 * The type of a call's answer body: `method` on the concrete `path`, or unknown when the types
 * cannot tell. A union of paths (`/api/v2/rest/${'products' | 'brands'}`) gives the union of their bodies.
 */
export type BodyOf<M extends string, P extends string> = P extends unknown ? BodyOfPath<M, P> : never;

/** One answer: the status, the body (parsed JSON, text of other media types, undefined when empty), the headers. */
export interface Answer<B = unknown> {
  status: number;
  body: B;
  headers: Headers;
}

/** Options of every call: request headers over the caller's (`null` leaves one of them out). */
export interface CallOptions {
  headers?: Record<string, string | null>;
}

export interface CallerConfig<Prefix extends string, Options> {
  /** The service's URL, or a function giving it (read at each call: test servers start in beforeAll). */
  baseUrl: string | (() => string);
  /** What every path is under, e.g. `/api/v3/white-label`; part of the path the types match. */
  prefix?: Prefix;
  /** The request headers of a call from its options (the caller's own options, e.g. a token). */
  headers?: (opts: (Options & CallOptions) | undefined) => Record<string, string | null | undefined>;
}

/** A caller's call; `body` is sent as JSON (a string as it is), `undefined` sends none. */
export type Call<Prefix extends string = '', Options = object> = <M extends Method, P extends string>(
  method: M,
  path: P,
  body?: unknown,
  opts?: Options & CallOptions,
) => Promise<Answer<BodyOf<M, `${Prefix}${P}`>>>;

/**
 * A `call` of the service at `config.baseUrl`: every path under `config.prefix`, the headers of
 * `config.headers(opts)` and then `opts.headers`, `Accept: application/json`, and
 * `Content-Type: application/json` when there is a body (either can be replaced in `opts.headers`).
 */
export function contractCaller<Prefix extends string = '', Options = object>(
  config: CallerConfig<Prefix, Options>,
): Call<Prefix, Options> {
  return async (method, path, body, opts) => {
    const given = {
      Accept: 'application/json',
      ...(body !== undefined && { 'Content-Type': 'application/json' }),
      ...config.headers?.(opts),
      ...opts?.headers,
    };
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(given)) if (typeof value === 'string') headers[name] = value;
    const baseUrl = typeof config.baseUrl === 'function' ? config.baseUrl() : config.baseUrl;
    // checkedFetch validates the answer against the document's responses of this operation.
    const {
      status,
      body: answer,
      headers: answerHeaders,
    } = await checkedFetch<BodyOf<typeof method, `${Prefix}${typeof path}`>>(
      `${baseUrl}${config.prefix ?? ''}${path}`,
      {
        method,
        headers,
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      },
    );
    return { status, body: answer, headers: answerHeaders };
  };
}

/** Calls with `Authorization: Bearer <token>`, as an eshop's back office calls the catalogue API. */
export function bearerCaller(baseUrl: string | (() => string), token: string): Call {
  return contractCaller({ baseUrl, headers: () => ({ Authorization: `Bearer ${token}` }) });
}
