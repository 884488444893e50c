import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import Router from '@koa/router';
import type { Guard } from './middleware/validate';
import type { AppContext, AppRouter, AppState } from './types';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** A public, immutable-per-deployment file (a script bundle, a stylesheet) served to any page. */
export interface PublicAsset {
  /** The URL path, e.g. `/editor/v1/ccs-editor.js`. */
  path: string;
  /**
   * The content-addressed URL of the same bytes, `:hash` standing for the content hash (e.g.
   * `/editor/v1/ccs-editor.:hash.js`): cached by browsers for a year as immutable.
   */
  hashedPath?: string;
  contentType: string;
  /** The route declarations (guard()) of `path` and `hashedPath`: their operations in docs/openapi.yaml. */
  guard?: Guard<unknown, unknown, unknown>;
  hashedGuard?: Guard<unknown, unknown, unknown>;
  /** Reads the bytes; called once, on the first request (a failed read is tried again). */
  load: () => Promise<Buffer>;
}

/** One encoding of the asset: its bytes and its own ETag (a strong ETag names one representation). */
interface Representation {
  body: Buffer;
  etag: string;
}

interface Loaded {
  hash: string;
  identity: Representation;
  br: Representation;
  gzip: Representation;
}

/** The first 16 characters of the content's SHA-256 (base64url): the `?v=` of a versioned URL. */
export function contentHash(body: Buffer | string): string {
  return createHash('sha256').update(body).digest('base64url').slice(0, 16);
}

/** The bytes in every encoding served, compressed once per process (at the strongest levels). */
async function prepare(body: Buffer): Promise<Loaded> {
  const hash = contentHash(body);
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
        [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
        [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
      },
    }),
    gzipAsync(body, { level: zlib.Z_BEST_COMPRESSION }),
  ]);
  return {
    hash,
    identity: { body, etag: `"${hash}"` },
    br: { body: br, etag: `"${hash}-br"` },
    gzip: { body: gz, etag: `"${hash}-gz"` },
  };
}

const passThrough = (_ctx: AppContext, next: () => Promise<unknown>) => next();

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, max-age=300, must-revalidate';

/**
 * Serves public assets to pages on any origin. They hold no secrets, and a module script or
 * a stylesheet loaded from another origin is fetched in CORS mode, so every answer allows any
 * origin (`*`, without credentials) and `Cross-Origin-Resource-Policy: cross-origin`.
 *
 * Encoding: brotli or gzip as the client's Accept-Encoding prefers (compressed once per
 * process, on the first request), else the plain bytes; always `Vary: Accept-Encoding`, and
 * each encoding has its own ETag.
 *
 * Caching: the plain URL is revalidated cheaply (ETag, 5 minutes) and names the
 * content-addressed one in a `Link: <…>; rel="canonical"` header; a URL carrying the current
 * content hash — `hashedPath`, or `?v=` on the plain path (see {@link contentHash}) — is cached
 * for a year as immutable, since a new deployment with other bytes has another hash. A hashed
 * URL of an earlier deployment still answers (the current bytes, revalidated as the plain
 * URL), so a page cached across a deployment does not lose its editor.
 */
export function publicAssetsRouter(assets: readonly PublicAsset[]): AppRouter {
  const router = new Router<AppState, AppContext>();
  for (const asset of assets) {
    let loading: Promise<Loaded> | undefined;
    const load = (): Promise<Loaded> =>
      (loading ??= asset
        .load()
        .then(prepare)
        .catch((err: unknown) => {
          loading = undefined;
          throw err;
        }));
    const hashedUrl = (hash: string) => asset.hashedPath?.replace(':hash', hash);

    const serve = async (ctx: AppContext, requestedHash: string | undefined, stable: boolean) => {
      const loaded = await load();
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Cache-Control', requestedHash === loaded.hash ? IMMUTABLE : REVALIDATE);
      if (stable && asset.hashedPath) ctx.set('Link', `<${hashedUrl(loaded.hash)}>; rel="canonical"`);
      ctx.vary('Accept-Encoding');
      // Brotli first whenever the client takes it (browsers list it last, at the same q as gzip).
      const encoding = ctx.acceptsEncodings('br') ? 'br' : ctx.acceptsEncodings('gzip') ? 'gzip' : 'identity';
      const chosen = encoding === 'br' ? loaded.br : encoding === 'gzip' ? loaded.gzip : loaded.identity;
      ctx.set('ETag', chosen.etag);
      ctx.status = 200;
      // Every encoding holds the same content: a copy cached from any of them is current.
      const held = (ctx.get('If-None-Match') || '').split(',').map((tag) => tag.trim().replace(/^W\//, ''));
      if (
        held.some(
          (tag) => tag === '*' || [loaded.identity, loaded.br, loaded.gzip].some((r) => r.etag === tag),
        )
      ) {
        ctx.status = 304;
        return;
      }
      ctx.type = asset.contentType;
      if (chosen !== loaded.identity) ctx.set('Content-Encoding', encoding);
      ctx.body = chosen.body;
    };

    router.get(asset.path, asset.guard ?? passThrough, (ctx) =>
      serve(ctx, typeof ctx.query.v === 'string' ? ctx.query.v : undefined, true),
    );
    if (asset.hashedPath) {
      router.get(asset.hashedPath, asset.hashedGuard ?? passThrough, (ctx) =>
        serve(ctx, String(ctx.params.hash), false),
      );
    }
  }
  return router;
}
