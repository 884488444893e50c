import { designPreviewPage, designThumbnailSvg } from '@catalogue/content';
import { designsRepository } from '@catalogue/db';
import { contentHash, NotFoundError, Router, type AppContext, type AppState } from '@catalogue/http';
import type { Deps } from '../deps';

const FILE = /^([0-9a-f]{64})\.(svg|html)$/;
const ID = /^[1-9][0-9]{0,9}$/;
/** Where the page's content stylesheet is served (by this API). */
const CONTENT_CSS = '/content/v1/ccs-content.css';

/**
 * A design's thumbnail (SVG drawn from its widget layout) and its preview page (the design
 * filled with sample content), public so an `<img>` and a new tab can open them: the structure
 * hash in the path stands in for the token. Cacheable: ETag of the bytes, a day of freshness.
 * The page runs no script (CSP `default-src 'none'`, the stylesheet and images allowed).
 */
export function designPreviewRoutes(deps: Pick<Deps, 'db'>) {
  const router = new Router<AppState, AppContext>();
  router.get('/design-preview/v1/:design_id/:file', async (ctx) => {
    const file = FILE.exec(ctx.params.file ?? '');
    const id = ctx.params.design_id ?? '';
    if (!file || !ID.test(id)) throw new NotFoundError('Not found');
    const found = await designsRepository.findForPreview(deps.db, Number(id), file[1]!);
    if (!found) throw new NotFoundError('Not found');
    const { design, widgetTypes } = found;
    const svg = file[2] === 'svg';
    const body = svg
      ? designThumbnailSvg(design.name, widgetTypes)
      : designPreviewPage(design.name, design.previewHtml, CONTENT_CSS);
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
