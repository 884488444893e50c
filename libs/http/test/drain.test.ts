import { connect, type Socket } from 'node:net';
import { Router, createHttpApp, startHttpServer, type AppContext, type AppState } from '@catalogue/http';
import { createLogger } from '@catalogue/logger';
import { Registry } from 'prom-client';

interface Answer {
  status: number;
  headers: Record<string, string>;
}

/**
 * One GET on an open keep-alive socket, read up to the end of its body (Content-Length). A plain
 * socket, not node:http: a nock interceptor left active in the jest worker by another test file
 * replaces node:http's sockets, and then no connection is ever reused.
 */
function getOn(socket: Socket, host: string, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine = '', ...lines] = buffered.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const at = line.indexOf(':');
        if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
      }
      if (buffered.length < end + 4 + Number(headers['content-length'] ?? 0)) return;
      socket.off('data', onData);
      socket.off('error', reject);
      resolve({ status: Number(statusLine.split(' ')[1]), headers });
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: keep-alive\r\n\r\n`);
  });
}

describe('HTTP server drain (stop)', () => {
  test('when stopped, then during the pre-stop delay an idle keep-alive connection still serves, answering with Connection: close', async () => {
    const logger = createLogger({ service: 'test', level: 'silent' });
    const router = new Router<AppState, AppContext>();
    router.get('/ping', (ctx) => {
      ctx.body = { ok: true };
    });
    const app = createHttpApp({ logger, registry: new Registry(), readiness: [], routers: [router] });
    const server = await startHttpServer(app, {
      port: 0,
      host: '127.0.0.1',
      logger,
      shutdownTimeoutMs: 5_000,
      shutdownDelayMs: 500,
    });
    const host = `127.0.0.1:${server.port}`;
    const socket = connect(server.port, '127.0.0.1');
    try {
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
      const before = await getOn(socket, host, '/ping');
      expect(before.status).toBe(200);
      expect(before.headers.connection).toBe('keep-alive');

      const stopped = server.stop();
      // The connection idle when the drain began is used again, not reset, and told to close.
      const during = await getOn(socket, host, '/ping');
      expect(during.status).toBe(200);
      expect(during.headers.connection).toBe('close');
      await stopped;
    } finally {
      socket.destroy();
    }
  });
});
