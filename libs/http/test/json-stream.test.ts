import { ByteChunks, jsonStream, RawJson, RawJsonBytes } from '@catalogue/http';

async function text(body: Record<string, unknown>, key: string): Promise<string> {
  let out = '';
  for await (const chunk of jsonStream(body, key)) out += String(chunk);
  return out;
}

describe('jsonStream', () => {
  test.each([
    [
      'a page with large items',
      { data: Array.from({ length: 40 }, (_, i) => ({ i, html: 'é'.repeat(5_000) })), meta: { total: 40 } },
    ],
    [
      'items and keys JSON.stringify leaves out or turns into null',
      { data: [{ a: 1, b: undefined }, undefined, null, 'x'], u: undefined, meta: null },
    ],
    ['an empty list after another key', { meta: { total: 0 }, data: [] }],
    ['a key that is not an array', { data: 'text', other: [1, 2] }],
    [
      'pre-serialised items among others',
      { data: [new RawJson('{"a":"é\\n","b":[1,{}]}'), { c: 2 }, new RawJson('null')], meta: { total: 3 } },
    ],
  ])('when the body is %s, then the chunks are the bytes of JSON.stringify', async (_name, body) => {
    expect(await text(body as Record<string, unknown>, 'data')).toBe(JSON.stringify(body));
  });

  test('when an item is pre-serialised, then its text is written as it is, not serialised again', async () => {
    const raw = '{"b":1,  "a":"x"}';
    expect(await text({ data: [new RawJson(raw)] }, 'data')).toBe(`{"data":[${raw}]}`);
  });

  /** An item as the list makes it from pieces read as bytes: parts cut at piece boundaries. */
  const bytesOf = (json: string) => {
    const parts = json.split(/(?=")/).map((part) => Buffer.from(part));
    return RawJsonBytes.of(parts);
  };
  const bytes = async (body: Record<string, unknown>) => {
    const chunks: Buffer[] = [];
    for await (const chunk of jsonStream(body, 'data')) chunks.push(Buffer.from(chunk as Buffer | string));
    return { chunks, text: Buffer.concat(chunks).toString('utf8') };
  };

  test('when items are bytes in parts, mixed with others, then the answer has the bytes of JSON.stringify in chunks of about 32 KB', async () => {
    const values = Array.from({ length: 60 }, (_, i) => ({
      i,
      html: `Žluťoučký ${'é'.repeat(3_000)} 🪑 ${i}`,
    }));
    const data = values.map((v, i) =>
      i % 7 === 3 ? new RawJson(JSON.stringify(v)) : i % 5 === 1 ? v : bytesOf(JSON.stringify(v)),
    );
    const body = { data, meta: { total: 60 } };

    const { chunks, text: answer } = await bytes(body);

    expect(answer).toBe(JSON.stringify({ data: values, meta: { total: 60 } }));
    expect(chunks.length).toBeGreaterThan(5);
    // Text is cut at about 32 K code units (up to twice as many bytes), bytes at about 32 KB.
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(2 * 32 * 1024 + 7_000);
    expect(JSON.parse(JSON.stringify(data[0]))).toEqual(values[0]);
  });

  test('when ranges and texts cross the chunks, then the chunks hold exactly their bytes, each chunk full but the last', () => {
    const out = new ByteChunks(64);
    const source = Buffer.from('ab"ř🪑'.repeat(40));
    const expected: Buffer[] = [];
    for (let i = 0; i < 30; i++) {
      const start = (i * 7) % 50;
      out.bytes(source, start, start + 3 + i * 5);
      expected.push(source.subarray(start, start + 3 + i * 5));
      const text = `ž${'x'.repeat(i * 4)}🪑`;
      out.text(text);
      expected.push(Buffer.from(text));
    }
    const total = Buffer.concat(expected).length;
    expect(out.length).toBe(total);

    const chunks = out.takeAll();

    expect(Buffer.concat(chunks).equals(Buffer.concat(expected))).toBe(true);
    expect(chunks.slice(0, -1).every((c) => c.length === 64)).toBe(true);
    expect(out.length).toBe(0);
  });

  test('when the only item is bytes, then nothing is lost before or after it', async () => {
    expect((await bytes({ data: [bytesOf('{"a":"ř"}')], meta: null })).text).toBe(
      '{"data":[{"a":"ř"}],"meta":null}',
    );
    expect((await bytes({ meta: 1, data: [bytesOf('1'), bytesOf('"x"')] })).text).toBe(
      '{"meta":1,"data":[1,"x"]}',
    );
  });

  test('when the list is large, then it is sent in several chunks of at most about 32 KB', async () => {
    const chunks: string[] = [];
    const body = { data: Array.from({ length: 100 }, () => ({ html: 'x'.repeat(10_000) })), meta: {} };
    for await (const chunk of jsonStream(body, 'data')) chunks.push(String(chunk));
    expect(chunks.length).toBeGreaterThan(10);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(32 * 1024 + 10_100);
  });
});
