import type { ContentWidget } from '@catalogue/content';
import { defaultDesign } from '@catalogue/content-store';
import { wlEntitiesRepository } from '@catalogue/db';
import { contentService, elementIds } from './content-helpers';

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
    const tree = res.body;
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
    expect(tree[2]!.children.map((e) => e.value)).toEqual(source[1]!.children.map((e) => e.value));
    // What is still sample stays marked so in the copy.
    expect(tree[2]!.children.map((e) => e.sample)).toEqual(source[1]!.children.map((e) => e.sample));
    const copiedIds = new Set(tree[2]!.children.map((e) => e.id));
    for (const e of tree[2]!.children) expect(e.parent_id === 0 || copiedIds.has(e.parent_id)).toBe(true);

    const stored = await shop.stored('DST');
    expect((stored?.tree as ContentWidget[]).map((w) => w.id)).toEqual([1, 2, 3]);
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
    expect(res.body.map((w) => w.id)).toEqual([1]);
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

  describe('a target that is a catalogue item never opened in the editor', () => {
    /** A product of the eshop's catalogue, as an import stores it (no entity registered). */
    const item = (eshopId: number, externalId: string, extra: Record<string, unknown> = {}) =>
      svc.deps.db('products').insert({
        eshop_id: eshopId,
        external_id: externalId,
        name: JSON.stringify({ default: ' Trail shoe ', cs: 'Trailová bota' }),
        ...extra,
      });

    /** An eshop with a registered source holding a written section. */
    async function withSource() {
      const shop = await svc.shop();
      await shop.register('SRC');
      const [section] = await shop.add('SRC', 'section');
      const heading = section!.children.find((e) => e.class === 'ccs-section__heading')!;
      await shop.call('PUT', '/content/SRC/type/product', {
        '1': { children: [{ id: heading.id, value: { default: 'Copied heading' } }] },
      });
      return shop;
    }

    const registered = (eshopId: number, id: string) =>
      wlEntitiesRepository.find(svc.deps.db, eshopId, 'product', id);

    test('when the target is a product of the eshop, then it is registered on the fly (title from the item, default design) and gets the copy', async () => {
      const shop = await withSource();
      await item(shop.id, 'ITEM');
      const res = await shop.call('POST', '/content/copy-widget', {
        source_entity_id: 'SRC',
        target_entity_id: 'ITEM',
        type: 'product',
      });
      expect(res.status).toBe(200);
      expect(res.body.map((w) => w.id)).toEqual([1]);
      const design = (await defaultDesign(svc.deps.db, shop.id, 'product'))?.design.id;
      expect(await registered(shop.id, 'ITEM')).toMatchObject({
        title: { default: 'Trail shoe', cs: 'Trailová bota' },
        oldDescription: {},
        designId: design,
      });
      expect((await shop.stored('ITEM'))?.html.default).toContain('Copied heading');
      // From now on it is an entity like any other.
      expect((await shop.call('GET', '/content/ITEM/type/product')).status).toBe(200);
      const again = await shop.call('POST', '/content/copy-widget', {
        source_entity_id: 'SRC',
        target_entity_id: 'ITEM',
        type: 'product',
      });
      expect(again.body.map((w) => w.id)).toEqual([1, 2]);
    });

    test("when the target is another eshop's product, a deleted product or a page, then 404 and nothing is registered or written", async () => {
      const shop = await withSource();
      const other = await svc.shop();
      await item(other.id, 'THEIRS');
      await item(shop.id, 'GONE', { is_delete: true });
      const cases: [string, string][] = [
        ['THEIRS', 'product'],
        ['GONE', 'product'],
        ['ABOUT', 'page'],
      ];
      for (const [target, type] of cases) {
        const res = await shop.call('POST', '/content/copy-widget', {
          source_entity_id: 'SRC',
          target_entity_id: target,
          type,
        });
        expect([target, res.status, res.body]).toEqual([
          target,
          404,
          { error: `Entity ${type} "${target}" is not registered`, code: 'not_found' },
        ]);
      }
      for (const [eshopId, id] of [
        [shop.id, 'THEIRS'],
        [other.id, 'THEIRS'],
        [shop.id, 'GONE'],
      ] as const) {
        expect(await registered(eshopId, id)).toBeUndefined();
        expect(
          await svc.deps.db('content').where({ eshop_id: eshopId, external_id: id }).first(),
        ).toBeUndefined();
      }
      expect(await wlEntitiesRepository.count(svc.deps.db, other.id)).toBe(0);
    });

    test('when the copy is refused (source unregistered or without content), then the catalogue target is not registered either', async () => {
      const shop = await svc.shop();
      await shop.register('EMPTY');
      await item(shop.id, 'ITEM');
      for (const source of ['NOPE', 'EMPTY']) {
        const res = await shop.call('POST', '/content/copy-widget', {
          source_entity_id: source,
          target_entity_id: 'ITEM',
          type: 'product',
        });
        expect([source, res.status]).toEqual([source, source === 'NOPE' ? 404 : 422]);
      }
      expect(await registered(shop.id, 'ITEM')).toBeUndefined();
      expect(await shop.stored('ITEM')).toBeUndefined();
    });
  });
});
