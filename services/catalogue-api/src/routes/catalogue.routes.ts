import type { CatalogueEntityType } from '@catalogue/config';
import {
  apiRouter,
  baseComponent,
  bodyOf,
  eshopOf,
  idempotent,
  guard,
  jsonStream,
  pooledJsonStream,
  type AppContext,
  type AppState,
  type RouterDeps,
  type Validated,
} from '@catalogue/http';
import type { Middleware } from 'koa';
import type { Deps } from '../deps';
import { deleteIdsBody, deleteResponse } from '../schemas/delete.schema';
import { importQuery, type ImportQuery } from '../schemas/import.schema';
import { documentedImport, documentedMultiImport } from '../schemas/items.docs';
import { V2_LIST_ITEMS, v1CategoryListItem, v1ProductListItem } from '../schemas/list-items.schema';
import {
  changesQuery,
  changesResponse,
  v1ListQuery,
  v1ListResponse,
  v2ListQuery,
  v2ListResponse,
} from '../schemas/list.schema';

export const v2Changes = guard({
  operationId: 'v2Changes',
  statuses: { 400: true, 410: true },
  query: changesQuery,
  response: { 200: changesResponse },
});
import { listChanges } from '../services/changes.service';
import { softDelete } from '../services/delete.service';
import {
  importParameters,
  importV1,
  importV2,
  multiImport,
  type ImportRun,
} from '../services/import.service';
import { listV1, listV2 } from '../services/list.service';

type ImportState = AppState & Validated<unknown, ImportQuery, unknown>;

/**
 * How the import runs: a dry run (`?dry_run=true`), or behind idempotent() with a key, whose
 * outcome commits with the rows the import reports.
 */
function runOf(ctx: { state: ImportState }): ImportRun {
  if (ctx.state.input.query.dry_run) return { dryRun: true };
  const recorder = ctx.state.idempotency;
  return recorder ? { recordOutcome: (trx, answer) => recorder.record(trx, 200, answer) } : {};
}

/**
 * idempotent() for real imports only. A dry run writes nothing, so it has no outcome to keep
 * or replay: its Idempotency-Key is neither claimed nor stored, and the real call with that key
 * afterwards runs (and writes) as the first one.
 */
function unlessDryRun(once: Middleware<AppState, AppContext>): Middleware<ImportState, AppContext> {
  return (ctx, next) => (ctx.state.input.query.dry_run ? next() : once(ctx, next));
}

const V2_ENTITIES = [
  ['products', 'product', 'Products'],
  ['categories', 'category', 'Categories'],
  ['brands', 'brand', 'Brands'],
  ['blogs', 'blog', 'Blogs'],
] as const satisfies readonly (readonly [string, CatalogueEntityType, string])[];

type V2Path = (typeof V2_ENTITIES)[number][0];

function byPath<T>(make: (entity: (typeof V2_ENTITIES)[number]) => T): Record<V2Path, T> {
  const [products, categories, brands, blogs] = V2_ENTITIES;
  return {
    products: make(products),
    categories: make(categories),
    brands: make(brands),
    blogs: make(blogs),
  };
}

/** GET /api/v2/rest/<entity>: one guard per entity (its operation and item component). */
export const v2ListGuards = byPath(([, type, name]) =>
  guard({
    operationId: `v2List${name}`,
    statuses: { 422: 'ListUnprocessable' },
    query: v2ListQuery,
    response: { 200: v2ListResponse(V2_LIST_ITEMS[type]) },
  }),
);

/**
 * DELETE /api/v2/rest/<entity>: no validator (delete.service.ts checks the body item by item
 * and reports bad elements in `errors`); the body is documented only.
 */
export const v2DeleteGuards = byPath(([, , name]) =>
  guard({
    operationId: `v2Delete${name}`,
    statuses: { 200: 'DeleteProcessed', 422: 'BulkUnprocessable' },
    documentedBody: deleteIdsBody,
    response: { 200: deleteResponse },
  }),
);

/*
 * The imports have no validator in front: the import service checks each item with the Joi and
 * Ajv validators compiled from items.contract.ts and reports bad items in `errors`. Their bodies
 * are documented from the same contract (items.docs.ts).
 */
const importResult = { 200: baseComponent('ImportResult') };
const parameterImportResult = { 200: baseComponent('ParameterImportResult') };

/** POST /api/v2/rest/<entity>. */
export const v2ImportGuards = byPath(([, type, name]) =>
  guard({
    operationId: `v2Import${name}`,
    statuses: { 200: 'ImportProcessed', 409: 'IdempotencyConflict', 422: 'IdempotentBulkUnprocessable' },
    query: importQuery,
    documentedBody: documentedImport({ version: 'v2', type, multiImport: false }),
    response: importResult,
  }),
);
export const v2ImportParameters = guard({
  operationId: 'v2ImportParameters',
  statuses: {
    200: 'ParameterImportProcessed',
    409: 'IdempotencyConflict',
    422: 'IdempotentBulkUnprocessable',
  },
  query: importQuery,
  documentedBody: documentedImport({ version: 'parameter' }),
  response: parameterImportResult,
});
export const v2MultiImport = guard({
  operationId: 'v2MultiImport',
  statuses: { 409: 'IdempotencyConflict', 422: 'IdempotentBulkUnprocessable' },
  query: importQuery,
  documentedBody: documentedMultiImport,
  response: { 200: baseComponent('MultiImportResult') },
});

