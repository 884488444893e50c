/**
 * Rows of a query as raw bytes: `COPY (<query>) TO STDOUT (FORMAT binary)` read from the socket of
 * a connection of the Knex's pool (`CopyToRows`). node-postgres decodes every value of an
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
import type pg from 'pg';
import { sendCancelRequest, statementTimeoutOf, type PgConnection } from './statement-timeout';

/** A row of a COPY: one value per column, its bytes as the server sent them (text: UTF-8), null for NULL. */
export type CopiedRow = (Buffer | null)[];

/** The signature, flags and header-extension length that open every binary COPY. */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/**
 * Reads bytes in order from a list of buffers: a run that lies in one buffer is a view of it, one
 * that crosses into the next is copied (the only copies).
 */
class Cursor {
  private i = 0;
  private at = 0;

  constructor(private readonly parts: readonly Buffer[]) {}

  take(n: number): Buffer {
    this.skipEmpty();
    const part = this.parts[this.i];
    if (part && this.at + n <= part.length) {
      const out = part.subarray(this.at, this.at + n);
      this.at += n;
      return out;
    }
    const out = Buffer.allocUnsafe(n);
    for (let filled = 0; filled < n;) {
      this.skipEmpty();
      const from = this.parts[this.i];
      if (!from) throw new Error('a binary COPY cut short');
      const k = Math.min(n - filled, from.length - this.at);
      from.copy(out, filled, this.at, this.at + k);
      filled += k;
      this.at += k;
    }
    return out;
  }

  int16(): number {
    this.skipEmpty();
    const part = this.parts[this.i];
    if (part && this.at + 2 <= part.length) return part.readInt16BE((this.at += 2) - 2);
    return this.take(2).readInt16BE(0);
  }

  int32(): number {
    this.skipEmpty();
    const part = this.parts[this.i];
    if (part && this.at + 4 <= part.length) return part.readInt32BE((this.at += 4) - 4);
    return this.take(4).readInt32BE(0);
  }

  private skipEmpty(): void {
    while (this.i < this.parts.length && this.at === this.parts[this.i]!.length) {
      this.i++;
      this.at = 0;
    }
  }
}

/**
 * Splits a binary COPY's bytes (one buffer, or its CopyData contents in order) into rows
 * (PostgreSQL's documented format, "Binary Format"). Values are views of the given buffers; a
 * value that crosses from one into the next is copied.
 */
export function parseBinaryCopy(data: Buffer | readonly Buffer[]): CopiedRow[] {
  const cursor = new Cursor(Buffer.isBuffer(data) ? [data] : data);
  const cut = (fn: () => Buffer) => {
    try {
      return fn();
    } catch {
      throw new Error('not a binary COPY (no PGCOPY signature)');
    }
  };
  if (!cut(() => cursor.take(SIGNATURE.length)).equals(SIGNATURE)) {
    throw new Error('not a binary COPY (no PGCOPY signature)');
  }
  cursor.int32(); // flags
  cursor.take(cursor.int32()); // header extension
  const rows: CopiedRow[] = [];
  for (;;) {
    const fields = cursor.int16();
    if (fields === -1) return rows;
    const row: CopiedRow = new Array<Buffer | null>(fields);
    for (let i = 0; i < fields; i++) {
      const length = cursor.int32();
      row[i] = length === -1 ? null : cursor.take(length);
    }
    rows.push(row);
  }
}

interface PoolClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
}

/** node-postgres's reader of the socket: a function of its chunks (checked when the COPY starts). */
const isReader = (listener: unknown): listener is (chunk: Buffer) => void => typeof listener === 'function';

/** The backend message of a row's bytes (PostgreSQL's protocol, "Message Formats"): CopyData, 'd'. */
const COPY_DATA = 0x64;
/** Sent before the data, or at any time: read past. */
const SKIPPED = new Set([
  0x48 /* CopyOutResponse */, 0x4e /* Notice */, 0x53 /* ParameterStatus */, 0x41 /* Notification */,
]);

/**
 * `COPY … TO STDOUT` as a query object of node-postgres (the "submittable" interface
 * pg-copy-streams also uses): while the COPY runs it takes the socket's chunks from node-postgres's
 * reader and keeps each CopyData content as a view of the chunk it arrived in (copied only when
 * it crosses into the next chunk); at CopyDone, or at anything else (an error), it gives the
 * socket back with the bytes not yet read, and node-postgres reads the rest (CommandComplete,
 * ErrorResponse, ReadyForQuery) and calls `handle*` as for any query.
 *
 * pg-copy-streams' stream, used before, read the socket with `read()` (which joins the chunks
 * waiting) and joined each message and each batch of messages into new zero-filled buffers: three
 * new buffers per byte received, which cost more than the rest of the list together.
 */
