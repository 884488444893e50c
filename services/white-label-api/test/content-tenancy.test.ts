import { adminService, authChangePublisher, type AuthChangePublisher } from '@catalogue/admin';
import { eventually, testConfig, type Method } from '@catalogue/testing';
import { contentService } from './content-helpers';

describe('white-label-api: content operations never cross eshops', () => {
  const svc = contentService();
  // Eshop changes reach the API's auth cache as an operator makes them: through the admin
  // service, which publishes them after the commit.
  let changes: AuthChangePublisher;
  beforeAll(() => {
    changes = authChangePublisher(testConfig(), (text) => {
      throw new Error(text);
    });
  });
  afterAll(() => changes.close());

  /** Eshop A with product P1 (section + faq, edited) and page PG1 (section). */
  async function arrangeA() {
    const a = await svc.shop();
    await a.register('P1');
    await a.register('PG1', 'page');
    await a.add('P1', 'section');
    await a.add('P1', 'faq');
    await a.call('PUT', '/content/P1/type/product', {
      '1': { children: [{ id: 2, value: { default: 'A only' } }] },
    });
    const section = await svc.widgetOf('section');
    await a.call('POST', '/content/PG1/type/page', { widget_id: section.id });
    return { a, product: await a.stored('P1'), page: await a.stored('PG1', 'page') };
  }

  test('when eshop B has not registered the ids, then every operation on A entity ids is 404 and A content is unchanged', async () => {
    const { a, product, page } = await arrangeA();
    const b = await svc.shop();
    const section = await svc.widgetOf('section');
    const calls: [Method, string, unknown?][] = [
      ['GET', '/content/P1/type/product'],
      ['POST', '/content/P1/type/product', { widget_id: section.id }],
      ['POST', '/content/P1/type/product', { ord: [2, 1] }],
      [
        'PUT',
        '/content/P1/type/product',
        { '1': { children: [{ id: 2, value: { default: 'B was here' } }] } },
      ],
      ['DELETE', '/content/P1/type/product/widget/1'],
      [
        'POST',
        '/content/element-copy/P1/type/product',
        { action: 'remove', index: 0, contentId: 2, parent: '0' },
      ],
      ['POST', '/content/dom/P1/type/product'],
      ['POST', '/content/copy-widget', { source_entity_id: 'PG1', target_entity_id: 'P1', type: 'page' }],
      ['POST', '/content/copy-widget', { source_entity_id: 'P1', target_entity_id: 'P2', type: 'product' }],
    ];
    for (const [method, path, body] of calls) {
      const res = await b.call(method, path, body);
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    expect(await a.stored('P1')).toEqual(product);
    expect(await a.stored('PG1', 'page')).toEqual(page);
    expect((await a.call('GET', '/content/P1/type/product')).body.map((w) => w.id)).toEqual([1, 2]);
  });

  test('when eshop B registers the same ids, then it sees only its own (empty) content and guessed widget ids do not exist', async () => {
    const { a, product, page } = await arrangeA();
    const b = await svc.shop();
    await b.register('P1');
    await b.register('P2');
    await b.register('PG1', 'page');

    expect(await b.call('GET', '/content/P1/type/product')).toEqual({ status: 200, body: [] });
    expect((await b.call('POST', '/content/dom/P1/type/product')).body.data.html).toBe('');
    expect((await b.call('DELETE', '/content/P1/type/product/widget/1')).status).toBe(404);
    const put = await b.call('PUT', '/content/P1/type/product', {
      '1': { children: [{ id: 2, value: { default: 'B was here' } }] },
    });
    expect(put.body.errors).toEqual({ '1': ['The content widget 1 does not exist.'] });
    const copy = await b.call('POST', '/content/element-copy/P1/type/product', {
      action: 'copy',
      index: 0,
      contentId: 1,
    });
    expect(copy.body.errors).toEqual({ contentId: ['The selected contentId is invalid.'] });
    expect((await b.call('POST', '/content/P1/type/product', { ord: [1, 2] })).status).toBe(422);
    const fromA = await b.call('POST', '/content/copy-widget', {
      source_entity_id: 'P1',
      target_entity_id: 'P2',
      type: 'product',
    });
    expect(fromA.body.errors).toEqual({ source_entity_id: ['The source entity has no content to copy.'] });

    // B's own edit lands in B's row only.
    const section = await svc.widgetOf('section');
    const own = await b.call('POST', '/content/P1/type/product', { widget_id: section.id });
    expect(own.body.map((w) => w.id)).toEqual([1]);
    expect((await b.stored('P1'))?.tree).toHaveLength(1);
    expect(await b.stored('P2')).toBeUndefined();

    expect(await a.stored('P1')).toEqual(product);
    expect(await a.stored('PG1', 'page')).toEqual(page);
  });

  test('when the licence has lapsed, then content operations are 403 and nothing changes', async () => {
    const { a, product } = await arrangeA();
    await adminService(svc.deps.db, { authChanged: changes.authChanged }).updateEshop(a.id, {
      licenceValidUntil: '2020-01-01',
    });
    await eventually(
      async () => expect((await a.call('GET', '/content/P1/type/product')).status).toBe(403),
      5_000,
    );
    const section = await svc.widgetOf('section');
    for (const [method, path, body] of [
      ['GET', '/content/P1/type/product'],
      ['POST', '/content/P1/type/product', { widget_id: section.id }],
      ['DELETE', '/content/P1/type/product/widget/1'],
    ] as [Method, string, unknown?][]) {
      const res = await a.call(method, path, body);
      expect([method, res.status, res.body]).toEqual([
        method,
        403,
        { error: 'The white-label licence of this eshop is not valid', code: 'licence_invalid' },
      ]);
    }
    expect(await a.stored('P1')).toEqual(product);
  });
});
