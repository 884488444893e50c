// Idempotency-Key on the catalogue imports, against the real Postgres: the first answer is
// replayed to a retry, another body with the key is refused, keys are per eshop, an abandoned
// key can be taken again, and the key row is what PostgreSQL keeps (surviving restarts).
import { idempotencyRepository } from '@catalogue/db';
import { IDEMPOTENCY_LOCK_SECONDS } from '@catalogue/http';
import { crashAfterCommit, expectMatchesContract, serveApp, testConfig } from '@catalogue/testing';
import { createApp } from '../src/app';
import { buildDeps, closeDeps } from '../src/deps';
import { catalogueService } from './helpers';

let counter = 0;
const nextKey = () => `imp-${process.pid}-${Date.now()}-${++counter}`;

describe('catalogue-api: Idempotency-Key on imports', () => {
  const svc = catalogueService();

  async function post(token: string, path: string, body: unknown, key?: string) {
    const res = await fetch(`${svc.url}${path}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        ...(key !== undefined && { 'Idempotency-Key': key }),
      },
      body: JSON.stringify(body),
    });
    const parsed: unknown = await res.json();
    expectMatchesContract('POST', path, res.status, parsed, res.headers.get('content-type'));
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read fields directly; the contract check validates shapes
    return { status: res.status, body: parsed as any, headers: res.headers };
  }

  const brand = (id: string, name: string) => ({ id, name: { default: name } });

  test('when an import is retried with the same key, then the first answer is replayed and nothing is written again', async () => {
    const { eshop, apiToken } = await svc.eshop();
    const key = nextKey();
    const first = await post(apiToken, '/api/v2/rest/brands', [brand('B1', 'Acme')], key);
    const storedBefore = await svc.deps.db('brands').where({ eshop_id: eshop.id }).first('updated_at');

    const retry = await post(apiToken, '/api/v2/rest/brands', [brand('B1', 'Acme')], key);

    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, imported: 1, updated: 0 });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const storedAfter = await svc.deps.db('brands').where({ eshop_id: eshop.id }).first('updated_at');
    expect(storedAfter).toEqual(storedBefore);
    // Without a key the same request runs again (an update this time).
    const unkeyed = await post(apiToken, '/api/v2/rest/brands', [brand('B1', 'Acme')]);
    expect(unkeyed.body).toMatchObject({ imported: 0, updated: 1 });
  });

  test('when the key comes back with another body, path or method, then 422 idempotency_key_reused and nothing is written', async () => {
    const { eshop, apiToken } = await svc.eshop();
    const key = nextKey();
    await post(apiToken, '/api/v2/rest/brands', [brand('B1', 'Acme')], key);

    const otherBody = await post(apiToken, '/api/v2/rest/brands', [brand('B2', 'Other')], key);
    const otherPath = await post(apiToken, '/api/v2/rest/blogs', [brand('B1', 'Acme')], key);

    for (const res of [otherBody, otherPath]) {
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: 'This Idempotency-Key was used with another request; use a new key for a new request.',
        code: 'idempotency_key_reused',
      });
    }
    expect(await svc.deps.db('brands').where({ eshop_id: eshop.id }).pluck('external_id')).toEqual(['B1']);
    expect(await svc.deps.db('blogs').where({ eshop_id: eshop.id })).toEqual([]);
  });

  test('when two eshops use the same key, then each gets its own import', async () => {
    const a = await svc.eshop();
    const b = await svc.eshop();
    const key = nextKey();

    const asA = await post(a.apiToken, '/api/v2/rest/brands', [brand('B1', 'Acme')], key);
    const asB = await post(b.apiToken, '/api/v2/rest/brands', [brand('B1', 'Acme')], key);

    expect(asA.body).toMatchObject({ imported: 1 });
    expect(asB.body).toMatchObject({ imported: 1 });
    expect(asB.headers.get('idempotent-replayed')).toBeNull();
  });

  test('when the request was refused (bulk limit), then the key is not kept and a corrected retry runs', async () => {
    const { apiToken } = await svc.eshop();
    const key = nextKey();
    const tooMany = Array.from({ length: 101 }, (_, i) => brand(`B${i}`, 'x'));
    const refused = await post(apiToken, '/api/v2/rest/brands', tooMany, key);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('bulk_limit_exceeded');

    // Another body with the same key: the refused attempt left no trace.
    const retry = await post(apiToken, '/api/v2/rest/brands', tooMany.slice(0, 100), key);
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ imported: 100 });
  });

  test('when a key is held by a request that died, then a retry waits (409) until the lock lapses, then runs', async () => {
    const { eshop, apiToken } = await svc.eshop();
    const key = nextKey();
    const body = [brand('B1', 'Acme')];
    // What a crashed process leaves: the claim, no outcome. Same fingerprint as the retry.
    const probe = await post(apiToken, '/api/v2/rest/brands', body, key);
    await svc.deps
      .db('idempotency_keys')
      .where({ eshop_id: eshop.id, key })
      .update({
        response_status: null,
        response_body: null,
        response_content_type: null,
        locked_until: svc.deps.db.raw(`now() + interval '1 minute'`),
      });

    const whileLocked = await post(apiToken, '/api/v2/rest/brands', body, key);
    await svc.deps
      .db('idempotency_keys')
      .where({ eshop_id: eshop.id, key })
      .update({ locked_until: svc.deps.db.raw(`now() - interval '1 second'`) });
    const afterLapse = await post(apiToken, '/api/v2/rest/brands', body, key);

    expect(probe.status).toBe(200);
    expect(whileLocked.status).toBe(409);
    expect(whileLocked.body.code).toBe('idempotency_conflict');
    expect(afterLapse.status).toBe(200);
    expect(afterLapse.headers.get('idempotent-replayed')).toBeNull();
    expect(afterLapse.body).toMatchObject({ imported: 0, updated: 1 });
    expect(IDEMPOTENCY_LOCK_SECONDS).toBeGreaterThanOrEqual(60);
  });

  test('when a key expired, then it is swept and a new request with it runs', async () => {
    const { eshop, apiToken } = await svc.eshop();
    const key = nextKey();
    await post(apiToken, '/api/v2/rest/brands', [brand('B1', 'Acme')], key);
    await svc.deps
      .db('idempotency_keys')
      .where({ eshop_id: eshop.id, key })
      .update({ expires_at: svc.deps.db.raw(`now() - interval '1 second'`) });

    const reused = await post(apiToken, '/api/v2/rest/brands', [brand('B2', 'Other')], key);
    expect(reused.status).toBe(200);
    expect(reused.headers.get('idempotent-replayed')).toBeNull();

    await svc.deps
      .db('idempotency_keys')
      .where({ eshop_id: eshop.id, key })
      .update({ expires_at: svc.deps.db.raw(`now() - interval '1 second'`) });
    expect(await idempotencyRepository.deleteExpired(svc.deps.db, 1000)).toBeGreaterThanOrEqual(1);
    expect(await svc.deps.db('idempotency_keys').where({ eshop_id: eshop.id, key })).toEqual([]);
  });

  test('when the key header is malformed, then 400 idempotency_key_invalid and nothing is written', async () => {
    const { eshop, apiToken } = await svc.eshop();
    const res = await post(apiToken, '/api/v2/rest/brands', [brand('B1', 'Acme')], 'x'.repeat(256));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('idempotency_key_invalid');
    expect(await svc.deps.db('brands').where({ eshop_id: eshop.id })).toEqual([]);
  });

  /** Every creating POST of the catalogue API, with a body that creates one thing. */
  const CREATING_POSTS: [path: string, body: unknown, stored: string][] = [
    [
      '/api/v1/products/bulk-import',
      [{ id: 'X1', name: 'Chair', url: 'https://shop.test/chair' }],
      'products',
    ],
    [
      '/api/v1/categories/bulk-import',
      [{ id: 'X1', name: 'Chairs', url: 'https://shop.test/chairs' }],
      'categories',
    ],
    [
      '/api/v1/parameters/bulk-import',
      [{ id: 1, name: 'Colour', values: [{ id: 1, value: 'Red' }] }],
      'parameters',
    ],
    ['/api/v2/rest/products', [{ id: 'X1', name: { default: 'Chair' } }], 'products'],
    ['/api/v2/rest/parameters', [{ id: 1, name: 'Colour', values: [{ id: 1, value: 'Red' }] }], 'parameters'],
    ['/api/v2/rest/multi-import', { brands: [brand('B1', 'Acme')] }, 'brands'],
    ['/api/v2/rest/listing', [{ code: 'L1', name: 'Desk lamp' }], 'listing_rows'],
  ];

  test.each(CREATING_POSTS)(
    'when POST %s is retried with the same key, then the first answer is replayed and nothing is stored twice',
    async (path, body, table) => {
      const { eshop, apiToken } = await svc.eshop();
      const key = nextKey();
      const first = await post(apiToken, path, body, key);
      const rowsBefore = await svc.deps.db(table).where({ eshop_id: eshop.id }).select('*');

      const retry = await post(apiToken, path, body, key);

      expect(first.status).toBeLessThan(300);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(retry.status).toBe(first.status);
      expect(retry.body).toEqual(first.body);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(rowsBefore.length).toBeGreaterThan(0);
      expect(await svc.deps.db(table).where({ eshop_id: eshop.id }).select('*')).toEqual(rowsBefore);
    },
  );

  test.each(CREATING_POSTS)(
    'when the process dies after POST %s committed and a retry takes the key over, then the first answer is replayed and nothing is written again',
    async (path, body, table) => {
      // Arrange: the process is gone after the commit (no outcome written after the handler,
      // no key released); the client saw no answer.
      const { eshop, apiToken } = await svc.eshop();
      const key = nextKey();
      const crash = crashAfterCommit(svc.deps.db);
      try {
        await fetch(`${svc.url}${path}`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${apiToken}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': key,
          },
          body: JSON.stringify(body),
        });
      } finally {
        await crash.end(eshop.id, key);
      }
      const rowsBefore = await svc.deps.db(table).where({ eshop_id: eshop.id }).select('*');
      const eventsBefore = await svc.deps
        .db('events')
        .where({ eshop_id: eshop.id })
        .count<{ count: string }[]>('* as count');

      // Act
      const retry = await post(apiToken, path, body, key);

      // Assert: the answer the first run committed (it created, a rerun would report updates).
      expect(retry.status).toBeLessThan(300);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      if ('imported' in retry.body) expect(retry.body).toMatchObject({ imported: 1, updated: 0 });
      expect(rowsBefore.length).toBeGreaterThan(0);
      expect(await svc.deps.db(table).where({ eshop_id: eshop.id }).select('*')).toEqual(rowsBefore);
      expect(
        await svc.deps.db('events').where({ eshop_id: eshop.id }).count<{ count: string }[]>('* as count'),
      ).toEqual(eventsBefore);
    },
  );

  test('when the retry reaches another replica (or the process restarted), then it is replayed from PostgreSQL', async () => {
    const { eshop, apiToken } = await svc.eshop();
    const key = nextKey();
    const first = await post(apiToken, '/api/v2/rest/brands', [brand('B1', 'Acme')], key);
    const otherDeps = buildDeps(testConfig());
    const other = await serveApp(createApp(otherDeps), otherDeps.logger);
    try {
      const res = await fetch(`${other.url}/api/v2/rest/brands`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${apiToken}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': key,
        },
        body: JSON.stringify([brand('B1', 'Acme')]),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('idempotent-replayed')).toBe('true');
      expect(await res.json()).toEqual(first.body);
      expect(await svc.deps.db('brands').where({ eshop_id: eshop.id })).toHaveLength(1);
    } finally {
      await other.stop();
      await closeDeps(otherDeps);
    }
  });
});