class CopyToRows implements pg.Submittable {
  readonly contents: Buffer[] = [];
  private stream!: pg.Connection['stream'];
  private pgReader!: (chunk: Buffer) => void;
  /** The header of the message being read (5 bytes: its code and length), while incomplete. */
  private head = Buffer.alloc(5);
  private headLength = 0;
  /** Bytes still to come of the current message's content, and its parts so far (CopyData). */
  private remaining = 0;
  private code = 0;
  private parts: Buffer[] = [];
  private settled = false;
  /**
   * Set by node-postgres when the pool has a `query_timeout`: its wrapper clears the read
   * timeout's timer. Called when the COPY ends; otherwise that timer would run out the timeout
   * (32 s) holding this query and every byte it received.
   */
  callback: ((error: Error | null) => void) | undefined;

  constructor(
    private readonly text: string,
    private readonly settle: (error: Error | undefined) => void,
  ) {}

  submit(connection: pg.Connection): void {
    this.stream = connection.stream;
    const readers = this.stream.listeners('data');
    const reader = readers[0];
    if (readers.length !== 1 || !isReader(reader)) {
      throw new Error(`a COPY found ${readers.length} readers on the socket`);
    }
    this.pgReader = reader;
    this.stream.removeListener('data', reader);
    this.stream.on('data', this.onData);
    connection.query(this.text);
  }

  private readonly onData = (chunk: Buffer): void => {
    let at = 0;
    while (at < chunk.length) {
      if (this.remaining > 0) {
        const n = Math.min(this.remaining, chunk.length - at);
        if (this.code === COPY_DATA) this.parts.push(chunk.subarray(at, at + n));
        this.remaining -= n;
        at += n;
        if (this.remaining === 0) this.endOfMessage();
        continue;
      }
      const n = Math.min(5 - this.headLength, chunk.length - at);
      chunk.copy(this.head, this.headLength, at, at + n);
      this.headLength += n;
      at += n;
      if (this.headLength < 5) return;
      this.headLength = 0;
      this.code = this.head[0]!;
      this.remaining = this.head.readInt32BE(1) - 4;
      if (this.code === COPY_DATA || SKIPPED.has(this.code)) {
        if (this.remaining === 0) this.endOfMessage();
        continue;
      }
      // CopyDone or anything else (ErrorResponse): node-postgres reads it and what follows.
      this.giveBack(Buffer.concat([this.head, chunk.subarray(at)]));
      return;
    }
  };

  private endOfMessage(): void {
    if (this.code === COPY_DATA) {
      this.contents.push(this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts));
      this.parts = [];
    }
  }

  private giveBack(unread: Buffer): void {
    this.stream.removeListener('data', this.onData);
    this.stream.on('data', this.pgReader);
    this.pgReader(unread);
  }

  // node-postgres's calls, once it reads the socket again.
  handleCopyData(): void {}
  handleCommandComplete(): void {}
  // An error settles at once: when the socket died no ReadyForQuery follows (node-postgres then
  // queues the next query until the server is ready again).
  handleError(error: Error): void {
    this.done(error);
  }
  handleReadyForQuery(): void {
    this.done(undefined);
  }

  private done(error: Error | undefined): void {
    if (this.settled) return;
    this.settled = true;
    this.callback?.(error ?? null);
    this.settle(error);
  }
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
    const contents = await new Promise<Buffer[]>((resolve, reject) => {
      const copy: CopyToRows = new CopyToRows(`COPY (${query}) TO STDOUT (FORMAT binary)`, (error) => {
        if (error) {
          breakConnection(connection);
          reject(error);
        } else resolve(copy.contents);
      });
      if (timeoutMs > 0) timer = setTimeout(() => sendCancelRequest(connection), timeoutMs);
      connection.query(copy);
    });
    return parseBinaryCopy(contents);
  } finally {
    clearTimeout(timer);
    await client.releaseConnection(connection);
  }
}

/**
 * Marks a connection that a COPY failed on as ended, as knex does when one ends: its release then
 * destroys it (pg's `release(true)`) instead of lending it again. The reader gives the socket
 * back at the first message it does not read, but a COPY that failed (cancelled, or its socket
 * gone) is rare enough that a fresh connection is the cheaper certainty.
 */
function breakConnection(connection: PgConnection): void {
  connection.__knex__disposed = 'a COPY failed part way';
}
