import { readFile } from 'node:fs/promises';
import { CONTENT_LANGUAGES } from '@catalogue/config';
import { normaliseOrigin, originsRepository } from '@catalogue/db';
import {
  guard,
  limitByAddress,
  publicAssetsRouter,
  Router,
  type AppContext,
  type AppState,
} from '@catalogue/http';
import Joi from 'joi';
import type { Deps } from '../deps';

export const getEditorBundle = guard({
  operationId: 'getEditorBundle',
  documentedQuery: Joi.object({ v: Joi.string() }),
  statuses: { 200: true, 304: true },
});
export const getEditorBundleByHash = guard({
  operationId: 'getEditorBundleByHash',
  documentedParams: Joi.object({ hash: Joi.string() }),
  statuses: { 200: true, 304: true },
});

/**
 * The editor's bundle (`npm run build` writes it with esbuild), served to host pages on any
 * origin: `<script type="module" src="…/editor/v1/ccs-editor.js">`. The path's `v1` is the
 * element's public API version. Brotli or gzip (compressed once per process); the stable URL
 * is revalidated by ETag and names the content-addressed one (`Link: rel="canonical"`),
 * `/editor/v1/ccs-editor.<content hash>.js`, cached for a year as immutable.
 */
export function editorAssetsRouter() {
  return publicAssetsRouter([
    {
      path: '/editor/v1/ccs-editor.js',
      hashedPath: '/editor/v1/ccs-editor.:hash.js',
      contentType: 'text/javascript; charset=utf-8',
      guard: getEditorBundle,
      hashedGuard: getEditorBundleByHash,
      load: () => readFile(require.resolve('@catalogue/editor/dist/ccs-editor.js')),
    },
    // <ccs-batch-progress>, a bulk generation's progress, in a module of its own (libs/editor).
    {
      path: '/editor/v1/ccs-batch-progress.js',
      hashedPath: '/editor/v1/ccs-batch-progress.:hash.js',
      contentType: 'text/javascript; charset=utf-8',
      load: () => readFile(require.resolve('@catalogue/editor/dist/ccs-batch-progress.js')),
    },
    // The texts of the UI languages the editor reads when it speaks one (every content language
    // but the built-in English and Czech), written beside the bundle by the same build.
    ...EDITOR_FETCHED_LANGUAGES.map((lang) => ({
      path: `/editor/v1/messages/${lang}.json`,
      contentType: 'application/json; charset=utf-8',
      guard: getEditorMessages,
      load: () => readFile(require.resolve(`@catalogue/editor/dist/messages/${lang}.json`)),
    })),
  ]);
}

/** The content languages whose editor texts are served (the bundle has English and Czech). */
export const EDITOR_FETCHED_LANGUAGES = CONTENT_LANGUAGES.filter(
  (lang) => lang !== 'default' && lang !== 'en' && lang !== 'cs',
);

/** One route per language, one operation: `{lang}` is any of EDITOR_FETCHED_LANGUAGES (another is a 404). */
export const getEditorMessages = guard({
  operationId: 'getEditorMessages',
  path: '/editor/v1/messages/{lang}.json',
  documentedParams: Joi.object({ lang: Joi.string().valid(...EDITOR_FETCHED_LANGUAGES) }),
  statuses: { 200: true, 304: true, 404: true },
});

export const getEditorOrigin = guard({
  operationId: 'getEditorOrigin',
  statuses: { 200: true, 429: 'TooManyRequests' },
});

/**
 * `GET /editor/v1/origin`: whether some eshop allows the calling page's Origin. The API's own
 * answers to an origin no eshop allows carry no CORS header (its preflight is refused), so a
 * page sees them only as a network failure; this one is readable by any page (`*`, a simple
 * request without token or preflight), so the editor can tell "this page's origin is not
 * allowed" from "the service cannot be reached". It tells nothing a preflight does not: the
 * same question, answered for the Origin the request carries, with no eshop named.
 */
export function editorOriginRouter(deps: Pick<Deps, 'db' | 'rateLimits'>) {
  const router = new Router<AppState, AppContext>();
  router.get('/editor/v1/origin', getEditorOrigin, limitByAddress(deps.rateLimits), async (ctx) => {
    const origin = normaliseOrigin(ctx.get('Origin'));
    const allowed = origin ? await originsRepository.isAllowedByAny(deps.db, origin) : false;
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { origin: origin ?? null, allowed };
  });
  return router;
}
