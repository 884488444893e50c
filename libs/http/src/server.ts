import { createServer, ServerResponse, STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '@catalogue/logger';
import type { HttpApp } from './app';
import type { ErrorCode } from './codes';
import { releaseMemoryWhenIdle } from './idle-memory';
import { isObject } from './objects';

export interface RunningServer {
  server: Server;
  port: number;
  /**
   * Drains and stops: keeps serving for the pre-stop delay, then stops accepting connections,
   * lets in-flight requests finish (up to the timeout, then cuts what is left) and resolves
   * when the server is closed. Every response from the first moment of the drain carries
   * `Connection: close`, so keep-alive clients learn to reconnect elsewhere instead of having
   * their connection reset under them.
   */
  stop(): Promise<void>;
}

export interface HttpServerOptions {
  port: number;
  host?: string;
  logger: Logger;
  /** How long in-flight requests may run after the listener closed; then they are cut. */
  shutdownTimeoutMs: number;
  /**
   * How long the server keeps accepting and serving after stop() is called (Kubernetes keeps
   * routing traffic to a terminating pod for a few seconds). 0 by default.
   */
  shutdownDelayMs?: number;
  /**
   * How long a keep-alive connection that is idle when the listener closes may still send one
   * last request (answered with `Connection: close`) before it is closed.
   */
  idleGraceMs?: number;
  /**
   * Whether the process returns the memory of a burst once idle (releaseMemoryWhenIdle; on by
   * default: a service process serves one server). A process that starts many servers, as a
   * test file does, leaves it off: the collection is a whole-process full collection.
   */
  releaseIdleMemory?: boolean;
  /**
   * Listening sockets on the port (`HTTP_LISTEN_SOCKETS`; 1 by default): more than one are bound
   * with SO_REUSEPORT and hand their connections to the one HTTP server (see listenOn).
   */
  listenSockets?: number;
}

const DEFAULT_IDLE_GRACE_MS = 1_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function startHttpServer(app: HttpApp, opts: HttpServerOptions): Promise<RunningServer> {
  const handle = app.callback();
  let draining = false;
  /** Requests being answered on each open connection (0: idle keep-alive connection). */
  const inFlight = new Map<Socket, number>();
  // One listener for every response, not a closure and a `once` wrapper per request: a response
  // closes once, and its request's socket is the one it was counted on.
  function answered(this: ServerResponse): void {
    const socket = this.req.socket;
    inFlight.set(socket, Math.max(0, (inFlight.get(socket) ?? 1) - 1));
  }
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    res.on('close', answered);
    // Node ends the connection after this response; the client knows it before sending more.
    if (draining) res.setHeader('Connection', 'close');
    void handle(req, res);
  });
  server.on('clientError', answerClientError);
  // CONNECT (a tunnel request) is handed to 'connect' listeners, not to the request handler;
  // without one Node closes the connection without a word. The app answers it like any other
  // method no route has (JSON 501, counted in the metrics), then the connection closes.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket);
    res.once('finish', () => {
      res.detachSocket(socket);
      socket.end();
    });
    socket.once('error', () => socket.destroy());
    void handle(req, res);
  });
  server.on('connection', (socket: Socket) => {
    inFlight.set(socket, 0);
    socket.once('close', () => inFlight.delete(socket));
  });
  // Longer than typical load-balancer idle timeouts, so the balancer closes first.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const { port, acceptors } = await listenOn(server, opts);
  opts.logger.info({ port, listen_sockets: acceptors.length + 1 }, 'listening');
  // Every service process serves HTTP (the worker its probes and metrics): this is where each
  // returns the memory of a burst once it is idle (idle-memory.ts says why).
  const stopReleasing =
    opts.releaseIdleMemory === false ? () => undefined : releaseMemoryWhenIdle({ logger: opts.logger });

  /** Closes the connections that are idle now; busy ones close after their response. */
  const closeIdle = (): void => {
    for (const [socket, count] of inFlight) if (count === 0) socket.end();
  };

  const drain = async (): Promise<void> => {
    draining = true;
    stopReleasing();
    if (opts.shutdownDelayMs) {
      opts.logger.info({ delay_ms: opts.shutdownDelayMs }, 'draining: still serving before closing');
      await sleep(opts.shutdownDelayMs);
    }
    await new Promise<void>((resolve) => {
      const deadline = setTimeout(() => {
        opts.logger.warn('shutdown timeout reached; closing remaining connections');
        server.closeAllConnections();
      }, opts.shutdownTimeoutMs);
      // net.Server's close only stops accepting: http.Server's own close() would also destroy
      // every idle keep-alive connection at once, racing clients that are sending on it. Each
      // listener's close calls back once the connections it accepted have closed.
      void Promise.all(
        [server, ...acceptors].map(
          (listener) =>
            new Promise<void>((closed) => NetServer.prototype.close.call(listener, () => closed())),
        ),
      ).then(() => {
        clearTimeout(deadline);
        clearTimeout(grace);
        resolve();
      });
      // A connection idle now may carry a request already on its way: give it a moment.
      const grace = setTimeout(closeIdle, opts.idleGraceMs ?? DEFAULT_IDLE_GRACE_MS);
    });
  };

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => (stopping ??= drain());
  return { server, port, stop };
}

