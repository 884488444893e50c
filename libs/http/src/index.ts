export { createHttpApp } from './app';
export type { HttpApp, HttpAppOptions } from './app';
export { startHttpServer } from './server';
export type { RunningServer } from './server';
export { healthRouter } from './health';
export type { ReadinessCheck } from './health';
export { docsRouter, type DocsRouterOptions } from './docs';
export { contentHash, publicAssetsRouter, type PublicAsset } from './assets';
export { contentStylesheet, contentStylesheetHref } from './content-stylesheet';
export { createHttpMetrics, UNMATCHED_ROUTE } from './metrics';
export type { HttpMetrics } from './metrics';
export * from './errors';
export { fieldMessage, fieldPath } from './messages';
export { firstUnstorablePath, isStorableText, unstorableTextErrors, unstorableTextMessage } from './text';
export { validate, inputOf } from './middleware/validate';
export type { InputSchemas } from './middleware/validate';
export {
  apiRouter,
  apiTokenAuth,
  whiteLabelAuth,
  whiteLabelRouter,
  WHITE_LABEL_TOKEN_HEADER,
} from './middleware/auth';
export { parseBody } from './middleware/body';
export { bodyOf, eshopOf } from './types';
export type { AppContext, AppRouter, AppState } from './types';
export { default as Router } from '@koa/router';
export { buildBaseDeps, closeBaseDeps, exitOnSignals } from './runtime';
export type { BaseDeps } from './runtime';
