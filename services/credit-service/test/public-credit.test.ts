import { get } from 'node:http';
import { checkedFetch, serveServiceForTests } from '@catalogue/testing';

/**
 * A plain conditional GET. (fetch marks requests with If-None-Match as uncacheable, which
 * rightly makes a server answer 200, so it cannot show a cache's revalidation.)
 */
function conditionalGet(url: string, etag: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'If-None-Match': etag } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}
import { creditService } from '../src/service';

describe('GET /public/credit', () => {
  const service = serveServiceForTests(creditService);

  test('when asked without any credentials, then it answers the seeded price list', async () => {
    const res = await checkedFetch(`${service.url}/public/credit`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        { operation: 'listing_row_enrichment', unit: 'row', price: 1, description: expect.any(String) },
        { operation: 'serp_context', unit: 'generation', price: 5, description: expect.any(String) },
        { operation: 'web_research', unit: 'url', price: 3, description: expect.any(String) },
        {
          operation: 'widget_generation',
          unit: 'widget_language',
          price: 2,
          description: expect.any(String),
        },
      ],
    });
  });

  test('when a client revalidates with the ETag it has, then 304 without a body', async () => {
    const first = await fetch(`${service.url}/public/credit`);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=300');

    const again = await conditionalGet(`${service.url}/public/credit`, etag!);
    expect(again).toEqual({ status: 304, body: '' });
    const stale = await conditionalGet(`${service.url}/public/credit`, '"old"');
    expect(stale.status).toBe(200);
    expect(JSON.parse(stale.body)).toHaveProperty('data');
  });

  test('when nothing changed, then every response carries the same ETag', async () => {
    const first = (await fetch(`${service.url}/public/credit`)).headers.get('etag');
    const second = (await fetch(`${service.url}/public/credit`)).headers.get('etag');
    expect(second).toBe(first);
  });
});

describe('GET /public/credit under a burst', () => {
  // One connection and at most one request may wait for it: only an answer read once serves a burst.
  const service = serveServiceForTests(creditService, {
    DATABASE_POOL_MAX: '1',
    DATABASE_POOL_QUEUE_MAX: '1',
    RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000',
  });

  test('when 200 clients ask at the same moment, then every one gets the price list', async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, () =>
        fetch(`${service.url}/public/credit`).then(async (res) => ({
          status: res.status,
          count: ((await res.json()) as { data?: unknown[] }).data?.length,
        })),
      ),
    );

    expect(answers.filter((a) => a.status !== 200 || a.count !== 4)).toEqual([]);
  });
});