/** POST /api/v1/<entity>/bulk-import and /api/v1/parameters/bulk-import. */
export const v1ImportGuards = {
  products: guard({
    operationId: 'v1ImportProducts',
    statuses: { 200: 'ImportProcessed', 409: 'IdempotencyConflict', 422: 'IdempotentBulkUnprocessable' },
    query: importQuery,
    documentedBody: documentedImport({ version: 'v1', type: 'product' }),
    response: importResult,
  }),
  categories: guard({
    operationId: 'v1ImportCategories',
    statuses: { 200: 'ImportProcessed', 409: 'IdempotencyConflict', 422: 'IdempotentBulkUnprocessable' },
    query: importQuery,
    documentedBody: documentedImport({ version: 'v1', type: 'category' }),
    response: importResult,
  }),
};
export const v1ImportParameters = guard({
  operationId: 'v1ImportParameters',
  statuses: {
    200: 'ParameterImportProcessed',
    409: 'IdempotencyConflict',
    422: 'IdempotentBulkUnprocessable',
  },
  query: importQuery,
  documentedBody: documentedImport({ version: 'parameter' }),
  response: parameterImportResult,
});

const V1_ENTITIES = [
  ['products', 'product'],
  ['categories', 'category'],
] as const;

/** GET /api/v1/<entity>/list. */
export const v1ListGuards = {
  products: guard({
    operationId: 'v1ListProducts',
    query: v1ListQuery,
    response: { 200: v1ListResponse('products', v1ProductListItem) },
  }),
  categories: guard({
    operationId: 'v1ListCategories',
    query: v1ListQuery,
    response: { 200: v1ListResponse('categories', v1CategoryListItem) },
  }),
};

/** v2: list, import and soft-delete per entity; parameters; multi-import; the change feed. */
export function v2Routes(deps: RouterDeps & Pick<Deps, 'logger' | 'config' | 'queues' | 'reads'>) {
  const router = apiRouter(deps, { prefix: '/api/v2/rest', bodyLimit: deps.config.http.importBodyLimit });
  // A retried import with the same Idempotency-Key answers what the first one did. The guard
  // comes first: a wrong `dry_run` is refused before a key is claimed.
  const once = unlessDryRun(idempotent(deps));
  for (const [path, type] of V2_ENTITIES) {
    router.get(`/${path}`, v2ListGuards[path], async (ctx) => {
      // About 1.4 MB for 100 products with content: sent in chunks (jsonStream says why), reused
      // by the next answers once this one is sent (ChunkPool says why).
      ctx.type = 'json';
      const page = await listV2(deps, eshopOf(ctx), type, ctx.state.input.query);
      ctx.body = pooledJsonStream(ctx.res, page, 'data');
    });
    router.post(`/${path}`, v2ImportGuards[path], once, async (ctx) => {
      ctx.body = await importV2(deps, eshopOf(ctx).id, type, bodyOf(ctx), runOf(ctx));
    });
    router.delete(`/${path}`, v2DeleteGuards[path], async (ctx) => {
      ctx.body = await softDelete(deps.db, eshopOf(ctx).id, type, bodyOf(ctx));
    });
  }
  router.post('/parameters', v2ImportParameters, once, async (ctx) => {
    ctx.body = await importParameters(deps, eshopOf(ctx).id, bodyOf(ctx), runOf(ctx));
  });
  router.post('/multi-import', v2MultiImport, once, async (ctx) => {
    ctx.body = await multiImport(deps, eshopOf(ctx).id, bodyOf(ctx), runOf(ctx));
  });
  router.get('/changes', v2Changes, async (ctx) => {
    ctx.body = await listChanges(deps, eshopOf(ctx).id, ctx.state.input.query);
  });
  return router;
}

/** v1: products and categories (one language), parameters. */
export function v1Routes(deps: RouterDeps & Pick<Deps, 'logger' | 'config' | 'queues' | 'reads'>) {
  const router = apiRouter(deps, { prefix: '/api/v1', bodyLimit: deps.config.http.importBodyLimit });
  const once = unlessDryRun(idempotent(deps));
  for (const [path, type] of V1_ENTITIES) {
    router.post(`/${path}/bulk-import`, v1ImportGuards[path], once, async (ctx) => {
      ctx.body = await importV1(deps, eshopOf(ctx).id, type, bodyOf(ctx), runOf(ctx));
    });
    router.get(`/${path}/list`, v1ListGuards[path], async (ctx) => {
      ctx.type = 'json';
      ctx.body = jsonStream(await listV1(deps, eshopOf(ctx).id, type, ctx.state.input.query), path);
    });
  }
  router.post('/parameters/bulk-import', v1ImportParameters, once, async (ctx) => {
    ctx.body = await importParameters(deps, eshopOf(ctx).id, bodyOf(ctx), runOf(ctx));
  });
  return router;
}
