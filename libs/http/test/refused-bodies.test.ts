// A body refused before it was read to the end (over the limit, of a type no route takes, not
// decodable) leaves its keep-alive connection usable: the client's next request on the same socket
// is answered promptly, or the refusal said `Connection: close` and the connection closed.
import { connect, type Socket } from 'node:net';
import { Registry } from 'prom-client';
import { createLogger } from '@catalogue/logger';
import { createHttpApp, parseBody, Router, type AppContext, type AppState } from '@catalogue/http';
import { eventually, serveApp, type ServedApp } from '@catalogue/testing';
import { serve, type TestServer } from './helpers';

function routes() {
  const router = new Router<AppState, AppContext>();
  router.post('/echo', parseBody('1kb'), (ctx) => {
    ctx.body = { ok: true };
  });
  router.get('/ping', (ctx) => {
    ctx.body = { pong: true };
  });
  return router;
}

const NEXT_REQUEST = 'GET /ping HTTP/1.1\r\nHost: localhost\r\n\r\n';

/** A chunked body of `bytes` bytes of JSON-ish text, in 64 KiB chunks. */
function chunked(bytes: number): string {
  const chunk = 'a'.repeat(64 * 1024);
  let out = '';
  for (let sent = 0; sent < bytes; sent += chunk.length)
    out += `${chunk.length.toString(16)}\r\n${chunk}\r\n`;
  return `${out}0\r\n\r\n`;
}

interface Exchange {
  /** Everything the server sent. */
  text: string;
  /** Whether the server closed the connection. */
  closed: boolean;
  /** How long until the second answer (or the close) came. */
  ms: number;
}

/**
 * Writes `first` on a fresh connection, waits for the first answer, then writes the next request
 * on the same socket; resolves when two answers arrived, the server closed, or 5 s passed.
 */
function twoOnOneSocket(port: number, first: string): Promise<Exchange> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket: Socket = connect(port, '127.0.0.1');
    let text = '';
    let sentNext = false;
    const done = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closed, ms: Date.now() - started });
    };
    const timer = setTimeout(() => done(false), 5_000);
    socket.setEncoding('utf8');
    socket.on('error', () => undefined);
    socket.on('close', () => done(true));
    socket.on('data', (chunk: string) => {
      text += chunk;
      const answers = text.split('HTTP/1.1 ').length - 1;
      if (answers >= 1 && !sentNext && text.includes('}')) {
        sentNext = true;
        socket.write(NEXT_REQUEST);
      }
      if (answers >= 2 && text.endsWith('}')) done(false);
    });
    socket.write(first);
  });
}

const statuses = (text: string) => [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));

describe('a refused body leaves the connection usable', () => {
  let server: TestServer;
  let port: number;

  beforeAll(async () => {
    server = await serve([routes()]);
    port = Number(new URL(server.url).port);
  });
  afterAll(() => server.stop());

  test('when a chunked body goes past the limit, then it gets 413 and the next request on the same connection is answered at once', async () => {
    // Arrange: 4 MiB chunked to a route that takes 1 KiB.
    const head =
      'POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';

    // Act
    const exchange = await twoOnOneSocket(port, head + chunked(4 * 1024 * 1024));

    // Assert
    expect(statuses(exchange.text)).toEqual([413, 200]);
    expect(exchange.text).toContain('{"pong":true}');
    expect(exchange.ms).toBeLessThan(3_000);
  });

  test('when a body of an unaccepted type is sent, then it gets 415 and the next request on the same connection is answered at once', async () => {
    // Arrange: 2 MiB of text/plain, announced by its length.
    const body = 'x'.repeat(2 * 1024 * 1024);
    const head = `POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n`;

    // Act
    const exchange = await twoOnOneSocket(port, head + body);

    // Assert
    expect(statuses(exchange.text)).toEqual([415, 200]);
    expect(exchange.ms).toBeLessThan(3_000);
  });

  test('when a gzip body does not decompress, then it gets 400 and the next request on the same connection is answered at once', async () => {
    // Arrange: 2 MiB of bytes that are not gzip, chunked.
    const head =
      'POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n';

    // Act
    const exchange = await twoOnOneSocket(port, head + chunked(2 * 1024 * 1024));

    // Assert
    expect(statuses(exchange.text)).toEqual([400, 200]);
    expect(exchange.ms).toBeLessThan(3_000);
  });

  test('when an announced body is larger than what is ever discarded, then the refusal says Connection: close and the connection closes', async () => {
    // Arrange: 100 MiB announced, a little sent.
    const head = `POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n`;

    // Act
    const exchange = await twoOnOneSocket(port, `${head}{"a":"${'b'.repeat(10_000)}`);

    // Assert
    expect(statuses(exchange.text)).toEqual([413]);
    expect(exchange.text.toLowerCase()).toContain('connection: close');
    expect(exchange.closed).toBe(true);
    expect(exchange.ms).toBeLessThan(3_000);
  });
});

describe('a shed request with a body still arriving', () => {
  let server: ServedApp;

  beforeAll(async () => {
    const logger = createLogger({ service: 'test', level: 'silent' });
    // The pool would refuse: every request is shed at the door.
    const app = createHttpApp({
      logger,
      registry: new Registry(),
      readiness: [],
      routers: [routes()],
      databaseSaturated: () => true,
    });
    server = await serveApp(app, logger, 5_000);
  });
  afterAll(() => server.stop());

  test('when the rest of its body arrives with the next request, then the connection is not read for the shed pause, then both are answered', async () => {
    // Arrange
    const port = Number(new URL(server.url).port);
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    const head =
      'POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
    socket.write(`${head}2\r\n[]\r\n`);
    const until = (count: number) =>
      eventually(() => expect(statuses(text).length).toBeGreaterThanOrEqual(count));
    await until(1);
    expect(statuses(text)).toEqual([503]);
    const sent = Date.now();

    // Act: the end of the body, then another request (shed too).
    socket.write(`0\r\n\r\n${NEXT_REQUEST}`);
    await until(2);
    socket.destroy();

    // Assert: answered, but not before the pause ended.
    expect(statuses(text)).toEqual([503, 503]);
    expect(Date.now() - sent).toBeGreaterThanOrEqual(800);
    expect(Date.now() - sent).toBeLessThan(3_000);
  });
});
