import type { CreatedEshop } from '@catalogue/admin';
import { listingRepository } from '@catalogue/db';
import type { Reads } from '@catalogue/http';
import {
  eventually,
  makeEshop,
  serveApp,
  startPrivateReplicatedPostgres,
  testConfig,
  type ReplicatedPostgres,
  type ServedApp,
} from '@catalogue/testing';
import { createApp } from '../src/app';
import { buildDeps, closeDeps, type Deps } from '../src/deps';
import { listChanges } from '../src/services/changes.service';
import { client, type Client } from './helpers';

/**
 * DATABASE_READ_URL against a real streaming replica (a private primary and its hot standby made
 * with pg_basebackup): which reads it serves, read-your-writes while its replay is paused, a
 * change feed that never skips an event, and reads falling back to the primary when it stops.
 */
describe('catalogue-api with a read replica', () => {
  let pg: ReplicatedPostgres;
  let deps: Deps;
  let server: ServedApp;

  beforeAll(async () => {
    pg = await startPrivateReplicatedPostgres();
    deps = buildDeps(
      testConfig({
        DATABASE_URL: pg.primaryUrl,
        DATABASE_READ_URL: pg.replicaUrl,
        DATABASE_CONNECT_TIMEOUT_MS: '1000',
      }),
    );
    server = await serveApp(createApp(deps), deps.logger);
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    if (deps) await closeDeps(deps);
    await pg?.stop();
  });

  async function shop(): Promise<CreatedEshop & { api: Client }> {
    const created = await makeEshop(deps.db);
    return { ...created, api: client(server.url, created.apiToken) };
  }

  /** `db_reads_total` by "database/reason". */
  async function reads(): Promise<Record<string, number>> {
    const metric = deps.registry.getSingleMetric('db_reads_total')!;
    const { values } = await metric.get();
    return Object.fromEntries(values.map((v) => [`${v.labels.database}/${v.labels.reason}`, v.value]));
  }

  /** Runs `act` and returns how many reads each database served meanwhile. */
  async function servedDuring(act: () => Promise<void>): Promise<Record<string, number>> {
    const before = await reads();
    await act();
    const after = await reads();
    return Object.fromEntries(
      Object.entries(after)
        .map(([key, value]) => [key, value - (before[key] ?? 0)] as const)
        .filter(([, value]) => value > 0),
    );
  }

  const item = (id: string) => ({ id, name: { default: `Item ${id}` } });
  /** Brands are listed as soon as they are imported (no render first); not yet loaded: is_edited=false. */
  const BRANDS = '/api/v2/rest/brands?is_edited=false&page=1&per_page=10';

  test('when the replica has replayed the eshop, then the lists, the change feed and listing rows are read from it', async () => {
    // Arrange
    const { api } = await shop();
    expect((await api.post('/api/v2/rest/brands', [item('B1'), item('B2')])).status).toBe(200);
    const upload = await api.post('/api/v2/rest/listing', [{ code: 'SKU-1', name: 'Chair' }]);
    expect(upload.status).toBe(201);
    await pg.waitForReplay();

    // Act
    const answers: Record<string, unknown> = {};
    const served = await servedDuring(async () => {
      for (const path of [
        BRANDS,
        '/api/v1/products/list?page=1&per_page=10',
        '/api/v2/rest/changes',
        `/api/v2/rest/listing/${upload.body.data.batch_id}/product`,
      ]) {
        const res = await api.get(path);
        expect(res.status).toBe(200);
        answers[path] = res.body;
      }
    });

    // Assert
    expect(served).toEqual({ 'replica/caught_up': 4 });
    expect(answers[BRANDS]).toMatchObject({ data: [{ id: 'B1' }, { id: 'B2' }], meta: { total: 2 } });
    expect((answers['/api/v2/rest/changes'] as { data: unknown[] }).data).toEqual([
      expect.objectContaining({ id: 1, type: 'item.created', external_id: 'B1' }),
      expect.objectContaining({ id: 2, type: 'item.created', external_id: 'B2' }),
    ]);
  });

  describe('when replay on the replica is paused', () => {
    afterEach(() => pg.resumeReplay());

    test('then a change that wrote no event shows late (the replica serves), while an import, its events and a new listing batch are read back at once (the primary serves)', async () => {
      // Arrange: a batch the replica has; then, paused, the enrichment takes its row (no event).
      const { eshop, api } = await shop();
      const batchId = (await api.post('/api/v2/rest/listing', [{ code: 'SKU-1' }])).body.data.batch_id;
      await pg.waitForReplay();
      await pg.pauseReplay();
      const [row] = await listingRepository.listRows(deps.db, eshop.id, batchId, { page: 1, perPage: 10 });
      await listingRepository.markRowProcessing(deps.db, eshop.id, batchId, row!.id);

      // Act
      let rows, newBatch, list, changes;
      const served = await servedDuring(async () => {
        rows = await api.get(`/api/v2/rest/listing/${batchId}/product`);
        const upload = await api.post('/api/v2/rest/listing', [{ code: 'SKU-2' }]);
        newBatch = await api.get(`/api/v2/rest/listing/${upload.body.data.batch_id}/product`);
        expect((await api.post('/api/v2/rest/brands', [item('B1')])).status).toBe(200);
        list = await api.get(BRANDS);
        changes = await api.get('/api/v2/rest/changes');
      });

      // Assert: the replica's answer lags behind the primary's row...
      expect(rows).toMatchObject({
        status: 200,
        body: { data: [{ external_id: 'SKU-1', status: 'pending' }] },
      });
      // ...but what the client wrote itself is there.
      expect(list).toMatchObject({ status: 200, body: { data: [{ id: 'B1' }], meta: { total: 1 } } });
      expect(changes).toMatchObject({
        status: 200,
        body: { data: [{ id: 1, type: 'item.created', external_id: 'B1' }] },
      });
      expect(newBatch).toMatchObject({ status: 200, body: { data: [{ external_id: 'SKU-2' }] } });
      // The rows from the replica; the new batch from the primary once the replica did not have it
      // (an upload writes no event); the list and the feed from the primary, which numbers an event
      // the replica lacks.
      expect(served).toEqual({ 'replica/caught_up': 1, 'primary/behind': 3 });

      // And once the replica replays again, it serves the row as the primary has it.
      await pg.resumeReplay();
      await pg.waitForReplay();
      const caughtUp = await api.get(`/api/v2/rest/listing/${batchId}/product`);
      expect(caughtUp.body.data).toEqual([expect.objectContaining({ status: 'processing' })]);
    });

    test('then the change feed pages on without skipping or repeating an event, while paused and after replay resumes', async () => {
      // Arrange
      const { api } = await shop();
      await pg.pauseReplay();
      let imported = 0;
      const importSome = async (count: number): Promise<void> => {
        const items = Array.from({ length: count }, () => item(`P${(imported += 1)}`));
        expect((await api.post('/api/v2/rest/products', items)).status).toBe(200);
      };
      const ids: number[] = [];
      let cursor = '';
      const page = async (): Promise<boolean> => {
        const res = await api.get(`/api/v2/rest/changes?limit=2&after=${cursor}`);
        expect(res.status).toBe(200);
        ids.push(...res.body.data.map((e: { id: number }) => e.id));
        cursor = res.body.next_cursor;
        return res.body.has_more;
      };

      // Act: writes and reads interleaved, paused, then replaying, then caught up.
      const served = await servedDuring(async () => {
        await importSome(3);
        await page();
        await importSome(2);
        await page();
        await page();
        await pg.resumeReplay();
        await importSome(3);
        while (await page());
        await importSome(1);
        await pg.waitForReplay();
        while (await page());
      });

      // Assert
      expect(ids).toEqual(Array.from({ length: imported }, (_, i) => i + 1));
      expect(served['primary/behind']).toBeGreaterThan(0);
      expect(served['replica/caught_up']).toBeGreaterThan(0);
    });

    test('then even reading the feed from the lagging replica itself skips nothing: a cursor beyond it gets an empty page and keeps its place', async () => {
      // Arrange: the feed read from the replica whatever its position (the rule's catch-up check
      // left out), to show the second line of defence: numbers follow commit order.
      const replica = deps.reads.replica!;
      const onlyReplica: Reads = {
        replica,
        run: (_, read) => read(replica, 'replica'),
        check: async () => 'ok',
      };
      const feed = { reads: onlyReplica, config: deps.config };
      await pg.pauseReplay();
      const { eshop, api } = await shop();
      await api.post('/api/v2/rest/products', [item('P1'), item('P2'), item('P3')]);
      const fromPrimary = await api.get('/api/v2/rest/changes?limit=2');
      expect(fromPrimary.body.data.map((e: { id: number }) => e.id)).toEqual([1, 2]);

      // Act
      const lagging = await listChanges(feed, eshop.id, { limit: 10 });
      const beyond = await listChanges(feed, eshop.id, { limit: 10, after: fromPrimary.body.next_cursor });
      await pg.resumeReplay();
      await pg.waitForReplay();
      const replayed = await listChanges(feed, eshop.id, { limit: 10, after: beyond.next_cursor });

      // Assert
      expect(lagging).toEqual({ data: [], next_cursor: 'MA', has_more: false });
      expect(beyond).toEqual({ data: [], next_cursor: fromPrimary.body.next_cursor, has_more: false });
      expect(replayed.data.map((e) => e.id)).toEqual([3]);
    });
  });

  test('when the replica stops, then reads fall back to the primary at once and readiness reports it; when it is back, then it serves again', async () => {
    // Arrange
    const { api } = await shop();
    await api.post('/api/v2/rest/brands', [item('B1')]);
    await pg.waitForReplay();
    const list = BRANDS;
    const served = await servedDuring(async () => {
      expect((await api.get(list)).status).toBe(200);
    });
    expect(served).toEqual({ 'replica/caught_up': 1 });

    try {
      // Act
      await pg.stopReplica();
      let down, ready;
      const fallback = await servedDuring(async () => {
        down = await api.get(list);
        await api.get('/api/v2/rest/changes');
        ready = await fetch(`${server.url}/readyz`);
      });

      // Assert
      expect(down).toMatchObject({ status: 200, body: { data: [{ id: 'B1' }] } });
      expect(fallback).toEqual({ 'primary/replica_unavailable': 2 });
      expect(ready!.status).toBe(200);
      expect(await ready!.json()).toMatchObject({
        status: 'ready',
        checks: { postgres: 'ok', postgres_replica: 'unavailable' },
      });
    } finally {
      await pg.startReplica();
    }
    // Back: readiness at once, reads once the few seconds the failed replica is skipped are over.
    const ready = await fetch(`${server.url}/readyz`);
    expect(await ready.json()).toMatchObject({ checks: { postgres_replica: 'ok' } });
    await eventually(async () => {
      expect(await servedDuring(async () => void (await api.get(list)))).toEqual({ 'replica/caught_up': 1 });
    }, 20_000);
  });
});
