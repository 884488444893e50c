/**
 * Rows of a query as raw bytes: `COPY (<query>) TO STDOUT (FORMAT binary)` through
 * pg-copy-streams, on a connection of the Knex's pool. node-postgres decodes every value of an
 * ordinary query into a JS string (UTF-8 to UTF-16, about 7 ms of Node per MB of text); COPY's
 * binary format hands the bytes over as they are, so a value that is sent on unchanged (the
 * list's stored pieces) is never decoded, copied into the heap or encoded again
 * (docs/decisions/0070-pre-serialised-list-items.md).
 *
 * Through a transaction-mode pooler: a COPY is one statement in its own implicit transaction,
 * sent with the simple protocol, which PgBouncer serves as any other statement. COPY takes no
 * bind parameters: the query's values must be inlined (knex's `toString()` quotes them).
 * The statement timeout is applied as for any statement outside a transaction: the client
 * cancels it when it outlives the limit (statement-timeout.ts).
 */
import type { Knex } from 'knex';
import { to as copyTo } from 'pg-copy-streams';
import { sendCancelRequest, statementTimeoutOf, type PgConnection } from './statement-timeout';

/** A row of a COPY: one value per column, its bytes as the server sent them (text: UTF-8), null for NULL. */
export type CopiedRow = (Buffer | null)[];

/** The signature, flags and header-extension length that open every binary COPY. */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** Splits a binary COPY's bytes into rows (PostgreSQL's documented format, "Binary Format"). */
export function parseBinaryCopy(data: Buffer): CopiedRow[] {
  if (data.length < 19 || !data.subarray(0, SIGNATURE.length).equals(SIGNATURE)) {
    throw new Error('not a binary COPY (no PGCOPY signature)');
  }
  let at = SIGNATURE.length + 4;
  at += 4 + data.readUInt32BE(at);
  const rows: CopiedRow[] = [];
  for (;;) {
    const fields = data.readInt16BE(at);
    at += 2;
    if (fields === -1) return rows;
    const row: CopiedRow = new Array<Buffer | null>(fields);
    for (let i = 0; i < fields; i++) {
      const length = data.readInt32BE(at);
      at += 4;
      if (length === -1) {
        row[i] = null;
      } else {
        if (at + length > data.length) throw new Error('a binary COPY cut short');
        row[i] = data.subarray(at, at + length);
        at += length;
      }
    }
    rows.push(row);
  }
}

interface PoolClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
}

/**
 * The rows of `query` (a SELECT with its values inlined) as raw bytes, on a connection of `db`'s
 * pool (its queue bound and wait budget apply), cancelled after the statement timeout.
 */
export async function copyRows(db: Knex, query: string): Promise<CopiedRow[]> {
  const timeoutMs = statementTimeoutOf(db);
  const client = db.client as unknown as PoolClient;
  const connection = (await client.acquireConnection()) as PgConnection;
  let timer: NodeJS.Timeout | undefined;
  try {
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve, reject) => {
      const stream = connection.query(copyTo(`COPY (${query}) TO STDOUT (FORMAT binary)`));
      if (timeoutMs > 0) timer = setTimeout(() => sendCancelRequest(connection), timeoutMs);
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (err: Error) => {
        // A COPY that failed part way leaves pg-copy-streams' reader attached to the connection's
        // socket (it throws on the next bytes once the stream is cleaned up): never lend it again.
        breakConnection(connection);
        reject(err);
      });
      stream.on('end', () => resolve());
    });
    return parseBinaryCopy(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
  } finally {
    clearTimeout(timer);
    await client.releaseConnection(connection);
  }
}

/**
 * Marks a connection that a COPY failed on as ended, as knex does when one ends: its release then
 * destroys it (pg's `release(true)`) instead of lending it again, and pg-copy-streams' reader,
 * still attached to its socket, never reads from it again.
 */
function breakConnection(connection: PgConnection): void {
  connection.__knex__disposed = 'a COPY failed part way';
}
