import { createServer, type RequestListener } from 'node:http';
import { loadConfig } from '@catalogue/config';

/**
 * A baseline's HTTP server on `port` as the service listens: on the service's default number of
 * sockets (`HTTP_LISTEN_SOCKETS`, SO_REUSEPORT), each a server of the same handler, with the
 * service's keep-alive timeout. A busy Node process accepts one connection per listening socket
 * per turn of its loop (docs/decisions/0112-listening-sockets-for-bursts-of-connections.md): on
 * one socket a baseline would meet each round's new connections later than the service, and
 * its p99 would carry that. Returns the stop: every socket closed, its connections cut, then
 * `stopped`.
 */
export function listenAsTheService(handler: RequestListener, port: number, stopped: () => void): () => void {
  const sockets = loadConfig({}).http.listenSockets;
  const servers = Array.from({ length: sockets }, () => {
    const server = createServer(handler);
    server.keepAliveTimeout = 65_000; // as the service's startHttpServer
    server.listen({ port, host: '127.0.0.1', reusePort: sockets > 1 });
    return server;
  });
  return () => {
    let open = servers.length;
    for (const server of servers) {
      server.close(() => {
        open -= 1;
        if (open === 0) stopped();
      });
      server.closeAllConnections();
    }
  };
}
