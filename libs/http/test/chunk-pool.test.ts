import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ByteChunks,
  ChunkPool,
  chunkPool,
  jsonStream,
  pooledJsonStream,
  RawJsonBytes,
} from '@catalogue/http';

describe('ChunkPool', () => {
  test('when chunks are given back, then they are taken again before any new one, up to its bound', () => {
    const pool = new ChunkPool(16, 2);
    const [a, b, c] = [pool.take(), pool.take(), pool.take()];
    expect([a, b, c].every((chunk) => chunk.length === 16)).toBe(true);

    pool.give([a!, b!, c!, Buffer.alloc(8)]);

    expect(pool.freeCount).toBe(2);
    expect(new Set([pool.take(), pool.take()])).toEqual(new Set([a, b]));
    expect([a, b, c]).not.toContain(pool.take());
  });

  test('when a writer takes chunks that held an earlier answer, then it hands over only the bytes it wrote', () => {
    const pool = new ChunkPool(16);
    pool.give(Array.from({ length: 4 }, () => Buffer.alloc(16, 'X')));
    const out = new ByteChunks(16, pool);

    out.text('{"a":"ř"}');
    out.bytes(Buffer.from('0123456789abcdefg'));
    const chunks = out.takeAll();

    expect(Buffer.concat(chunks).toString()).toBe('{"a":"ř"}0123456789abcdefg');
    expect(out.taken.length).toBeGreaterThanOrEqual(2);
    expect(out.taken.every((chunk) => chunk.length === 16)).toBe(true);
  });

  test("when a writer's size is not its pool's, then it refuses to start", () => {
    expect(() => new ByteChunks(32, new ChunkPool(16))).toThrow(/16 bytes, not 32/);
  });
});

describe('pooledJsonStream', () => {
  /** A page of `items` items of `size` bytes of `letter`, as the list writes them (bytes). */
  const page = (letter: string, items: number, size: number) => ({
    data: Array.from({ length: items }, () => RawJsonBytes.of([Buffer.from(`"${letter.repeat(size)}"`)])),
    meta: { letter },
  });
  const expected = (letter: string, items: number, size: number) =>
    JSON.stringify({ data: Array.from({ length: items }, () => letter.repeat(size)), meta: { letter } });

  let server: http.Server;
  let url: string;
  /** Free chunks in the pool when each answer began and when its stream had given its last byte. */
  const free = new Map<string, { atStart: number; atStreamEnd?: number }>();
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const query = new URL(req.url!, 'http://x').searchParams;
      const letter = query.get('letter')!;
      const counts: { atStart: number; atStreamEnd?: number } = { atStart: chunkPool.freeCount };
      free.set(letter, counts);
      res.setHeader('content-type', 'application/json');
      const stream = pooledJsonStream(res, page(letter, Number(query.get('items') ?? 80), 30_000), 'data');
      stream.once('end', () => (counts.atStreamEnd = chunkPool.freeCount));
      stream.pipe(res);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** The answer's body, read at once or a little at a time with pauses (a slow client). */
  const get = async (letter: string, slow: boolean): Promise<string> => {
    const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get(`${url}/?letter=${letter}`, resolve).on('error', reject),
    );
    const parts: Buffer[] = [];
    for await (const part of res) {
      parts.push(part as Buffer);
      if (slow && parts.length % 8 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return Buffer.concat(parts).toString();
  };

  test("when answers are sent one after another, then each is exact and the later ones reuse the earlier ones' chunks", async () => {
    expect(await get('a', false)).toBe(expected('a', 80, 30_000));
    // 'finish' comes with the last write; the next answer may already be under way.
    await new Promise((resolve) => setImmediate(resolve));
    const free = chunkPool.freeCount;
    expect(free).toBeGreaterThan(0);

    expect(await get('b', false)).toBe(expected('b', 80, 30_000));
    await new Promise((resolve) => setImmediate(resolve));

    // The second answer took its chunks from the pool and gave them back.
    expect(chunkPool.freeCount).toBeGreaterThanOrEqual(free);
  });

  test('when the stream has given its last byte but the socket has not written it yet, then its chunks are still out of the pool', async () => {
    await get('m', false);
    await new Promise((resolve) => setImmediate(resolve));

    await get('n', true);

    // It took free chunks; at the stream's end its last writes are still under way, so they are
    // not free again yet.
    expect(free.get('n')!.atStart).toBeGreaterThan(0);
    expect(free.get('n')!.atStreamEnd).toBeLessThan(free.get('n')!.atStart);
  });

  test('when slow and fast clients read answers at once, then no answer carries bytes of another', async () => {
    const letters = 'cdefghij'.split('');
    const answers = await Promise.all(letters.map((letter, i) => get(letter, i % 2 === 0)));

    answers.forEach((answer, i) => expect(answer).toBe(expected(letters[i]!, 80, 30_000)));
  });

  test('when the client leaves before the answer is sent, then its chunks are not given back', async () => {
    await get('k', false);
    await new Promise((resolve) => setImmediate(resolve));
    const free = chunkPool.freeCount;
    const left = new Promise<void>((resolve) => {
      // 30 MB: more than the sockets' buffers hold, so the answer cannot have been written whole.
      const req = http.get(`${url}/?letter=l&items=1000`, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => {});
    });
    await left;
    await new Promise((resolve) => setTimeout(resolve, 100));

    // It took free chunks and gave none back.
    expect(chunkPool.freeCount).toBeLessThan(free);
  });

  test('when the answer is read, then it is the bytes jsonStream gives', async () => {
    let plain = '';
    for await (const chunk of jsonStream(page('z', 3, 40_000), 'data')) plain += String(chunk);
    expect(plain).toBe(expected('z', 3, 40_000));
  });
});
