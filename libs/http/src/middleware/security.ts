import helmet from 'koa-helmet';
import type { Middleware } from 'koa';
import type { AppContext, AppState } from '../types';

/**
 * Security headers of every response (helmet): `X-Content-Type-Options: nosniff`,
 * `Referrer-Policy: no-referrer`, HSTS, and a Content-Security-Policy for what the APIs serve —
 * JSON, which needs no script, style or frame: `default-src 'none'; frame-ancestors 'none'`.
 * Routes serving pages or assets replace the policy (`docsSecurityHeaders`, `embeddableBy`).
 */
export function securityHeaders(): Middleware<AppState, AppContext> {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    // The white-label API is called cross-origin (with CORS) by the hosts' admin pages and
    // serves the editor's assets to them: the default `same-origin` would block the assets.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  }) as Middleware<AppState, AppContext>;
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
  }) as Middleware<AppState, AppContext>;
  return (ctx, next) => {
    ctx.set('X-Frame-Options', 'SAMEORIGIN');
    return policy(ctx, next);
  };
}

/** An origin as a CSP source: scheme, host and optional port, nothing that could end the directive. */
const ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/;

/**
 * For pages and assets that hosts embed (the editor's `/editor/v1/*` and `/content/v1/*`):
 * a policy allowing the given origins (for example the eshop's allowed origins) to frame them,
 * `self` for scripts, styles, images and API calls, and no X-Frame-Options (which knows no
 * list of origins and would override nothing but confuse). Origins that are not plain
 * `scheme://host[:port]` values are left out.
 */
export function embeddableBy(
  origins: (ctx: AppContext) => readonly string[] | Promise<readonly string[]>,
): Middleware<AppState, AppContext> {
  return async (ctx, next) => {
    const allowed = (await origins(ctx)).filter((origin) => ORIGIN.test(origin));
    const ancestors = allowed.length ? allowed.join(' ') : "'none'";
    ctx.remove('X-Frame-Options');
    ctx.set(
      'Content-Security-Policy',
      `default-src 'self'; img-src 'self' data: https:; style-src 'self' 'unsafe-inline'; ` +
        `object-src 'none'; base-uri 'none'; frame-ancestors ${ancestors}`,
    );
    await next();
  };
}
