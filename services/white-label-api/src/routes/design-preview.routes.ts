import { contentHash, guard, Router, type AppContext, type AppState } from '@catalogue/http';
import Joi from 'joi';
import type { Deps } from '../deps';
import { designPreviewFile } from '../services/designs.service';

/** Where the page's content stylesheet is served (by this API). */
const CONTENT_CSS = '/content/v1/ccs-content.css';

export const getDesignPreviewFile = guard({
  operationId: 'getDesignPreviewFile',
  documentedParams: Joi.object({
    design_id: Joi.number().integer().min(1).required(),
    file: Joi.string()
      .pattern(/^[0-9a-f]{64}\.(svg|html)$/)
      .required(),
  }),
  statuses: { 200: true, 304: true, 404: true },
});

/**
 * A design's thumbnail and preview page (designPreviewFile), public so an `<img>` and a new tab
 * can open them. Cacheable: ETag of the bytes, a day of freshness.
 * The page runs no script (CSP `default-src 'none'`, the stylesheet and images allowed).
 */
export function designPreviewRoutes(deps: Pick<Deps, 'db'>) {
  const router = new Router<AppState, AppContext>();
  router.get('/design-preview/v1/:design_id/:file', getDesignPreviewFile, async (ctx) => {
    const { kind, body } = await designPreviewFile(
      deps.db,
      ctx.params.design_id ?? '',
      ctx.params.file ?? '',
      CONTENT_CSS,
    );
    const svg = kind === 'svg';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set(
      'Content-Security-Policy',
      svg
        ? "default-src 'none'; style-src 'unsafe-inline'"
        : "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src https: data:; frame-src https://www.youtube-nocookie.com https://player.vimeo.com",
    );
    ctx.etag = contentHash(body);
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.type = svg ? 'image/svg+xml' : 'text/html; charset=utf-8';
    ctx.body = body;
  });
  return router;
}
