// Honest signals: a client that disconnects mid-body is a client abort (status 499 in the
// metrics, one debug line, no error with a stack), not a server error; CONNECT gets a JSON
// answer; requests refused for their method are labelled by why, not `unmatched`.
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { Registry } from 'prom-client';
import { createHttpApp, parseBody, Router, type AppContext, type AppState } from '@catalogue/http';
import { eventually, serveApp, type ServedApp } from '@catalogue/testing';

interface LogLine {
  level: number;
  msg: string;
  err?: unknown;
}

function routes() {
  const router = new Router<AppState, AppContext>();
  router.post('/echo', parseBody('1mb'), (ctx) => {
    ctx.body = { ok: true };
  });
  return router;
}

/** Sends `raw` on a plain TCP connection and returns what came back before it closed. */
function rawExchange(port: number, raw: string, opts: { destroyAfterWrite?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    socket.write(raw, () => {
      // Cut a moment after the write: the server is reading the body when the client goes.
      if (opts.destroyAfterWrite) setTimeout(() => socket.destroy(), 50);
    });
    setTimeout(() => socket.destroy(), 3_000); // a bound: no exchange here takes that long
  });
}

describe('client aborts and refused methods', () => {
  let server: ServedApp;
  let registry: Registry;
  const lines: LogLine[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          lines.push(JSON.parse(line) as LogLine);
        done();
      },
    });
    const logger = pino({ level: 'debug' }, sink);
    registry = new Registry();
    const app = createHttpApp({ logger, registry, readiness: [], routers: [routes()] });
    server = await serveApp(app, logger, 5_000);
  });
  afterAll(() => server.stop());

  const metricLines = async (filter: string) =>
    (await registry.metrics())
      .split('\n')
      .filter((l) => l.startsWith('http_request_duration_seconds_count') && l.includes(filter));

  test('when a client disconnects in the middle of its body, then it is counted as 499, logged at debug without a stack, and no 500 or error is recorded', async () => {
    // Arrange: a body announced as 1000 bytes, of which 10 arrive before the connection is cut.
    const port = Number(new URL(server.url).port);
    const head =
      'POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n';

    // Act
    await rawExchange(port, `${head}{"name": "`, { destroyAfterWrite: true });

    // Assert: once the request is over (counted and logged), it is a 499 and nothing else.
    const debugLine = () => lines.find((l) => l.msg === 'client closed the request before it was read');
    await eventually(async () => {
      expect(await metricLines('route="/echo"')).not.toEqual([]);
      expect(debugLine()).toBeDefined();
    });
    expect(await metricLines('route="/echo"')).toEqual([
      'http_request_duration_seconds_count{method="POST",route="/echo",status="499"} 1',
    ]);
    expect(await metricLines('status="500"')).toEqual([]);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    const debug = debugLine();
    expect(debug).toMatchObject({ level: 20 });
    expect(JSON.stringify(debug)).not.toContain('stack');
  });

  test('when a client sends CONNECT, then it gets a JSON 501, labelled method_not_implemented', async () => {
    const port = Number(new URL(server.url).port);
    const answer = await rawExchange(
      port,
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
    );

    expect(answer).toMatch(/^HTTP\/1\.1 501 Not Implemented\r\n/);
    expect(answer).toMatch(/content-type: application\/json/i);
    expect(answer.slice(answer.indexOf('\r\n\r\n') + 4)).toBe(
      JSON.stringify({ error: 'Method not implemented', code: 'method_not_implemented' }),
    );
    expect(await metricLines('method="CONNECT"')).toEqual([
      'http_request_duration_seconds_count{method="CONNECT",route="method_not_implemented",status="501"} 1',
    ]);
  });

  test('when a path is requested with a method it does not have, then 405 labelled method_not_allowed; an unknown path stays unmatched', async () => {
    const wrongMethod = await fetch(`${server.url}/echo`, { method: 'DELETE' });
    const unknown = await fetch(`${server.url}/nowhere`);

    expect(wrongMethod.status).toBe(405);
    expect(await wrongMethod.json()).toEqual({ error: 'Method not allowed', code: 'method_not_allowed' });
    expect(unknown.status).toBe(404);
    expect(await metricLines('method="DELETE"')).toEqual([
      'http_request_duration_seconds_count{method="DELETE",route="method_not_allowed",status="405"} 1',
    ]);
    expect(await metricLines('route="unmatched"')).toEqual([
      'http_request_duration_seconds_count{method="GET",route="unmatched",status="404"} 1',
    ]);
  });
});
