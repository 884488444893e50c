import { contentRepository, favouritesRepository } from '@catalogue/db';
import { contentService } from './content-helpers';

/**
 * `extension` is an array when it holds nothing (`[]`, the specification's "array"), never `{}`:
 * on every path that answers elements — content built by fill or the catalogue sample, edited,
 * stored earlier with `{}`, and favourites. (Every answer is also checked against
 * docs/openapi.yaml, whose attribute objects need at least one property.)
 */
describe('white-label-api: element extension is [] when empty', () => {
  const service = contentService();

  const extensions = (tree: { children: { extension: unknown }[] }[]) =>
    tree.flatMap((w) => w.children.map((e) => e.extension));
  const isEmptyObject = (value: unknown) =>
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;

  test('when widgets are added from the catalogue samples, then elements without attributes have extension []', async () => {
    const shop = await service.shop();
    await shop.register('P1');

    const tree = await shop.add('P1', 'section');
    const stored = await shop.stored('P1');

    expect(extensions(tree)).toContainEqual([]);
    expect(extensions(tree).some(isEmptyObject)).toBe(false);
    expect(extensions(stored!.tree as never).some(isEmptyObject)).toBe(false);
  });

  test('when a tree was stored with extension {}, then GET and the next edit answer []', async () => {
    const shop = await service.shop();
    await shop.register('P1');
    const [widget] = await shop.add('P1', 'section');
    const row = (await shop.stored('P1'))!;
    const legacy = (row.tree as { children: Record<string, unknown>[] }[]).map((w) => ({
      ...w,
      children: w.children.map((e) => (Array.isArray(e.extension) ? { ...e, extension: {} } : e)),
    }));
    await contentRepository.save(
      service.deps.db,
      { eshopId: shop.id, entityType: 'product', externalId: 'P1' },
      { ...row, tree: legacy },
    );

    const read = await shop.call('GET', '/content/P1/type/product');
    const edited = await shop.call('PUT', '/content/P1/type/product', {
      [widget!.id]: { children: [{ id: widget!.children[1]!.id, value: { default: 'Edited' } }] },
    });

    expect(read.status).toBe(200);
    expect(edited.status).toBe(200);
    for (const tree of [read.body, edited.body]) {
      expect(extensions(tree)).toContainEqual([]);
      expect(extensions(tree).some(isEmptyObject)).toBe(false);
    }
    expect(extensions((await shop.stored('P1'))!.tree as never).some(isEmptyObject)).toBe(false);
  });

  test('when a favourite is saved with {} attributes, then it answers and stores []', async () => {
    const shop = await service.shop();
    const section = await service.widgetOf('section');
    const element = (id: number, parent: number, extension: unknown) => ({
      id,
      parent_id: parent,
      child_id: 0,
      class: '',
      is_editable: true,
      tag: id === 1 ? 'section' : 'img',
      value: {},
      extension,
    });

    const res = await shop.call('POST', '/widget-favourite', {
      name: 'Empty attributes',
      widget_id: section.id,
      children: [element(1, 0, {}), element(2, 1, { default: { src: 'https://cdn.test/a.jpg' }, cs: {} })],
    });

    expect(res.status).toBe(201);
    expect(extensions([res.body.data])).toEqual([[], { default: { src: 'https://cdn.test/a.jpg' }, cs: [] }]);
    const [stored] = await favouritesRepository.list(service.deps.db, shop.id);
    expect(extensions([stored as never])).toEqual(extensions([res.body.data]));
    const list = await shop.call('GET', '/widget-favourite');
    expect(extensions(list.body.data)).toEqual(extensions([res.body.data]));
  });
});
