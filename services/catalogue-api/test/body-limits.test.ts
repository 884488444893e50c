import { makeEshop, serveServiceForTests } from '@catalogue/testing';
import { catalogueApi } from '../src/service';
import { LIMITS } from '../src/schemas/items.contract';
import { client } from './helpers';

/**
 * The import body limit and the field limits agree (docs/decisions/0004-catalogue-api-v1-v2-imports.md): 100 products with every
 * text field at its limit in one language fit in one request; a body above the limit is 413.
 * A queue prefix of its own: no other test file's worker renders these 21 MB of products.
 */
describe('catalogue-api: import body limit vs field limits', () => {
  const service = serveServiceForTests(catalogueApi, {
    QUEUE_PREFIX: `${process.env.TEST_QUEUE_PREFIX}-body-limits`,
  });

  const text = (length: number): string => 'x'.repeat(length);
  const longest = (index: number) => {
    const id = `LIMIT-${index}-`.padEnd(LIMITS.id, 'i');
    const url = 'https://shop.test/'.padEnd(LIMITS.url, 'u');
    return {
      id,
      name: { default: text(LIMITS.name) },
      url: { default: url },
      seo_title: { default: text(LIMITS.seo_title) },
      seo_description: { default: text(LIMITS.seo_description) },
      short_description: { default: text(LIMITS.short_description) },
      description: { default: `<p>${text(LIMITS.description - 7)}</p>` },
    };
  };

  test('when 100 products carry every text field at its limit, then the import takes them all', async () => {
    const { eshop, apiToken } = await makeEshop(service.deps.db);
    const items = Array.from({ length: 100 }, (_, i) => longest(i));

    const res = await client(service.url, apiToken).post('/api/v2/rest/products', items);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, imported: 100, skipped: 0 });
    const stored = await service.deps
      .db('products')
      .where({ eshop_id: eshop.id })
      .count<{ count: number }[]>('*');
    expect(stored[0]!.count).toBe(100);
  });

  test('when the body is larger than the import limit, then 413 with code body_too_large and nothing is stored', async () => {
    const { eshop, apiToken } = await makeEshop(service.deps.db);
    const body = JSON.stringify([
      { id: 'BIG', name: { default: 'Big' }, description: { default: text(33 * 1024 * 1024) } },
    ]);

    const res = await client(service.url, apiToken).post('/api/v2/rest/products', body);

    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'Request body too large', code: 'body_too_large' });
    expect(await service.deps.db('products').where({ eshop_id: eshop.id }).first()).toBeUndefined();
  });
});
