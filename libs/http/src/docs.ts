import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import Router from '@koa/router';
import { parse, stringify } from 'yaml';
import { isObject, serviceDocument } from './docs-document';
import { NotFoundError } from './errors';
import { docsSecurityHeaders } from './middleware/security';
import { guard } from './middleware/validate';
import type { AppContext, AppRouter, AppState } from './types';

/** docs/openapi.yaml of the repository, from libs/http/src (jest) and libs/http/dist (compiled) alike. */
const OPENAPI_PATH = resolve(__dirname, '../../../docs/openapi.yaml');

/**
 * The only files of swagger-ui-dist that are served: a fixed map from URL name to file, so
 * no request path ever reaches the file system.
 */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

export interface DocsRouterOptions {
  /**
   * Path prefixes of the operations this service serves (`/api/v3/`): the document served is
   * restricted to them and to the probes, metrics and /docs that every service has.
   */
  operations: readonly string[];
  /** Title of the HTML page (default: the document's info.title). */
  title?: string;
  /** The OpenAPI document to serve (default: the repository's docs/openapi.yaml). */
  documentPath?: string;
}

interface LoadedDocument {
  yaml: string;
  yamlEtag: string;
  json: string;
  jsonEtag: string;
  title: string;
}

function etagOf(text: string): string {
  return `"${createHash('sha256').update(text).digest('base64url').slice(0, 32)}"`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(title)}</title>
    <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
    <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/docs/assets/init.js"></script>
  </body>
</html>
`;
}

/** Starts Swagger UI; a file of its own, because the page's CSP allows no inline script. */
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: '/docs/openapi.yaml',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: false,
});
`;

/** The declarations of the page's and the document's routes (the assets are not operations). */
export const docsPage = guard({ operationId: 'docsPage', statuses: { 200: true } });
export const docsOpenApiYaml = guard({ operationId: 'docsOpenApiYaml', statuses: { 200: true, 304: true } });
export const docsOpenApiJson = guard({ operationId: 'docsOpenApiJson', statuses: { 200: true, 304: true } });

/**
 * The API reference of one service, without authentication: `GET /docs` (Swagger UI),
 * `GET /docs/openapi.yaml`, `GET /docs/openapi.json` (its own operations only, see
 * docs-document.ts) and the few Swagger UI assets under `/docs/assets/`. The document is
 * read once, on the first request, and served with `Cache-Control: no-cache` and an ETag, so
 * clients revalidate cheaply after a deployment.
 */
export function docsRouter(opts: DocsRouterOptions): AppRouter {
  const documentPath = opts.documentPath ?? OPENAPI_PATH;
  const assetsDir = dirname(require.resolve('swagger-ui-dist/package.json'));
  let loading: Promise<LoadedDocument> | undefined;

  const load = (): Promise<LoadedDocument> =>
    (loading ??= readFile(documentPath, 'utf8')
      .then((full) => {
        const doc = serviceDocument(parse(full) as Parameters<typeof serviceDocument>[0], opts.operations);
        const yaml = stringify(doc, { lineWidth: 0 });
        const json = JSON.stringify(doc);
        const info = doc.info;
        const title = isObject(info) && typeof info.title === 'string' ? info.title : 'API reference';
        return { yaml, yamlEtag: etagOf(yaml), json, jsonEtag: etagOf(json), title };
      })
      .catch((err: unknown) => {
        // A failed read is not cached: the next request tries again.
        loading = undefined;
        throw err;
      }));

  const sendDocument = (ctx: AppContext, type: string, body: string, etag: string): void => {
    ctx.status = 200;
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('ETag', etag);
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.set('Content-Type', type);
    ctx.body = body;
  };

  const router = new Router<AppState, AppContext>();
  const secured = docsSecurityHeaders();
  router.get('/docs', docsPage, secured, async (ctx) => {
    const doc = await load();
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page(opts.title ?? doc.title);
  });
  router.get('/docs/openapi.yaml', docsOpenApiYaml, secured, async (ctx) => {
    const doc = await load();
    sendDocument(ctx, 'application/yaml; charset=utf-8', doc.yaml, doc.yamlEtag);
  });
  router.get('/docs/openapi.json', docsOpenApiJson, secured, async (ctx) => {
    const doc = await load();
    sendDocument(ctx, 'application/json; charset=utf-8', doc.json, doc.jsonEtag);
  });
  router.get('/docs/assets/init.js', secured, (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.body = INIT_SCRIPT;
  });
  router.get('/docs/assets/:file', secured, (ctx) => {
    const file = ctx.params.file ?? '';
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (!type) throw new NotFoundError();
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.type = type;
    ctx.body = createReadStream(join(assetsDir, file));
  });
  return router;
}
