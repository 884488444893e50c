// DNS rebinding: a host that answers with a public address when it is checked and with a private
// one when the connection is made. egressDispatcher resolves at the connection through the same
// rules, so the connection is refused and the private server never sees the request.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkOutboundHost, egressDispatcher } from '@catalogue/egress';
import type { Dispatcher } from 'undici';

/** Node's fetch takes undici's `dispatcher`; the DOM's RequestInit type does not name it. */
const through = (
  dispatcher: Dispatcher,
  init: RequestInit = {},
): RequestInit & { dispatcher: Dispatcher } => ({
  ...init,
  dispatcher,
});

describe('egressDispatcher (the connection side of the egress rules)', () => {
  let server: Server;
  let port: number;
  let requests = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      requests += 1;
      res.end('private');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    requests = 0;
  });

  /** A host whose first answer is public and every later one the private server's address. */
  function rebinding(): (host: string) => Promise<string[]> {
    let asked = 0;
    return async () => (asked++ === 0 ? ['93.184.215.14'] : ['127.0.0.1']);
  }

  it('when the host answers with a public address at the check and a loopback one at the connection, then the connection is refused and nothing is sent', async () => {
    const resolve = rebinding();
    const url = new URL(`http://rebind.test:${port}/hook`);
    const dispatcher = egressDispatcher({ allowLoopback: false }, resolve);

    await checkOutboundHost(url, { allowLoopback: false }, resolve);
    const failure = await fetch(url, through(dispatcher, { method: 'POST', body: '{}' })).then(
      () => null,
      (err: Error & { cause?: unknown }) => err.cause,
    );
    await dispatcher.close();

    // The cause is our EgressRefusal; under Jest, fetch runs in another realm and passes it on as
    // an Error carrying its text.
    expect(String(failure)).toMatch(/EgressRefusal: loopback address 127\.0\.0\.1 refused/);
    expect(requests).toBe(0);
  });

  it('when the operator allows the address or names the host, then the connection is made', async () => {
    const loopback = async () => ['127.0.0.1'];
    const allowed = egressDispatcher({ allowLoopback: true }, loopback);
    const named = egressDispatcher({ allowLoopback: false, hosts: new Set(['hooks.internal']) }, loopback);

    const byAddress = await fetch(`http://rebind.test:${port}/`, through(allowed));
    const byName = await fetch(`http://hooks.internal:${port}/`, through(named));
    await Promise.all([allowed.close(), named.close()]);

    expect([byAddress.status, await byAddress.text()]).toEqual([200, 'private']);
    expect(byName.status).toBe(200);
    expect(requests).toBe(2);
  });
});
