import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/** Chunks of about this many UTF-16 code units: well below V8's large-object size. */
const CHUNK = 32 * 1024;

/**
 * A JSON response body written in chunks of about 32 KB: exactly the bytes
 * `JSON.stringify(body)` gives (the same keys in the same order, `undefined` left out), with
 * the array `body[key]` serialised item by item (a `RawJson` item as the text it holds).
 *
 * Why: a list page of 100 items with their content is about 1.4 MB of JSON. As one string (and
 * then one buffer) each response puts megabytes into V8's large-object space, which only a
 * full mark-compact of the whole heap frees; a service's heap is several times a bare
 * handler's, so those collections cost it several times more (measured: 2.5 ms of GC per list
 * request against a bare Koa handler's 0.7 ms). Chunks this size die young instead. The answer
 * is sent with chunked transfer encoding rather than a Content-Length.
 */
/**
 * A value already serialised: `jsonStream` writes `json` as it is. Anything else that serialises
 * it (`JSON.stringify`, a test's `ctx.body` read) sees the value it stands for, through `toJSON`.
 */
export class RawJson {
  constructor(readonly json: string) {}

  toJSON(): unknown {
    return JSON.parse(this.json);
  }
}

/** JSON.stringify as it answers: undefined for a value without a JSON form (undefined, a function, a symbol). */
function stringify(value: unknown): string | undefined {
  return JSON.stringify(value);
}

/** Output chunks of this many bytes (jsonStream's byte items, `ByteChunks`). */
const BYTE_CHUNK = 32 * 1024;

/**
 * Output chunks kept for the next answers once an answer that used them has been sent
 * (`ChunkPool`): enough for a few list pages of 1.4 MB, a few megabytes held at most.
 */
const POOLED_CHUNKS = 256;

/**
 * Output chunks of `BYTE_CHUNK` bytes reused from answer to answer.
 *
 * Why: V8 counts the bytes of every new ArrayBuffer against the old generation's allocation
 * limit until the next mark-compact, so an answer that allocates its 1.4 MB of chunks afresh
 * brings the next full collection of the whole heap closer, though the chunks die young; a list
 * load ran a mark-compact every page or two, with about 100 ms of concurrent marking each.
 * A chunk goes back only when the answer that held it was sent whole (`pooledJsonStream`): by
 * then the socket has written it and nothing refers to it. The chunks hold earlier answers' bytes: a
 * writer sends only what it wrote into them (`ByteChunks` cuts the last one to it).
 */
export class ChunkPool {
  private readonly free: Buffer[] = [];

  constructor(
    readonly size = BYTE_CHUNK,
    private readonly max = POOLED_CHUNKS,
  ) {}

  /** A chunk of `size` bytes, reused if one is free. */
  take(): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafeSlow(this.size);
  }

  /** Chunks nothing refers to any more, kept up to the pool's bound. */
  give(chunks: readonly Buffer[]): void {
    for (const chunk of chunks) {
      if (this.free.length >= this.max) return;
      if (chunk.length === this.size) this.free.push(chunk);
    }
  }

  /** Chunks free now. */
  get freeCount(): number {
    return this.free.length;
  }
}

/** The process's pool of answers' chunks (`pooledJsonStream`). */
export const chunkPool = new ChunkPool();

/**
 * UTF-8 bytes written straight into chunks of a fixed size: a byte range is copied in, a string
 * encoded in place. No Buffer object is made per piece or per string, and a chunk is the only
 * allocation (one per 32 KB written; none when a pool has one free). Every chunk taken from the
 * pool is listed in `taken`, for the pool to have back once the answer is sent.
 */
export class ByteChunks {
  private chunk: Buffer;
  private at = 0;
  private full: Buffer[] = [];
  /** Every whole chunk this writer took from its pool. */
  readonly taken: Buffer[] = [];

  constructor(
    private readonly size = BYTE_CHUNK,
    private readonly pool?: ChunkPool,
  ) {
    if (pool && pool.size !== size)
      throw new Error(`ByteChunks: the pool's chunks are ${pool.size} bytes, not ${size}`);
    this.chunk = this.fresh();
  }

  /** The bytes of `source` from `start` to `end`. */
  bytes(source: Buffer, start = 0, end = source.length): void {
    for (let from = start; from < end;) {
      const n = Math.min(end - from, this.size - this.at);
      source.copy(this.chunk, this.at, from, from + n);
      this.at += n;
      from += n;
      if (this.at === this.size) this.spill();
    }
  }

