import helmet from 'koa-helmet';
import type { Middleware } from 'koa';
import type { AppContext, AppState } from '../types';

/**
 * Security headers of every response (helmet): `X-Content-Type-Options: nosniff`,
 * `Referrer-Policy: no-referrer`, HSTS, and a Content-Security-Policy for what the APIs serve —
 * JSON, which needs no script, style or frame: `default-src 'none'; frame-ancestors 'none'`.
 * Routes serving pages or assets replace the policy (`docsSecurityHeaders`, the design previews).
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
