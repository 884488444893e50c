import type { Middleware } from 'koa';
import bodyParser from 'koa-bodyparser';
import { UnsupportedMediaTypeError } from '../errors';
import type { AppContext, AppState } from '../types';

/** Body formats a router accepts. */
export type BodyType = 'json' | 'csv';

const MEDIA_TYPES: Record<BodyType, string> = { json: 'application/json', csv: 'text/csv' };

/**
 * Parses JSON (objects and arrays only) and, where allowed, CSV bodies up to `limit`. Routers
 * install it after their auth middleware, so an unauthenticated request gets its 401 whatever
 * its body and the server never reads a large body for a caller it does not know.
 * A body of another type (a form from `curl -d`, text/plain) is refused with 415 before it is
 * read: left unparsed it would reach the validators as "missing fields", a misleading 422.
 */
export function parseBody(limit: string, types: BodyType[] = ['json']): Middleware<AppState, AppContext> {
  const accepted = types.map((t) => MEDIA_TYPES[t]);
  const parser = bodyParser({
    enableTypes: types.includes('csv') ? ['json', 'text'] : ['json'],
    jsonLimit: limit,
    textLimit: limit,
    extendTypes: { text: ['text/csv'] },
    strict: true,
  }) as unknown as Middleware<AppState, AppContext>;
  return async (ctx, next) => {
    // An empty body (GET, a POST with `Content-Length: 0` such as check-license) has no type to
    // check; type-is counts a zero length as a body.
    const hasBody = ctx.get('Transfer-Encoding') !== '' || (ctx.request.length ?? 0) > 0;
    if (hasBody && !ctx.is(accepted)) {
      throw new UnsupportedMediaTypeError(`Send the body as ${accepted.join(' or ')}.`);
    }
    return parser(ctx, next);
  };
}
