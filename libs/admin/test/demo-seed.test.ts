import { seedDemoProduct } from '@catalogue/admin';
import { makeEshop } from '@catalogue/testing';
import { cliHarness } from './cli-harness';

/** `npm start`'s demo product: in the catalogue, with content composed from its texts. */

const harness = cliHarness();

/** The stored content tree of an eshop's product. */
async function treeOf(
  eshopId: number,
  externalId: string,
): Promise<Array<{ children: Array<{ value: unknown }> }>> {
  const row = await harness
    .db('content')
    .where({ eshop_id: eshopId, entity_type: 'product', external_id: externalId })
    .first<{ tree: unknown } | undefined>('tree');
  return (row?.tree ?? []) as Array<{ children: Array<{ value: unknown }> }>;
}

describe('demo seed', () => {
  test('when the demo eshop is made, then its demo product has content with its texts in default and cs', async () => {
    const { eshop } = await makeEshop(harness.db, { languages: ['default', 'cs', 'sk', 'en', 'de'] });
    expect(await seedDemoProduct(harness.db, eshop.id)).toBe(true);
    const tree = await treeOf(eshop.id, 'DEMO-1');
    expect(tree.length).toBeGreaterThanOrEqual(1);
    const texts = JSON.stringify(tree.map((w) => w.children.map((e) => e.value)));
    expect(texts).toContain('A grippy sole');
    expect(texts).toContain('Přilnavá podrážka');
  });

  test('when the demo product exists already, then seeding again changes nothing', async () => {
    const { eshop } = await makeEshop(harness.db);
    await seedDemoProduct(harness.db, eshop.id);
    const before = await treeOf(eshop.id, 'DEMO-1');
    expect(await seedDemoProduct(harness.db, eshop.id)).toBe(false);
    expect(await treeOf(eshop.id, 'DEMO-1')).toEqual(before);
  });
});