  /** The UTF-8 bytes of `text`. */
  text(text: string): void {
    // At most 3 bytes per UTF-16 code unit.
    if (text.length * 3 <= this.size - this.at) this.at += this.chunk.write(text, this.at);
    else this.bytes(Buffer.from(text));
  }

  /** Bytes written and not yet taken. */
  get length(): number {
    return this.full.length * this.size + this.at;
  }

  /** The full chunks written so far, handed over. */
  takeFull(): Buffer[] {
    const out = this.full;
    this.full = [];
    return out;
  }

  /** Everything not yet taken, the last chunk cut to what it holds; the writer starts empty. */
  takeAll(): Buffer[] {
    const out = this.takeFull();
    if (this.at) {
      out.push(this.chunk.subarray(0, this.at));
      this.chunk = this.fresh();
      this.at = 0;
    }
    return out;
  }

  private spill(): void {
    this.full.push(this.chunk);
    this.chunk = this.fresh();
    this.at = 0;
  }

  private fresh(): Buffer {
    if (!this.pool) return Buffer.allocUnsafe(this.size);
    const chunk = this.pool.take();
    this.taken.push(chunk);
    return chunk;
  }
}

/**
 * A value already serialised, as UTF-8 bytes that `write` puts into the answer's chunks (pieces
 * read from the database as bytes and the text between them): `jsonStream` calls it when the
 * item's turn comes, so the item's bytes exist only in the chunks being sent. Anything else that
 * serialises it sees the value it stands for, through `toJSON`.
 */
export class RawJsonBytes {
  constructor(readonly write: (out: ByteChunks) => void) {}

  /** An item of bytes already in parts. */
  static of(parts: readonly Buffer[]): RawJsonBytes {
    return new RawJsonBytes((out) => {
      for (const part of parts) out.bytes(part);
    });
  }

  toJSON(): unknown {
    const out = new ByteChunks();
    this.write(out);
    return JSON.parse(Buffer.concat(out.takeAll()).toString('utf8'));
  }
}

/**
 * The answer's stream; its `RawJsonBytes` items are written by `writer` (a `ByteChunks` of its
 * own by default).
 */
export function jsonStream(body: Record<string, unknown>, key: string, writer?: ByteChunks): Readable {
  function* chunks(): Generator<string | Buffer> {
    let out = '{';
    let first = true;
    // RawJsonBytes items: written into byte chunks, with the text before them.
    let bytes: ByteChunks | undefined = writer;
    const flush = (): Buffer[] => {
      bytes!.text(out);
      out = '';
      return bytes!.takeAll();
    };
    for (const [name, value] of Object.entries(body)) {
      const separator = first ? '' : ',';
      if (name === key && Array.isArray(value)) {
        out += `${separator}${JSON.stringify(name)}:[`;
        for (let i = 0; i < value.length; i++) {
          // As JSON.stringify does for an array element that has no JSON form.
          const item: unknown = value[i];
          if (item instanceof RawJsonBytes) {
            bytes ??= new ByteChunks();
            if (i) out += ',';
            if (out) {
              bytes.text(out);
              out = '';
            }
            item.write(bytes);
            yield* bytes.takeFull();
            continue;
          }
          out += `${i ? ',' : ''}${item instanceof RawJson ? item.json : (stringify(item) ?? 'null')}`;
          if (out.length >= CHUNK) {
            if (bytes?.length) yield* flush();
            else yield out;
            out = '';
          }
        }
        out += ']';
      } else {
        const text = stringify(value);
        if (text === undefined) continue;
        out += `${separator}${JSON.stringify(name)}:${text}`;
      }
      first = false;
    }
    out += '}';
    if (bytes?.length) yield* flush();
    else yield out;
  }
  return Readable.from(chunks(), { objectMode: false });
}

/**
 * `jsonStream` for `res`, its byte chunks taken from the process's `chunkPool` and given back
 * once `res` has sent the answer whole ('finish': its last write is done, and the socket
 * writes in order). An answer cut short (the client gone, an error) gives nothing back: its
 * chunks are left to the collector, as a socket may still hold them.
 */
export function pooledJsonStream(res: ServerResponse, body: Record<string, unknown>, key: string): Readable {
  const writer = new ByteChunks(BYTE_CHUNK, chunkPool);
  res.once('finish', () => chunkPool.give(writer.taken));
  return jsonStream(body, key, writer);
}
