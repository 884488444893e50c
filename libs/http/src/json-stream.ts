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

/**
 * A value already serialised, as UTF-8 bytes in parts (pieces read from the database as bytes,
 * and the text between them): `jsonStream` writes the parts as they are, never decoding them.
 * Anything else that serialises it sees the value it stands for, through `toJSON`.
 */
export class RawJsonBytes {
  constructor(
    readonly parts: readonly Buffer[],
    readonly length: number,
  ) {}

  toJSON(): unknown {
    return JSON.parse(Buffer.concat(this.parts, this.length).toString('utf8'));
  }
}

export function jsonStream(body: Record<string, unknown>, key: string): Readable {
  function* chunks(): Generator<string | Buffer> {
    let out = '{';
    let first = true;
    // RawJsonBytes items: the bytes gathered for the next chunk, with the text before them.
    let pending: Buffer[] = [];
    let size = 0;
    const gather = (parts: readonly Buffer[], length: number) => {
      if (out) {
        const text = Buffer.from(out);
        pending.push(text);
        size += text.length;
        out = '';
      }
      pending.push(...parts);
      size += length;
    };
    const take = (): Buffer => {
      const chunk = Buffer.concat(pending, size);
      pending = [];
      size = 0;
      return chunk;
    };
    for (const [name, value] of Object.entries(body)) {
      const separator = first ? '' : ',';
      if (name === key && Array.isArray(value)) {
        out += `${separator}${JSON.stringify(name)}:[`;
        for (let i = 0; i < value.length; i++) {
          // As JSON.stringify does for an array element that has no JSON form.
          const item: unknown = value[i];
          if (item instanceof RawJsonBytes) {
            if (i) out += ',';
            gather(item.parts, item.length);
            if (size >= CHUNK) yield take();
            continue;
          }
          out += `${i ? ',' : ''}${item instanceof RawJson ? item.json : ((JSON.stringify(item) as string | undefined) ?? 'null')}`;
          if (out.length >= CHUNK) {
            if (size) {
              gather([], 0);
              yield take();
            } else {
              yield out;
            }
            out = '';
          }
        }
        out += ']';
      } else {
        const text = JSON.stringify(value) as string | undefined;
        if (text === undefined) continue;
        out += `${separator}${JSON.stringify(name)}:${text}`;
      }
      first = false;
    }
    out += '}';
    if (size) {
      gather([], 0);
      yield take();
    } else {
      yield out;
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}
