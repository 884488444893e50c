import { createServer, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@catalogue/logger';
import type { HttpApp } from './app';
import type { ErrorCode } from './codes';

export interface RunningServer {
  server: Server;
  port: number;
  /**
   * Stops accepting connections, lets in-flight requests finish (up to the timeout, then
   * cuts what is left) and resolves when the server is closed.
   */
  stop(): Promise<void>;
}

export async function startHttpServer(
  app: HttpApp,
  opts: { port: number; host?: string; logger: Logger; shutdownTimeoutMs: number },
): Promise<RunningServer> {
  const server = createServer(app.callback());
  server.on('clientError', answerClientError);
  // Longer than typical load-balancer idle timeouts, so the balancer closes first.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  opts.logger.info({ port }, 'listening');

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Keep-alive connections that are idle (or become idle once their response is
      // written) are closed as they go; after the timeout the rest are cut.
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      const deadline = setTimeout(() => {
        opts.logger.warn('shutdown timeout reached; closing remaining connections');
        server.closeAllConnections();
      }, opts.shutdownTimeoutMs);
      server.once('close', () => {
        clearInterval(sweep);
        clearTimeout(deadline);
      });
      server.closeIdleConnections();
    }));
  return { server, port, stop };
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
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
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
