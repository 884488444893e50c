import helmet from 'koa-helmet';
import rawHelmet, { type HelmetOptions } from 'helmet';
import type { Middleware } from 'koa';
import type { AppContext, AppState } from '../types';

/** helmet's options for the APIs' responses (see securityHeaders). */
export const API_HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  },
  referrerPolicy: { policy: 'no-referrer' },
  xFrameOptions: { action: 'deny' },
  // The white-label API is called cross-origin (with CORS) by the hosts' admin pages and
  // serves the editor's assets to them: the default `same-origin` would block the assets.
  crossOriginResourcePolicy: { policy: 'cross-origin' },
};

/**
 * What helmet's middleware does to a response with these options, recorded once: the headers it
 * sets (in its order) and the ones it removes. With no directive given as a function (none
 * here) helmet's answer does not depend on the request, so replaying the record is helmet's
 * output without its per-request work (koa-helmet wraps helmet in a promise and helmet runs a
 * dozen middlewares, each setting one header). Throws at start-up should helmet ever call
 * anything else, or not finish synchronously.
 */
export function recordHelmet(options: HelmetOptions): {
  set: [string, string][];
  removed: string[];
} {
  const set: [string, string][] = [];
  const removed: string[] = [];
  const res = {
    setHeader: (name: string, value: string) => void set.push([name, String(value)]),
    removeHeader: (name: string) => void removed.push(name),
  };
  const req = { headers: {} };
  let done = false;
  const middleware = rawHelmet(options) as unknown as (
    req: unknown,
    res: unknown,
    next: (err?: unknown) => void,
  ) => void;
  middleware(req, res, (err) => {
    if (err) throw err;
    done = true;
  });
  if (!done) throw new Error('helmet did not answer synchronously: its headers cannot be recorded');
  return { set, removed };
}

/**
 * Security headers of every response (helmet): `X-Content-Type-Options: nosniff`,
 * `Referrer-Policy: no-referrer`, HSTS, and a Content-Security-Policy for what the APIs serve —
 * JSON, which needs no script, style or frame: `default-src 'none'; frame-ancestors 'none'`.
 * Routes serving pages or assets replace the policy (`docsSecurityHeaders`, the design previews).
 * helmet's headers are recorded at start-up and set from that record (recordHelmet).
 */
export function securityHeaders(): Middleware<AppState, AppContext> {
  const { set, removed } = recordHelmet(API_HELMET_OPTIONS);
  return (ctx, next) => {
    const res = ctx.res;
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of set) res.setHeader(name, value);
    return next();
  };
}

/** The policy of the API reference pages (Swagger UI): own scripts and styles only, not framed elsewhere. */
export function docsSecurityHeaders(): Middleware<AppState, AppContext> {
  const policy = helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // Swagger UI sets style attributes from its script.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'self'"],
    },
  });
  return (ctx, next) => {
    ctx.set('X-Frame-Options', 'SAMEORIGIN');
    return policy(ctx, next);
  };
}