/** Binds `listener` to `port` (0: any free port), with SO_REUSEPORT or not; resolves with the port bound. */
function listen(
  listener: NetServer,
  port: number,
  opts: HttpServerOptions,
  reusePort: boolean,
): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen({ port, host: opts.host, reusePort }, () => {
      listener.off('error', reject);
      const address = listener.address();
      // Listening on a host and port (not a pipe): the address says which port (0 asks for any).
      if (address === null || typeof address === 'string')
        reject(new Error(`not listening on a port: ${address}`));
      else resolve(address.port);
    });
  });
}

/**
 * Binds the server's port, on `listenSockets` sockets. Node's event loop (libuv, since 1.45)
 * accepts one connection per listening socket per turn: while every turn is busy with answers
 * (a list page is milliseconds of the loop's time), connections that arrive together — a burst
 * of new clients, a proxy opening its pool, clients that do not keep connections alive — wait
 * in the kernel's queue for one turn each, so the last of 200 waited seconds before the server
 * saw its request, even to refuse it. With SO_REUSEPORT the kernel spreads new connections over
 * several sockets, each accepted once a turn. The further sockets are plain listeners that hand
 * each connection to the one HTTP server (its `connection` event), so parsing, timeouts,
 * draining and the connection bookkeeping stay in one place. Where SO_REUSEPORT is not
 * available the server listens on one socket, as Node does by default.
 */
async function listenOn(
  server: Server,
  opts: HttpServerOptions,
): Promise<{ port: number; acceptors: NetServer[] }> {
  const sockets = opts.listenSockets ?? 1;
  if (sockets <= 1) return { port: await listen(server, opts.port, opts, false), acceptors: [] };
  let port: number;
  try {
    port = await listen(server, opts.port, opts, true);
  } catch (err) {
    // A port in use is refused here too, and the start fails with it.
    port = await listen(server, opts.port, opts, false);
    opts.logger.warn({ err, listen_sockets: sockets }, 'SO_REUSEPORT refused: listening on one socket');
    return { port, acceptors: [] };
  }
  const acceptors: NetServer[] = [];
  try {
    for (let i = 1; i < sockets; i++) {
      // As http.Server configures its own listener (allowHalfOpen, noDelay).
      const acceptor = new NetServer({ allowHalfOpen: true, noDelay: true });
      acceptor.on('connection', (socket: Socket) => server.emit('connection', socket));
      acceptors.push(acceptor);
      await listen(acceptor, port, opts, true);
    }
  } catch (err) {
    server.close();
    for (const acceptor of acceptors) acceptor.close();
    throw err;
  }
  return { port, acceptors };
}

const CLIENT_ERRORS: Record<string, [number, string, ErrorCode]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request header fields too large', 'headers_too_large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timeout', 'request_timeout'],
};

/**
 * Requests Node's HTTP parser refuses before Koa sees them (a method HTTP does not know, a
 * malformed request line or header) are answered in JSON like every other error, with the
 * status Node itself would send; then the connection is closed, as Node does.
 */
function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  // As Node's own handler: nothing to write on a reset or closed socket, nor while the response
  // to an earlier request of the connection is being written (it would be corrupted).
  // Node keeps the response being written on the socket as `_httpMessage` (not in its types).
  const inFlight = '_httpMessage' in socket ? socket._httpMessage : undefined;
  if (err.code === 'ECONNRESET' || !socket.writable || (isObject(inFlight) && inFlight.headersSent)) {
    socket.destroy();
    return;
  }
  const [status, error, code] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'Bad request', 'bad_request'];
  const body = JSON.stringify({ error, code });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
