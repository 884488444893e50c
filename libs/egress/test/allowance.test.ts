// The operator's allowance for private targets names scheme, host or network, and port: allowing
// `127.0.0.1/32` for a receiver on 443 must not open Redis (6379) or PostgreSQL (5432) on the same
// address, at the check before a request nor at the connection (egressDispatcher).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  checkOutboundHost,
  egressDispatcher,
  EgressRefusal,
  parseAllowRule,
  policyFromList,
} from '@catalogue/egress';
import type { Dispatcher } from 'undici';

const check = (url: string, entries: string[], addresses = ['10.20.1.2']): Promise<{ private: boolean }> =>
  checkOutboundHost(new URL(url), policyFromList(entries), async () => addresses);

describe('private-target allowance (scheme, host, port)', () => {
  it('when an entry names a port, then only that port of the network is allowed', async () => {
    await expect(check('http://10.20.1.2:8080/hook', ['10.20.0.0/16:8080'])).resolves.toEqual({
      private: true,
    });
    await expect(check('http://10.20.1.2:6379/', ['10.20.0.0/16:8080'])).rejects.toThrow(
      new EgressRefusal('private address 10.20.1.2 port 6379 refused'),
    );
  });

  it('when an entry names no port, then only 80 and 443 (or the named scheme`s port) are allowed', async () => {
    await expect(check('https://10.20.1.2/', ['10.20.0.0/16'])).resolves.toEqual({ private: true });
    await expect(check('http://10.20.1.2/', ['10.20.0.0/16'])).resolves.toEqual({ private: true });
    await expect(check('http://10.20.1.2:5432/', ['10.20.0.0/16'])).rejects.toThrow(/port 5432 refused/);
    await expect(check('http://10.20.1.2/', ['https://10.20.0.0/16'])).rejects.toThrow(/port 80 refused/);
    await expect(check('https://127.0.0.1:6379/', ['127.0.0.1'], ['127.0.0.1'])).rejects.toThrow(
      /loopback address 127\.0\.0\.1 port 6379 refused/,
    );
  });

  it('when an entry names scheme, host and port, then only that combination passes, whatever the host resolves to', async () => {
    const entries = ['https://hooks.internal:8443'];
    await expect(check('https://hooks.internal:8443/x', entries)).resolves.toEqual({ private: true });
    await expect(check('http://hooks.internal:8443/x', entries)).rejects.toThrow(/private address/);
    await expect(check('https://hooks.internal/x', entries)).rejects.toThrow(
      'private address 10.20.1.2 refused',
    );
    await expect(check('https://HOOKS.internal:8443/', entries)).resolves.toEqual({ private: true });
  });

  it('when the target is public, then it is not private (its answer may be kept)', async () => {
    await expect(check('https://example.test:8443/', ['10.0.0.0/8:*'], ['93.184.215.14'])).resolves.toEqual({
      private: false,
    });
  });

  it.each([
    ['10.0.0.0/8:*', { ports: 'any' }],
    ['[fd00::/8]:8080', { ports: new Set([8080]) }],
    ['fd00::/8', { ports: new Set([80, 443]) }],
    ['http://hooks.internal', { host: 'hooks.internal', scheme: 'http', ports: new Set([80]) }],
  ])('when the entry is %s, then it parses', (entry, expected) => {
    expect(parseAllowRule(entry)).toMatchObject(expected);
  });

  it.each([
    '10.0.0.0/8:0',
    '10.0.0.0/8:70000',
    'ftp://hooks.internal',
    'hooks_internal',
    '10.0.0.0/40',
    'a:b',
  ])('when the entry is %s, then it is refused with its text', (entry) => {
    expect(() => parseAllowRule(entry)).toThrow(entry);
  });
});

describe('egressDispatcher with a port allowance', () => {
  let allowed: Server;
  let other: Server;
  let requests = 0;
  const listen = async (): Promise<Server> => {
    const server = createServer((_req, res) => {
      requests += 1;
      res.end('secret');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return server;
  };
  const portOf = (s: Server): number => (s.address() as AddressInfo).port;
  beforeAll(async () => {
    [allowed, other] = await Promise.all([listen(), listen()]);
  });
  afterAll(async () => {
    await Promise.all([allowed, other].map((s) => new Promise((resolve) => s.close(resolve))));
  });

  it('when a loopback port is allowed, then the connection to it is made and one to another port is refused', async () => {
    const dispatcher: Dispatcher = egressDispatcher(
      policyFromList([`127.0.0.1/32:${portOf(allowed)}`]),
      async () => ['127.0.0.1'],
    );
    const through = { dispatcher } as RequestInit;
    const ok = await fetch(`http://hooks.test:${portOf(allowed)}/`, through);
    const refused = await fetch(`http://hooks.test:${portOf(other)}/`, through).then(
      () => null,
      (err: Error & { cause?: unknown }) => err.cause,
    );
    await dispatcher.close();

    expect([ok.status, await ok.text()]).toEqual([200, 'secret']);
    expect(String(refused)).toMatch(
      new RegExp(`loopback address 127\\.0\\.0\\.1 port ${portOf(other)} refused`),
    );
    expect(requests).toBe(1);
  });
});
