import { jsonStream, RawJson } from '@catalogue/http';

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

  test('when the list is large, then it is sent in several chunks of at most about 32 KB', async () => {
    const chunks: string[] = [];
    const body = { data: Array.from({ length: 100 }, () => ({ html: 'x'.repeat(10_000) })), meta: {} };
    for await (const chunk of jsonStream(body, 'data')) chunks.push(String(chunk));
    expect(chunks.length).toBeGreaterThan(10);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(32 * 1024 + 10_100);
  });
});
