// A TCP relay in front of PostgreSQL that counts what the services send through it: bytes each
// way, statements and round trips, read from the frontend messages of the wire protocol
// (a 1-byte type and a 4-byte length; the startup message has no type). Used by
// bench:capacity to measure the database load per unit of work.
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface PgCounts {
  /** Bytes the clients sent to PostgreSQL. */
  bytesToServer: number;
  /** Bytes PostgreSQL sent back. */
  bytesFromServer: number;
  /** Statements: simple queries ('Q') and executions of the extended protocol ('E'). */
  statements: number;
  /** Round trips: each simple query or Sync ('S') waits for ReadyForQuery. */
  roundTrips: number;
  /** Connections opened through the relay. */
  connections: number;
}

export interface PgCounter {
  port: number;
  counts(): PgCounts;
  close(): Promise<void>;
}

/** Counts the frontend messages of one connection, whatever the chunking. */
function frontendParser(counts: PgCounts): (chunk: Buffer) => void {
  let startup = true;
  let skip = 0;
  let header = Buffer.alloc(0);
  return (chunk) => {
    let i = 0;
    while (i < chunk.length) {
      if (skip > 0) {
        const n = Math.min(skip, chunk.length - i);
        skip -= n;
        i += n;
        continue;
      }
      const size = startup ? 4 : 5;
      const take = Math.min(size - header.length, chunk.length - i);
      header = Buffer.concat([header, chunk.subarray(i, i + take)]);
      i += take;
      if (header.length < size) break;
      if (startup) {
        // StartupMessage or SSLRequest: a length, then the rest of the message.
        skip = header.readInt32BE(0) - 4;
        startup = header.readInt32BE(0) === 8; // an SSLRequest is followed by the real startup
      } else {
        const type = String.fromCharCode(header[0]!);
        if (type === 'Q') {
          counts.statements += 1;
          counts.roundTrips += 1;
        } else if (type === 'E') counts.statements += 1;
        else if (type === 'S') counts.roundTrips += 1;
        skip = header.readInt32BE(1) - 4;
      }
      header = Buffer.alloc(0);
    }
  };
}

/** Listens on a free loopback port and relays every connection to `target`. */
export async function startPgCounter(target: { host: string; port: number }): Promise<PgCounter> {
  const counts: PgCounts = {
    bytesToServer: 0,
    bytesFromServer: 0,
    statements: 0,
    roundTrips: 0,
    connections: 0,
  };
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    counts.connections += 1;
    const upstream = connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    const parse = frontendParser(counts);
    client.on('data', (chunk: Buffer) => {
      counts.bytesToServer += chunk.length;
      parse(chunk);
      if (!upstream.write(chunk)) client.pause();
    });
    upstream.on('drain', () => client.resume());
    upstream.on('data', (chunk: Buffer) => {
      counts.bytesFromServer += chunk.length;
      if (!client.write(chunk)) upstream.pause();
    });
    client.on('drain', () => upstream.resume());
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const s of [client, upstream]) {
      s.on('close', end);
      s.on('error', end);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    counts: () => ({ ...counts }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
