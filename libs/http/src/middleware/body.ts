import type { Middleware } from 'koa';
import bodyParser from 'koa-bodyparser';
import { BadRequestError, HttpError } from '../errors';
import type { AppContext, AppState } from '../types';

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
  const status = (err as { status?: unknown }).status;
  const message = String((err as { message?: unknown }).message ?? '');
  if (status === 415 && message.startsWith('Unsupported Content-Encoding')) {
    return new HttpError(415, { error: 'Unsupported Content-Encoding: send identity, gzip, deflate or br' });
  }
  if (status === undefined && DECODED_ENCODINGS.has(encoding)) {
    return new BadRequestError(`The request body is not valid ${encoding} data`);
  }
  if (status === 400 && message.includes('forbidden prototype property')) {
    return new BadRequestError('JSON keys named __proto__ are not accepted');
  }
  return undefined;
}

/**
 * Parses JSON (objects and arrays only) and text/CSV bodies up to `limit` (after decompression).
 * Routers install it after their auth middleware, so an unauthenticated request gets its 401
 * whatever its body and the server never reads a large body for a caller it does not know.
 * A JSON body nested deeper than MAX_JSON_DEPTH is refused here, before any route walks it.
 */
export function parseBody(limit: string): Middleware<AppState, AppContext> {
  const parse = bodyParser({
    enableTypes: ['json', 'text'],
    jsonLimit: limit,
    textLimit: limit,
    extendTypes: { text: ['text/csv'] },
    strict: true,
  }) as unknown as Middleware<AppState, AppContext>;
  return async (ctx, next) => {
    let parsed = false;
    try {
      await parse(ctx, async () => {
        parsed = true;
      });
    } catch (err) {
      throw clientErrorOf(err, ctx.get('Content-Encoding').trim().toLowerCase()) ?? err;
    }
    if (!parsed) return;
    const body = (ctx.request as { body?: unknown }).body;
    if (typeof body === 'object' && nestedDeeperThan(body, MAX_JSON_DEPTH)) {
      throw new BadRequestError(`The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep`);
    }
    await next();
  };
}
