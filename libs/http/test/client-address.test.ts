// Which address a request counts as (every per-address budget and lockout uses ctx.ip): the
// connection's peer, unless that peer is a configured trusted proxy, whose X-Forwarded-For is
// then followed leftwards up to the first address that is not a trusted proxy.
import { Router, type AppContext, type AppState } from '@catalogue/http';
import { clientAddress, trustedNetworks } from '../src/client-address';
import { serve, type TestServer } from './helpers';

function whoRoutes() {
  const router = new Router<AppState, AppContext>();
  router.get('/who', (ctx) => {
    ctx.body = { ip: ctx.ip, host: ctx.host, protocol: ctx.protocol };
  });
  return router;
}

async function who(server: TestServer, headers: Record<string, string>) {
  const res = await fetch(`${server.url}/who`, { headers });
  return (await res.json()) as { ip: string; host: string; protocol: string };
}

const LOOPBACK = /^(127\.0\.0\.1|::1)$/;

describe('client address: no trusted proxy (the default)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serve([whoRoutes()]);
  });
  afterAll(() => server.stop());

  test('when a client sends X-Forwarded-For, then it is ignored: the connection peer is the client', async () => {
    const seen = await who(server, {
      'X-Forwarded-For': '203.0.113.7',
      'X-Forwarded-Host': 'evil.example',
      'X-Forwarded-Proto': 'https',
    });
    expect(seen.ip).toMatch(LOOPBACK);
    expect(seen.host).not.toBe('evil.example');
    expect(seen.protocol).toBe('http');
  });
});

describe('client address: the loopback is a trusted proxy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serve([whoRoutes()], { trustedProxies: ['127.0.0.0/8', '::1', '10.0.0.0/8'] });
  });
  afterAll(() => server.stop());

  test('when the trusted proxy forwards a client address, then it is the client', async () => {
    const seen = await who(server, {
      'X-Forwarded-For': '203.0.113.7',
      'X-Forwarded-Host': 'shop.example',
      'X-Forwarded-Proto': 'https',
    });
    expect(seen).toEqual({ ip: '203.0.113.7', host: 'shop.example', protocol: 'https' });
  });

  test('when the client prepends its own entries, then only the first untrusted address from the right counts', async () => {
    // The client sent "1.1.1.1, 2.2.2.2"; the ingress (10.0.0.5 behind the trusted hop) appended.
    const seen = await who(server, { 'X-Forwarded-For': '1.1.1.1, 2.2.2.2, 198.51.100.9, 10.0.0.5' });
    expect(seen.ip).toBe('198.51.100.9');
  });

  test('when the header holds garbage, then the trusted proxy itself is the client', async () => {
    const seen = await who(server, { 'X-Forwarded-For': 'not-an-address' });
    expect(seen.ip).toMatch(LOOPBACK);
  });
});

describe('clientAddress()', () => {
  test('when the peer is an IPv4-mapped IPv6 address of a trusted network, then it is trusted', () => {
    const list = trustedNetworks(['192.0.2.0/24']);
    expect(clientAddress('::ffff:192.0.2.10', '203.0.113.1', list)).toBe('203.0.113.1');
    expect(clientAddress('::ffff:192.0.3.10', '203.0.113.1', list)).toBe('192.0.3.10');
  });

  test('when every hop is trusted, then the leftmost entry is the client', () => {
    const list = trustedNetworks(['10.0.0.0/8']);
    expect(clientAddress('10.0.0.1', '10.1.1.1, 10.2.2.2', list)).toBe('10.1.1.1');
  });

  test('when a network is not an address or CIDR, then it is refused', () => {
    expect(() => trustedNetworks(['10.0.0.0/33'])).toThrow(
      '"10.0.0.0/33" is not an IP address or CIDR network',
    );
    expect(() => trustedNetworks(['ingress'])).toThrow();
  });
});
