export { createHttpApp } from './app';
export type { HttpApp, HttpAppOptions } from './app';
export { startHttpServer } from './server';
export type { RunningServer } from './server';
export { healthRouter } from './health';
export type { ReadinessCheck } from './health';
export { docsRouter, type DocsRouterOptions } from './docs';
export { contentHash, publicAssetsRouter, type PublicAsset } from './assets';
export { contentStylesheet, contentStylesheetHref } from './content-stylesheet';
export {
  BEFORE_ROUTING,
  createHttpMetrics,
  createRateLimitMetrics,
  createReadMetrics,
  UNMATCHED_ROUTE,
} from './metrics';
export type { HttpMetrics, RateLimitMetrics, ReadMetrics } from './metrics';
export { publicCreditRouter } from './public-credit';
export { sharedAnswer, type SharedAnswer } from './shared-answer';
export * from './errors';
export { ERROR_CODES, type ErrorCode } from './codes';
export { createRateLimits, NO_RATE_LIMITS } from './rate-limit/limits';
export type { Policy, RateLimitDecision, RateLimits, TokenBucket } from './rate-limit/limits';
export { limitByAddress, rateLimitHeaders, RateLimitedError } from './rate-limit/middleware';
export { idempotent, IDEMPOTENCY_LOCK_SECONDS, IDEMPOTENCY_TTL_SECONDS } from './middleware/idempotency';
export type { IdempotencyDeps } from './middleware/idempotency';
export { fieldMessage, fieldPath } from './messages';
export { firstUnstorablePath, isStorableText, unstorableTextErrors, unstorableTextMessage } from './text';
export { baseComponent, guard, queryList, responseObject, validate } from './middleware/validate';
export type {
  Guard,
  InputSchemas,
  MessageOverrides,
  RouteShapes,
  StatusAnswer,
  Validated,
} from './middleware/validate';
export {
  apiRouter,
  apiTokenAuth,
  declareRouterAuth,
  routerAuth,
  whiteLabelAuth,
  whiteLabelRouter,
  WHITE_LABEL_PREFIX,
  WHITE_LABEL_TOKEN_HEADER,
} from './middleware/auth';
export type { RouterAuth, RouterDeps, TokenRouterOptions } from './middleware/auth';
export { parseBody } from './middleware/body';
export type { BodyType } from './middleware/body';
export { whiteLabelCors } from './middleware/cors';
export { API_HELMET_OPTIONS, recordHelmet } from './middleware/security';
export { bodyOf, eshopOf } from './types';
export {
  ByteChunks,
  ChunkPool,
  chunkPool,
  jsonStream,
  pooledJsonStream,
  RawJson,
  RawJsonBytes,
} from './json-stream';
export type { AppContext, AppRouter, AppState } from './types';
export { default as Router } from '@koa/router';
export { buildBaseDeps, closeBaseDeps, exitOnSignals } from './runtime';
export type { BaseDeps, ServiceModule } from './runtime';
export { createReads, ReplicaBehind, REPLICA_RETRY_AFTER_MS } from './read-replica';
export type { Reads, ReadReason, ReadTarget } from './read-replica';
export { createAuthCache, NO_AUTH_CACHE } from './auth-cache';
export type { AuthCache } from './auth-cache';
