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
 * UTF-8 bytes written straight into chunks of a fixed size: a byte range is copied in, a string
 * encoded in place. No Buffer object is made per piece or per string, and a chunk is the only
 * allocation (one per 32 KB written).
 */
export class ByteChunks {
  private chunk: Buffer;
  private at = 0;
  private full: Buffer[] = [];

  constructor(private readonly size = BYTE_CHUNK) {
    this.chunk = Buffer.allocUnsafe(size);
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
    if (this.at) out.push(this.chunk.subarray(0, this.at));
    this.chunk = Buffer.allocUnsafe(this.size);
    this.at = 0;
    return out;
  }

  private spill(): void {
    this.full.push(this.chunk);
    this.chunk = Buffer.allocUnsafe(this.size);
    this.at = 0;
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

export function jsonStream(body: Record<string, unknown>, key: string): Readable {
  function* chunks(): Generator<string | Buffer> {
    let out = '{';
    let first = true;
    // RawJsonBytes items: written into byte chunks, with the text before them.
    let bytes: ByteChunks | undefined;
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
