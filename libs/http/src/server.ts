import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@catalogue/logger';
import type { HttpApp } from './app';

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
