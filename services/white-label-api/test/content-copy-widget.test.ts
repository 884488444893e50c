import { contentService, elementIds, type Body } from './content-helpers';

describe('white-label-api: POST content/copy-widget', () => {
  const svc = contentService();

  test('when widgets are copied to an entity with content, then they are appended with fresh ids and the target keeps its own', async () => {
    const shop = await svc.shop();
    await shop.register('SRC');
    await shop.register('DST');
    await shop.add('SRC', 'section');
    const added = await shop.add('SRC', 'faq');
    const faqHeading = added[1]!.children.find((e) => e.class === 'ccs-faq__heading')!;
    const written = await shop.call('PUT', '/content/SRC/type/product', {
      '2': { children: [{ id: faqHeading.id, value: { default: 'Sizing questions' } }] },
    });
    const source = written.body as typeof added;
    const own = await shop.add('DST', 'cta');

    const res = await shop.call('POST', '/content/copy-widget', {
      source_entity_id: 'SRC',
      target_entity_id: 'DST',
      type: 'product',
    });
    expect(res.status).toBe(200);
    const tree = res.body as Body[];
    expect(tree.map((w) => [w.id, w.key, w.widget_id])).toEqual([
      [1, 0, own[0]!.widget_id],
      [2, 1, source[0]!.widget_id],
      [3, 2, source[1]!.widget_id],
    ]);
    expect(tree[0]).toEqual(own[0]);
    const ids = elementIds(tree);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Math.min(...elementIds(tree.slice(1)))).toBeGreaterThan(Math.max(...elementIds(own)));
    // Same content, new ids: values in the same order, parents pointing inside the copy.
    expect(tree[2]!.children.map((e: Body) => e.value)).toEqual(source[1]!.children.map((e) => e.value));
    // What is still sample stays marked so in the copy.
    expect(tree[2]!.children.map((e: Body) => e.sample)).toEqual(source[1]!.children.map((e) => e.sample));
    const copiedIds = new Set(tree[2]!.children.map((e: Body) => e.id));
    for (const e of tree[2]!.children) expect(e.parent_id === 0 || copiedIds.has(e.parent_id)).toBe(true);

    const stored = await shop.stored('DST');
    expect((stored?.tree as Body[]).map((w) => w.id)).toEqual([1, 2, 3]);
    expect(stored?.html.default).toContain('Sizing questions');
    expect(stored?.html.default).toContain('data-widget-id="3"');
    expect(stored?.html.default).not.toContain('How long does delivery take?');
    // The source is untouched.
    expect((await shop.stored('SRC'))?.tree).toEqual(source);
  });

  test('when the target has no content yet, then it gets a copy of the source and later edits stay apart', async () => {
    const shop = await svc.shop();
    await shop.register('C-SRC', 'category');
    await shop.register('C-DST', 'category');
    const section = await svc.widgetOf('section');
    await shop.call('POST', '/content/C-SRC/type/category', { widget_id: section.id });
    const res = await shop.call('POST', '/content/copy-widget', {
      source_entity_id: 'C-SRC',
      target_entity_id: 'C-DST',
      type: 'category',
    });
    expect(res.status).toBe(200);
    expect(res.body.map((w: Body) => w.id)).toEqual([1]);
    await shop.call('PUT', '/content/C-DST/type/category', {
      '1': { children: [{ id: 2, value: { default: 'Only here' } }] },
    });
    expect((await shop.stored('C-DST', 'category'))?.html.default).toContain('Only here');
    expect((await shop.stored('C-SRC', 'category'))?.html.default).not.toContain('Only here');
  });

  test('when an entity is not registered, the source has no content, or source and target are the same, then nothing is copied', async () => {
    const shop = await svc.shop();
    await shop.register('A');
    await shop.register('EMPTY');
    await shop.add('A', 'section');
    const before = await shop.stored('A');
    const copy = (body: Record<string, unknown>) => shop.call('POST', '/content/copy-widget', body);

    expect(await copy({ source_entity_id: 'NOPE', target_entity_id: 'A', type: 'product' })).toEqual({
      status: 404,
      body: { error: 'Entity product "NOPE" is not registered', code: 'not_found' },
    });
    expect(await copy({ source_entity_id: 'A', target_entity_id: 'NOPE', type: 'product' })).toEqual({
      status: 404,
      body: { error: 'Entity product "NOPE" is not registered', code: 'not_found' },
    });
    // Registered as a product, not as a page.
    expect((await copy({ source_entity_id: 'A', target_entity_id: 'EMPTY', type: 'page' })).status).toBe(404);
    expect(await copy({ source_entity_id: 'EMPTY', target_entity_id: 'A', type: 'product' })).toEqual({
      status: 422,
      body: {
        error: 'The given data was invalid.',
        code: 'validation_failed',
        errors: { source_entity_id: ['The source entity has no content to copy.'] },
      },
    });
    expect(
      (await copy({ source_entity_id: 'A', target_entity_id: 'A', type: 'product' })).body.errors,
    ).toEqual({
      target_entity_id: ['The target_entity_id field must be different from source_entity_id.'],
    });
    expect((await copy({ source_entity_id: 'A', type: 'brand' })).body.errors).toEqual({
      target_entity_id: ['The target_entity_id field is required.'],
      type: ['The selected type is invalid.'],
    });
    expect(await shop.stored('A')).toEqual(before);
    expect(await shop.stored('EMPTY')).toBeUndefined();
  });
});
