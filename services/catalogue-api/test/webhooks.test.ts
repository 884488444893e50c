// Registering webhook endpoints through the API: the secret shown once, the egress rules (the
// same as web research: http(s) only, no private, loopback, link-local, CGNAT or reserved
// targets unless the operator allows them), tenancy, idempotency keys. Delivery is tested end to
// end in tests/webhooks.test.ts.
import { catalogueService } from './helpers';

const ALL_TYPES = [
  'item.created',
  'item.updated',
  'item.deleted',
  'item.content_ready',
  'generation.succeeded',
  'generation.failed',
  'listing.batch_finished',
  'credits.low',
  'generation.batch_finished',
];

describe('catalogue-api: /api/v2/rest/webhooks', () => {
  // The operator allows this one loopback address (as tests and local receivers need), no more.
  const svc = catalogueService({ WEBHOOK_ALLOW_PRIVATE: '127.0.0.1/32:*' });

  test('when an endpoint is registered, then the answer shows a whsec_ secret once and the list never does', async () => {
    const shop = await svc.eshop();

    const created = await shop.api.post('/api/v2/rest/webhooks', { url: 'http://127.0.0.1:9/hook' });
    const typed = await shop.api.post('/api/v2/rest/webhooks', {
      url: 'https://93.184.215.14/hooks?x=1',
      event_types: ['item.deleted', 'item.created'],
    });

    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      url: 'http://127.0.0.1:9/hook',
      event_types: ALL_TYPES,
      last_seq: 0,
      disabled_at: null,
      disabled_reason: null,
    });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(created.body.secret.slice(6), 'base64')).toHaveLength(24);
    expect(typed.body.event_types).toEqual(['item.created', 'item.deleted']);
    expect(typed.body.secret).not.toBe(created.body.secret);
    const list = await shop.api.get('/api/v2/rest/webhooks');
    expect(list.status).toBe(200);
    expect(list.body.data.map((w: { id: number }) => w.id)).toEqual([created.body.id, typed.body.id]);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    expect(list.body.data[0]).not.toHaveProperty('secret');
  });

  test('when an endpoint is registered after events, then its cursor starts at the newest event', async () => {
    const shop = await svc.eshop();
    await shop.api.post('/api/v2/rest/products', [{ id: 'P1', name: { default: 'Lamp' } }]);

    const created = await shop.api.post('/api/v2/rest/webhooks', { url: 'http://127.0.0.1:9/hook' });

    expect(created.body.last_seq).toBe(1);
  });

  test.each([
    ['ftp://127.0.0.1/hook', 'scheme ftp not allowed'],
    ['http://user:pw@127.0.0.1/hook', 'credentials in URL not allowed'],
    ['not a url', 'invalid URL'],
    ['http://127.0.0.2/hook', 'loopback address 127.0.0.2 refused'],
    ['http://[::1]/hook', 'loopback address ::1 refused'],
    ['http://10.0.0.1/hook', 'private address 10.0.0.1 refused'],
    ['http://192.168.1.1/hook', 'private address 192.168.1.1 refused'],
    ['http://100.64.0.1/hook', 'private address 100.64.0.1 refused'],
    ['http://169.254.169.254/latest/meta-data', 'link-local address 169.254.169.254 refused'],
    ['http://[::ffff:10.0.0.1]/hook', 'private address ::ffff:a00:1 refused'],
    ['http://198.51.100.7/hook', 'reserved address 198.51.100.7 refused'],
    ['http://no-such-host.invalid/hook', 'host no-such-host.invalid not found'],
    ['https://hooks.example.com/a\ud800b', 'lone surrogate in URL not allowed'],
    ['https://hooks.example.com/a\udc00', 'lone surrogate in URL not allowed'],
    ['https://hooks.example.com/a\u0000b', 'control character in URL not allowed'],
    ['https://hooks.example.com/a\tb', 'control character in URL not allowed'],
  ])('when the URL is %j, then 422 says why and nothing is stored', async (url, reason) => {
    const shop = await svc.eshop();

    const res = await shop.api.post('/api/v2/rest/webhooks', { url });

    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors?.url).toEqual([`The URL is refused: ${reason}.`]);
    expect((await shop.api.get('/api/v2/rest/webhooks')).body.data).toEqual([]);
  });

  test('when the body is wrong, then 422 names the field', async () => {
    const shop = await svc.eshop();
    const res = await shop.api.post('/api/v2/rest/webhooks', {
      url: 'http://127.0.0.1:9/',
      event_types: ['item.created', 'item.exploded'],
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors ?? {})).toEqual(['event_types.1']);
  });

  test('when another eshop names an endpoint, then every operation on it is 404 like an unknown id, and the database refuses a cross-tenant row', async () => {
    const a = await svc.eshop();
    const b = await svc.eshop();
    const hook = (await a.api.post('/api/v2/rest/webhooks', { url: 'http://127.0.0.1:9/a' })).body;

    for (const id of [hook.id, 999_999_999]) {
      expect((await b.api.delete(`/api/v2/rest/webhooks/${id}`, undefined)).status).toBe(404);
      expect((await b.api.get(`/api/v2/rest/webhooks/${id}/deliveries`)).status).toBe(404);
      expect((await b.api.post(`/api/v2/rest/webhooks/${id}/enable`, {})).status).toBe(404);
      expect((await b.api.post(`/api/v2/rest/webhooks/${id}/rotate-secret`, {})).status).toBe(404);
      const redeliver = await b.api.post(`/api/v2/rest/webhooks/${id}/redeliver`, { from_seq: 1, to_seq: 1 });
      expect(redeliver.status).toBe(404);
    }
    expect((await b.api.get('/api/v2/rest/webhooks')).body.data).toEqual([]);
    expect((await a.api.get('/api/v2/rest/webhooks')).body.data).toHaveLength(1);
    const [kept] = await svc.deps.db('webhook_endpoints').where({ id: hook.id });
    expect(kept).toMatchObject({ secret: hook.secret, previous_secret: null });
    // B's event may exist, but no row of B can name A's endpoint.
    await b.api.post('/api/v2/rest/products', [{ id: 'P1', name: { default: 'Lamp' } }]);
    await expect(
      svc.deps.db('webhook_deliveries').insert({
        eshop_id: b.eshop.id,
        endpoint_id: hook.id,
        seq: 1,
        attempt: 1,
        status_code: 200,
        latency_ms: 1,
      }),
    ).rejects.toThrow(/foreign key/);
  });

  test('when an endpoint is deleted, then it is gone and deleting it again is 404', async () => {
    const shop = await svc.eshop();
    const hook = (await shop.api.post('/api/v2/rest/webhooks', { url: 'http://127.0.0.1:9/' })).body;

    const removed = await shop.api.delete(`/api/v2/rest/webhooks/${hook.id}`, undefined);

    expect(removed.status).toBe(204);
    expect((await shop.api.get('/api/v2/rest/webhooks')).body.data).toEqual([]);
    expect((await shop.api.delete(`/api/v2/rest/webhooks/${hook.id}`, undefined)).status).toBe(404);
  });

  test('when a secret is rotated, then the answer shows the new secret once, the old one is kept for 24 hours, and a retry with its Idempotency-Key rotates once', async () => {
    const shop = await svc.eshop();
    const hook = (await shop.api.post('/api/v2/rest/webhooks', { url: 'http://127.0.0.1:9/r' })).body;
    const send = () =>
      fetch(`${svc.url}/api/v2/rest/webhooks/${hook.id}/rotate-secret`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${shop.apiToken}`, 'Idempotency-Key': `rotate-${hook.id}` },
      });

    const first = await send();
    const retry = await send();

    expect(first.status).toBe(200);
    const body = await first.json();
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(body.secret).not.toBe(hook.secret);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual(body);
    const {
      rows: [row],
    } = await svc.deps.db.raw<{ rows: { secret: string; previous_secret: string; left: string }[] }>(
      `select secret, previous_secret, extract(epoch from previous_secret_expires_at - now()) as left
         from webhook_endpoints where id = ?`,
      [hook.id],
    );
    expect(row).toMatchObject({ secret: body.secret, previous_secret: hook.secret });
    expect(Math.abs(Number(row!.left) - 24 * 3600)).toBeLessThan(60);
    expect(JSON.stringify((await shop.api.get('/api/v2/rest/webhooks')).body)).not.toContain('whsec_');
  });

  test('when a registration is retried with its Idempotency-Key, then the first answer (and secret) is replayed and one endpoint exists', async () => {
    const shop = await svc.eshop();
    const send = () =>
      fetch(`${svc.url}/api/v2/rest/webhooks`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${shop.apiToken}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': `hook-${shop.eshop.id}`,
        },
        body: JSON.stringify({ url: 'http://127.0.0.1:9/once' }),
      });

    const first = await send();
    const retry = await send();

    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual(await first.json());
    expect((await shop.api.get('/api/v2/rest/webhooks')).body.data).toHaveLength(1);
  });

  test('when a redelivery range is not acceptable, then 422 says why', async () => {
    const shop = await svc.eshop();
    const hook = (await shop.api.post('/api/v2/rest/webhooks', { url: 'http://127.0.0.1:9/' })).body;
    const path = `/api/v2/rest/webhooks/${hook.id}/redeliver` as const;

    const reversed = await shop.api.post(path, { from_seq: 3, to_seq: 2 });
    const ahead = await shop.api.post(path, { from_seq: 1, to_seq: 5 });

    expect(reversed.status).toBe(422);
    expect(ahead.status).toBe(422);
    expect(ahead.body.errors?.to_seq?.[0]).toMatch(/must not exceed 0/);
  });
});

describe('catalogue-api: /api/v2/rest/webhooks with a port-scoped allowance', () => {
  // Loopback port 8080 and one named internal receiver (https, port 8443), nothing else private.
  const svc = catalogueService({ WEBHOOK_ALLOW_PRIVATE: '127.0.0.1/32:8080,https://hooks.internal:8443' });

  test.each([
    ['http://127.0.0.1:6379/', 'loopback address 127.0.0.1 port 6379 refused'],
    ['http://127.0.0.1:5432/', 'loopback address 127.0.0.1 port 5432 refused'],
    ['http://127.0.0.1/hook', 'loopback address 127.0.0.1 port 80 refused'],
  ])(
    'when a private endpoint %s is on a port the allowance does not name, then 422 and nothing is stored',
    async (url, reason) => {
      const shop = await svc.eshop();

      const res = await shop.api.post('/api/v2/rest/webhooks', { url });

      expect(res.status).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors?.url).toEqual([`The URL is refused: ${reason}.`]);
      expect((await shop.api.get('/api/v2/rest/webhooks')).body.data).toEqual([]);
    },
  );

  test('when the endpoint is on the allowed scheme, host and port, then it is registered', async () => {
    const shop = await svc.eshop();

    const byAddress = await shop.api.post('/api/v2/rest/webhooks', { url: 'http://127.0.0.1:8080/hook' });
    const byName = await shop.api.post('/api/v2/rest/webhooks', { url: 'https://hooks.internal:8443/in' });

    expect([byAddress.status, byName.status]).toEqual([201, 201]);
    expect((await shop.api.get('/api/v2/rest/webhooks')).body.data).toHaveLength(2);
  });
});
