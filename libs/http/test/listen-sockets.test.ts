import { connect, createServer, type Socket } from 'node:net';
import {
  Router,
  createHttpApp,
  startHttpServer,
  type AppContext,
  type AppState,
  type RunningServer,
} from '@catalogue/http';
import { createLogger } from '@catalogue/logger';
import { Registry } from 'prom-client';

const logger = createLogger({ service: 'test', level: 'silent' });

/** A server with `/ping` and `/slow` (answers after `ms`, default 300), on `listenSockets` sockets. */
async function serve(listenSockets: number, shutdownTimeoutMs = 5_000): Promise<RunningServer> {
  const router = new Router<AppState, AppContext>();
  router.get('/ping', (ctx) => {
    ctx.body = { ok: true };
  });
  router.get('/slow', async (ctx) => {
    await new Promise((resolve) => setTimeout(resolve, Number(ctx.query.ms ?? 300)));
    ctx.body = { slow: true };
  });
  const app = createHttpApp({ logger, registry: new Registry(), readiness: [], routers: [router] });
  return startHttpServer(app, {
    port: 0,
    host: '127.0.0.1',
    logger,
    shutdownTimeoutMs,
    listenSockets,
    releaseIdleMemory: false,
  });
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket)).once('error', reject);
  });
}

/** Sends `request` on the socket and reads the answer, up to the end of its JSON body or of the connection. */
function ask(socket: Socket, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const done = () => {
      socket.off('data', onData).off('end', done).off('error', reject);
      resolve(text);
    };
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (text.includes('\r\n\r\n') && text.trimEnd().endsWith('}')) done();
    };
    socket.on('data', onData).on('end', done).on('error', reject);
    socket.write(request);
  });
}

const GET = (path: string) => `GET ${path} HTTP/1.1\r\nHost: test\r\nConnection: keep-alive\r\n\r\n`;

/**
 * How many turns of a busy event loop pass before `count` connections opened at once have all
 * been accepted: every turn burns 20 ms, as a loop busy with large answers does.
 */
async function turnsToAccept(server: RunningServer, count: number): Promise<number> {
  let accepted = 0;
  let turns = 0;
  let acceptedBy = -1;
  const onConnection = () => {
    accepted += 1;
    if (accepted === count) acceptedBy = turns;
  };
  server.server.on('connection', onConnection);
  const sockets: Socket[] = [];
  try {
    for (let i = 0; i < count; i++)
      sockets.push(connect(server.port, '127.0.0.1').on('error', () => undefined));
    await new Promise<void>((resolve) => {
      const burn = () => {
        turns += 1;
        const until = Date.now() + 20;
        while (Date.now() < until);
        if (acceptedBy >= 0 || turns > 4 * count) resolve();
        else setImmediate(burn);
      };
      setImmediate(burn);
    });
    return acceptedBy;
  } finally {
    server.server.off('connection', onConnection);
    for (const socket of sockets) socket.destroy();
  }
}

describe('HTTP server on several listening sockets (HTTP_LISTEN_SOCKETS)', () => {
  test('when 64 connections arrive together while every turn of the event loop is busy, then 16 sockets accept them in a fraction of the turns one socket needs', async () => {
    const one = await serve(1);
    const sixteen = await serve(16);
    try {
      const withOne = await turnsToAccept(one, 64);
      const withSixteen = await turnsToAccept(sixteen, 64);
      // One socket: one connection a turn (libuv accepts once per readable listener and turn).
      expect(withOne).toBeGreaterThanOrEqual(60);
      // Sixteen: the kernel spreads the 64 over the sockets (by hash, so not evenly).
      expect(withSixteen).toBeGreaterThan(0);
      expect(withSixteen).toBeLessThan(32);
    } finally {
      await one.stop();
      await sixteen.stop();
    }
  });

  test('when connections land on the extra sockets, then each is one HTTP server: keep-alive requests answered, a malformed request answered in JSON and closed', async () => {
    const server = await serve(8);
    // Node keeps the listener that accepted a connection on it (`_server`, not in its types).
    let byExtraSockets = 0;
    server.server.on('connection', (socket: Socket & { _server?: unknown }) => {
      if (socket._server !== server.server) byExtraSockets += 1;
    });
    const sockets = await Promise.all(Array.from({ length: 24 }, () => open(server.port)));
    try {
      expect(byExtraSockets).toBeGreaterThan(0);
      for (const socket of sockets) {
        expect(await ask(socket, GET('/ping'))).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*\{"ok":true\}$/);
        // The same connection again: kept alive.
        expect(await ask(socket, GET('/ping'))).toMatch(/^HTTP\/1\.1 200 OK/);
      }
      const bad = await ask(sockets[0]!, 'NOT A REQUEST\r\n\r\n');
      expect(bad).toMatch(/^HTTP\/1\.1 400 Bad Request[\s\S]*"code":"bad_request"/);
    } finally {
      for (const socket of sockets) socket.destroy();
      await server.stop();
    }
  });

  test('when stopped with requests in flight on every socket, then each is answered, stop resolves after them (their idle connections closed after the grace), and no socket accepts any more', async () => {
    const server = await serve(8);
    const sockets = await Promise.all(Array.from({ length: 24 }, () => open(server.port)));
    try {
      const answers = sockets.map((socket) => ask(socket, GET('/slow?ms=400')));
      await new Promise((resolve) => setTimeout(resolve, 100));
      let stopped = false;
      const stopping = server.stop().then(() => (stopped = true));
      await new Promise((resolve) => setTimeout(resolve, 150));
      // The requests still run: the stop waits for them.
      expect(stopped).toBe(false);
      for (const text of await Promise.all(answers))
        expect(text).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*\{"slow":true\}$/);
      await stopping;
      const refused = await Promise.all(
        Array.from({ length: 32 }, () =>
          open(server.port).then(
            () => 'connected',
            (err: NodeJS.ErrnoException) => err.code,
          ),
        ),
      );
      expect(new Set(refused)).toEqual(new Set(['ECONNREFUSED']));
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });

  test('when requests on every socket outlast the shutdown timeout, then the stop cuts them and resolves', async () => {
    const server = await serve(8, 300);
    const sockets = await Promise.all(Array.from({ length: 24 }, () => open(server.port)));
    try {
      const answers = sockets.map((socket) => ask(socket, GET('/slow?ms=20000')));
      await new Promise((resolve) => setTimeout(resolve, 100));
      let stopped = false;
      void server.stop().then(() => (stopped = true));
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(stopped).toBe(true);
      // Each connection was closed without an answer.
      expect(await Promise.all(answers)).toEqual(sockets.map(() => ''));
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });

  test('when another process holds the port, then the start fails with EADDRINUSE, as on one socket', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const address = holder.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const router = new Router<AppState, AppContext>();
    const app = createHttpApp({ logger, registry: new Registry(), readiness: [], routers: [router] });
    try {
      await expect(
        startHttpServer(app, {
          port: address.port,
          host: '127.0.0.1',
          logger,
          shutdownTimeoutMs: 1_000,
          listenSockets: 16,
          releaseIdleMemory: false,
        }),
      ).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
