import type { CatalogueEntityType, EntityStatus } from '@catalogue/config';
import {
  contractCaller,
  makeEshop,
  serveApp,
  serveServiceForTests,
  startPrivatePostgres,
  testConfig,
  type Answer,
  type DisposablePostgres,
  type EshopFixture,
  type ServedApp,
} from '@catalogue/testing';
import { adminService, type CreatedEshop } from '@catalogue/admin';
import { createApp } from '../src/app';
import { buildDeps, closeDeps, type Deps } from '../src/deps';
import { catalogueApi } from '../src/service';

/** One catalogue answer (its body typed from docs/openapi.yaml by the path it answers). */
export type ApiResponse<B = unknown> = Answer<B>;

/**
 * A client of one eshop's API token, as an e-shop back office would call the service. Every
 * response is checked against docs/openapi.yaml (status, content type and body schema).
 */
export function client(url: string, token: string) {
  const call = contractCaller({ baseUrl: url, headers: () => ({ Authorization: `Bearer ${token}` }) });
  return {
    call,
    get: <P extends string>(path: P) => call('GET', path),
    post: <P extends string>(path: P, body: unknown, contentType?: string) =>
      call('POST', path, body, contentType ? { headers: { 'Content-Type': contentType } } : {}),
    put: <P extends string>(path: P, body: unknown) => call('PUT', path, body),
    delete: <P extends string>(path: P, body: unknown) => call('DELETE', path, body),
  };
}

export type Client = ReturnType<typeof client>;

/** The catalogue API served for a test file, with helpers to make eshops and move items. */
export function catalogueService(configOverrides: Record<string, string> = {}) {
  const service = serveServiceForTests(catalogueApi, configOverrides);
  return {
    get deps() {
      return service.deps;
    },
    get url() {
      return service.url;
    },
    async eshop(fixture: EshopFixture = {}): Promise<CreatedEshop & { api: Client }> {
      const created = await makeEshop(service.deps.db, fixture);
      return { ...created, api: client(service.url, created.apiToken) };
    },
    /**
     * The render-content work queued for one eshop, one entry per item (a job carries the items of
     * one import; the queue is shared with other test files, so always filter by eshop).
     */
    async renderJobs(
      eshopId: number,
    ): Promise<{ eshop_id: number; entity_type: string; external_id: string }[]> {
      const jobs = await service.deps.queues['render-content'].getJobs([
        'waiting',
        'active',
        'delayed',
        'prioritized',
        'completed',
        'failed',
      ]);
      return jobs
        .filter((job) => job?.data.eshop_id === eshopId)
        .flatMap(({ data }) =>
          data.external_ids.map((external_id) => ({
            eshop_id: data.eshop_id,
            entity_type: data.entity_type,
            external_id,
          })),
        );
    },
    /** What staff do with `admin item status` (the worker is not running in these tests). */
    async setStatus(
      eshopId: number,
      type: CatalogueEntityType,
      externalIds: string[],
      status: EntityStatus = 'ready',
    ) {
      const admin = adminService(service.deps.db);
      for (const id of externalIds) await admin.setItemStatus(eshopId, type, id, status);
    },
  };
}

/**
 * The catalogue API on a PostgreSQL server of the test file's own (one it may stop, kill or
 * freeze), with `overrides` for its settings and one eshop's client; started in beforeAll,
 * thawed and stopped in afterAll.
 */
export function catalogueOnPrivatePostgres(overrides: Record<string, string>) {
  let pg: DisposablePostgres;
  let deps: Deps;
  let server: ServedApp;
  let api: Client;
  beforeAll(async () => {
    pg = await startPrivatePostgres();
    deps = buildDeps(testConfig({ DATABASE_URL: pg.url, ...overrides }));
    server = await serveApp(createApp(deps), deps.logger);
    const eshop = await makeEshop(deps.db);
    api = client(server.url, eshop.apiToken);
  }, 60_000);
  afterAll(async () => {
    pg.thaw();
    await server.stop();
    await closeDeps(deps);
    await pg.stop();
  });
  return {
    get pg() {
      return pg;
    },
    get deps() {
      return deps;
    },
    get server() {
      return server;
    },
    get api() {
      return api;
    },
  };
}
