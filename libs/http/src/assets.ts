import { createHash } from 'node:crypto';
import Router from '@koa/router';
import type { AppContext, AppRouter, AppState } from './types';

/** A public, immutable-per-deployment file (a script bundle, a stylesheet) served to any page. */
export interface PublicAsset {
  /** The URL path, e.g. `/editor/v1/ccs-editor.js`. */
  path: string;
  contentType: string;
  /** Reads the bytes; called once, on the first request (a failed read is tried again). */
  load: () => Promise<Buffer>;
}

interface Loaded {
  body: Buffer;
  etag: string;
  hash: string;
}

/** The first 16 characters of the content's SHA-256 (base64url): the `?v=` of a versioned URL. */
export function contentHash(body: Buffer | string): string {
  return createHash('sha256').update(body).digest('base64url').slice(0, 16);
}

/**
 * Serves public assets to pages on any origin. They hold no secrets, and a module script or
 * a stylesheet loaded from another origin is fetched in CORS mode, so every answer allows any
 * origin (`*`, without credentials) and `Cross-Origin-Resource-Policy: cross-origin`.
 *
 * Caching: the plain URL is revalidated cheaply (ETag, 5 minutes); a URL carrying the current
 * content hash as `?v=` (see {@link contentHash}) is cached for a year as immutable, since a
 * new deployment with other bytes has another hash.
 */
export function publicAssetsRouter(assets: readonly PublicAsset[]): AppRouter {
  const router = new Router<AppState, AppContext>();
  for (const asset of assets) {
    let loading: Promise<Loaded> | undefined;
    const load = (): Promise<Loaded> =>
      (loading ??= asset
        .load()
        .then((body) => {
          const hash = contentHash(body);
          return { body, hash, etag: `"${hash}"` };
        })
        .catch((err: unknown) => {
          loading = undefined;
          throw err;
        }));

    router.get(asset.path, async (ctx) => {
      const { body, etag, hash } = await load();
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set(
        'Cache-Control',
        ctx.query.v === hash ? 'public, max-age=31536000, immutable' : 'public, max-age=300, must-revalidate',
      );
      ctx.set('ETag', etag);
      ctx.status = 200;
      if (ctx.fresh) {
        ctx.status = 304;
        return;
      }
      ctx.type = asset.contentType;
      ctx.body = body;
    });
  }
  return router;
}
