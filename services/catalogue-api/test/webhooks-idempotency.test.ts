// The webhook POSTs with an Idempotency-Key (register, rotate the secret, redeliver): each stores
// the key's outcome in the transaction of its write, so a retry after the process died between
// the commit and the answer (taking the key over once its lock lapsed) is answered the first
// result and writes nothing again: one endpoint, one rotation (the secret before it still valid),
// one redelivery.
import { crashAfterCommit, expectMatchesContract } from '@catalogue/testing';
import { catalogueService } from './helpers';

describe('catalogue-api: webhook POSTs record their Idempotency-Key outcome with the write', () => {
  const svc = catalogueService({ WEBHOOK_ALLOW_PRIVATE: '127.0.0.1/32:*' });
  let n = 0;

  async function post(token: string, path: string, body: unknown, key: string) {
    const res = await fetch(`${svc.url}${path}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': key,
      },
      body: JSON.stringify(body),
    });
    const parsed: unknown = await res.json();
    expectMatchesContract('POST', path, res.status, parsed, res.headers.get('content-type'));
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read fields directly; the contract check validates shapes
    return { status: res.status, body: parsed as any, headers: res.headers };
  }

  /** The request with the process gone after its commit, then the same request again. */
  async function crashThenRetry(eshopId: number, token: string, path: string, body: unknown) {
    n += 1;
    const key = `hook-crash-${process.pid}-${Date.now()}-${n}`;
    const crash = crashAfterCommit(svc.deps.db);
    try {
      await fetch(`${svc.url}${path}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': key,
        },
        body: JSON.stringify(body),
      });
    } finally {
      await crash.end(eshopId, key);
    }
    return post(token, path, body, key);
  }

  test('when the process dies after an endpoint was registered, then the retry answers that endpoint and its secret, and one endpoint exists', async () => {
    const shop = await svc.eshop();

    const retry = await crashThenRetry(shop.eshop.id, shop.apiToken, '/api/v2/rest/webhooks', {
      url: 'http://127.0.0.1:9/once',
    });

    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const stored = await svc.deps
      .db('webhook_endpoints')
      .where({ eshop_id: shop.eshop.id })
      .select('id', 'secret');
    expect(stored).toEqual([{ id: retry.body.id, secret: retry.body.secret }]);
  });

  test('when the process dies after a secret was rotated, then the retry answers that secret and the secret before it stays valid', async () => {
    const shop = await svc.eshop();
    const hook = (await shop.api.post('/api/v2/rest/webhooks', { url: 'http://127.0.0.1:9/' })).body;

    const retry = await crashThenRetry(
      shop.eshop.id,
      shop.apiToken,
      `/api/v2/rest/webhooks/${hook.id}/rotate-secret`,
      {},
    );

    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    // Rotated once: a second rotation would have dropped the secret the receiver still uses.
    const [row] = await svc.deps
      .db('webhook_endpoints')
      .where({ id: hook.id })
      .select('secret', 'previous_secret');
    expect(row).toEqual({ secret: retry.body.secret, previous_secret: hook.secret });
  });

  test('when the process dies after a redelivery was asked for, then the retry answers that redelivery and one is stored', async () => {
    const shop = await svc.eshop();
    await shop.api.post('/api/v2/rest/products', [{ id: 'P1', name: { default: 'Lamp' } }]);
    const hook = (await shop.api.post('/api/v2/rest/webhooks', { url: 'http://127.0.0.1:9/' })).body;

    const retry = await crashThenRetry(
      shop.eshop.id,
      shop.apiToken,
      `/api/v2/rest/webhooks/${hook.id}/redeliver`,
      { from_seq: 1, to_seq: 1 },
    );

    expect(retry.status).toBe(202);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const stored = await svc.deps.db('webhook_redeliveries').where({ endpoint_id: hook.id }).select('id');
    expect(stored).toEqual([{ id: retry.body.redelivery_id }]);
  });
});
