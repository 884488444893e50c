import { readFile } from 'node:fs/promises';
import { CONTENT_STYLESHEET_FILE, CONTENT_STYLESHEET_PATH } from '@catalogue/content';
import Joi from 'joi';
import { contentHash, type PublicAsset } from './assets';
import { guard } from './middleware/validate';

let reading: Promise<Buffer> | undefined;

/** The file is read once per process (it changes only with a deployment); a failed read is tried again. */
function readStylesheet(): Promise<Buffer> {
  return (reading ??= readFile(CONTENT_STYLESHEET_FILE).catch((err: unknown) => {
    reading = undefined;
    throw err;
  }));
}

/**
 * libs/content's `ccs-content.css`, the default theme of rendered content, as the public asset
 * catalogue-api and white-label-api serve at `/content/v1/ccs-content.css` (see publicAssetsRouter).
 */
export const contentStylesheet: PublicAsset = {
  path: CONTENT_STYLESHEET_PATH,
  contentType: 'text/css; charset=utf-8',
  guard: guard({
    operationId: 'contentStylesheet',
    documentedQuery: Joi.object({ v: Joi.string() }),
    statuses: { 200: true, 304: true },
  }),
  load: readStylesheet,
};

/**
 * The versioned URL of the stylesheet (`/content/v1/ccs-content.css?v=<content hash>`), cached by
 * browsers for a year: what the editor and design preview pages link. `base` is the API's public
 * origin when the page is on another one (e.g. `https://wl.example.com`), '' for a same-origin path.
 */
export async function contentStylesheetHref(base = ''): Promise<string> {
  return `${base.replace(/\/+$/, '')}${CONTENT_STYLESHEET_PATH}?v=${contentHash(await readStylesheet())}`;
}
