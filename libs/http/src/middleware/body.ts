import type { Middleware } from 'koa';
import bodyParser from 'koa-bodyparser';
import { BadRequestError, HttpError, UnsupportedMediaTypeError } from '../errors';
import { isObject, messageOf } from '../objects';
import type { AppContext, AppState } from '../types';

/** Body formats a router accepts. */
export type BodyType = 'json' | 'csv';

const MEDIA_TYPES: Record<BodyType, string> = { json: 'application/json', csv: 'text/csv' };

/**
 * Deepest nesting of arrays and objects a JSON body may have. The deepest body the APIs define
 * (a multi-import item's language map, a fill-design widget's items) is 5 levels; past this,
 * code that walks a body recursively (Joi, the text checks, JSON.stringify into JSONB,
 * PostgreSQL's own JSON parser) would run out of stack on a body of a few kilobytes.
 */
export const MAX_JSON_DEPTH = 64;

const DECODED_ENCODINGS = new Set(['gzip', 'deflate', 'br']);

/** True when `value` nests arrays/objects more than `max` levels deep (iterative: no recursion). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * The parser's failures as the client's errors: a compressed body that does not decompress is
 * a 400 (zlib's errors carry no status and were 500s), an unknown Content-Encoding a 415 that
 * names the accepted ones, and a `__proto__` key (refused by the parser against prototype
 * poisoning) a 400 that says so instead of "malformed JSON".
 */
function clientErrorOf(err: unknown, encoding: string): HttpError | undefined {
  const status = isObject(err) ? err.status : undefined;
  const message = String(messageOf(err) ?? '');
  if (status === 415 && message.startsWith('Unsupported Content-Encoding')) {
    return new UnsupportedMediaTypeError('Unsupported Content-Encoding: send identity, gzip, deflate or br');
  }
  if (status === undefined && DECODED_ENCODINGS.has(encoding)) {
    return new BadRequestError(`The request body is not valid ${encoding} data`, 'body_encoding_invalid');
  }
  if (status === 400 && message.includes('forbidden prototype property')) {
    return new BadRequestError('JSON keys named __proto__ are not accepted');
  }
  return undefined;
}

/**
 * Parses JSON (objects and arrays only) and, where allowed, CSV bodies up to `limit` (after
 * decompression). Routers install it after their auth middleware, so an unauthenticated request
 * gets its 401 whatever its body and the server never reads a large body for a caller it does
 * not know. A body of another type (a form from `curl -d`, text/plain) is refused with 415
 * before it is read: left unparsed it would reach the validators as "missing fields", a
 * misleading 422. A JSON body nested deeper than MAX_JSON_DEPTH is refused here, before any
 * route walks it.
 */
export function parseBody(limit: string, types: BodyType[] = ['json']): Middleware<AppState, AppContext> {
  const accepted = types.map((t) => MEDIA_TYPES[t]);
  const parse = bodyParser({
    enableTypes: types.includes('csv') ? ['json', 'text'] : ['json'],
    jsonLimit: limit,
    textLimit: limit,
    extendTypes: { text: ['text/csv'] },
    strict: true,
  });
  return async (ctx, next) => {
    // An empty body (GET, a POST with `Content-Length: 0` such as check-license) has no type to
    // check; type-is counts a zero length as a body.
    const hasBody = ctx.get('Transfer-Encoding') !== '' || (ctx.request.length ?? 0) > 0;
    if (!hasBody && !ctx.get('Content-Type')) {
      // What the parser makes of a request with neither body nor type (every GET): `{}`,
      // without its type checks and promises on the hot path.
      ctx.request.body ??= {};
      return next();
    }
    if (hasBody && !ctx.is(accepted)) {
      throw new UnsupportedMediaTypeError(`Send the body as ${accepted.join(' or ')}.`);
    }
    let parsed = false;
    try {
      await parse(ctx, async () => {
        parsed = true;
      });
    } catch (err) {
      throw clientErrorOf(err, ctx.get('Content-Encoding').trim().toLowerCase()) ?? err;
    }
    if (!parsed) return;
    // koa-bodyparser keeps the body's text beside what it parsed, and nothing here reads it: let
    // it go now rather than hold it (an import's, up to the body limit) until the answer is sent.
    Reflect.deleteProperty(ctx.request, 'rawBody');
    const body = ctx.request.body;
    if (typeof body === 'object' && nestedDeeperThan(body, MAX_JSON_DEPTH)) {
      throw new BadRequestError(
        `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep`,
        'body_too_deep',
      );
    }
    await next();
  };
}
