// A delivery that the network stops (a NetworkPolicy that rejects or drops the receiver's port,
// a receiver that is down) is named as such in the delivery log: where it went, what happened
// at the connection, and that the service's network policy may not allow that port. A port
// nobody answers on fails within the connect limit (half the attempt's) as "could not
// connect", not as a receiver that was slow to answer.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '@catalogue/testing';
import { webhookEgressPolicy } from '@catalogue/webhooks';
import { send, webhookDispatcher, type DeliveryDeps } from '../src/services/webhook-delivery.service';

const TIMEOUT_MS = 4_000;

function deps(resolve?: (host: string) => Promise<string[]>): DeliveryDeps {
  const config = { webhooks: { allowPrivate: ['127.0.0.1/32:*', 'hooks.internal:*'] } };
  const policy = webhookEgressPolicy(config as unknown as Parameters<typeof webhookEgressPolicy>[0]);
  return {
    config: { webhooks: { timeoutMs: TIMEOUT_MS } } as DeliveryDeps['config'],
    webhookEgress: policy,
    // The address check before the request resolves the test's names to loopback.
    lookup: () => Promise.resolve(['127.0.0.1']),
    webhookDispatcher: webhookDispatcher(policy, TIMEOUT_MS, resolve),
  } as unknown as DeliveryDeps;
}

describe('webhook delivery: an attempt the network stops', () => {
  test('when nothing listens on the port (or a policy rejects it), then the log says the connection was refused, where, and names the network policy', async () => {
    const port = await freePort();
    const d = deps();
    try {
      const attempt = await send(d, `http://127.0.0.1:${port}/hook`, {}, '{}');
      expect(attempt.statusCode).toBeNull();
      expect(attempt.error).toBe(
        `connection refused by 127.0.0.1:${port} (ECONNREFUSED): the service's network policy may not allow port ${port} (ask the operator), or nothing listens there`,
      );
    } finally {
      await d.webhookDispatcher.close();
    }
  });

  test('when the connection is never answered (a policy that drops the port), then the log says it could not connect within the connect limit', async () => {
    // The connection's own lookup never answers: as far as the client knows, like a SYN dropped.
    const d = deps(() => new Promise<string[]>(() => undefined));
    try {
      const attempt = await send(d, 'https://hooks.internal:8443/hook', {}, '{}');
      expect(attempt.statusCode).toBeNull();
      expect(attempt.error).toBe(
        `could not connect to hooks.internal:8443 within ${TIMEOUT_MS / 2} ms: the service's network policy may not allow port 8443 (ask the operator), or a firewall drops it, or the host is down`,
      );
    } finally {
      await d.webhookDispatcher.close();
    }
  });

  test('when the receiver accepts the connection but does not answer in time, then the log says it timed out after connecting', async () => {
    const sockets = new Set<import('node:net').Socket>();
    const silent: Server = createServer(() => undefined);
    silent.on('connection', (s) => sockets.add(s));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const d = deps();
    try {
      const port = (silent.address() as AddressInfo).port;
      const attempt = await send(d, `http://127.0.0.1:${port}/hook`, {}, '{}');
      expect(attempt.error).toBe(
        `timed out after ${TIMEOUT_MS} ms (connected, but no complete answer in time)`,
      );
    } finally {
      await d.webhookDispatcher.close().catch(() => undefined);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
