import { designStructure, SEED_DESIGNS, structureHash, type WidgetTemplate } from '@catalogue/content';
import { seedCatalogue } from '@catalogue/content-store';
import { createKnex, type Knex } from '@catalogue/db';
import { testConfig } from '@catalogue/testing';

describe('seedCatalogue (run by prepareDatabase in the test setup)', () => {
  let db: Knex;
  beforeAll(() => {
    db = createKnex(testConfig().database);
  });
  afterAll(() => db.destroy());

  async function designsByCategory(): Promise<Record<string, number>> {
    const rows = await db('designs')
      .where({ type: 'public' })
      .select('category')
      .count<{ category: string; count: number }[]>({ count: '*' })
      .groupBy('category');
    return Object.fromEntries(rows.map((r) => [r.category, r.count]));
  }

  test('when the database is prepared, then the starter set of widgets and public designs is there', async () => {
    const widgets = await db('widgets').select<{ type: string }[]>('type');
    expect(widgets.map((w) => w.type)).toEqual(
      expect.arrayContaining([
        'section',
        'benefit',
        'image_text',
        'parameters',
        'faq',
        'cta',
        'gallery',
        'video',
        'comparison',
        'testimonial',
      ]),
    );
    const counts = await designsByCategory();
    expect(counts.product).toBeGreaterThanOrEqual(4);
    expect(counts.category).toBeGreaterThanOrEqual(2);
    expect(counts.blog).toBeGreaterThanOrEqual(2);
    expect(counts.page).toBeGreaterThanOrEqual(2);
    expect(await db('prompts').whereNull('eshop_id').count<{ count: number }[]>({ count: '*' })).toEqual([
      { count: 3 },
    ]);
  });

  test('when a seeded design is read back, then its hash is the hash of its structure with the stored ids and it has a preview', async () => {
    const templates: WidgetTemplate[] = (
      await db('widgets').select<{ id: number; definition: WidgetTemplate }[]>('id', 'definition')
    ).map((w) => ({ ...w.definition, id: w.id }));
    for (const definition of SEED_DESIGNS) {
      const design = await db('designs').where({ key: definition.key }).first();
      const designWidgetIds = (
        await db('design_widgets')
          .where({ design_id: design!.id })
          .orderBy('position')
          .select<{ id: number }[]>('id')
      ).map((r) => r.id);
      const structure = designStructure(definition, {
        design_id: design!.id,
        design_widget_ids: designWidgetIds,
        widgets: templates,
      });
      expect(design!.hash).toBe(structureHash(structure));
      expect(design!.preview_html).toContain('ccs-widget');
    }
  });

  test('when seeding runs again, then nothing is duplicated and ids stay the same', async () => {
    const before = await db('design_widgets').orderBy('id').select('id', 'design_id', 'position');
    const designsBefore = await db('designs').orderBy('id').select('id', 'key', 'hash');

    await seedCatalogue(db);

    expect(await db('design_widgets').orderBy('id').select('id', 'design_id', 'position')).toEqual(before);
    expect(await db('designs').orderBy('id').select('id', 'key', 'hash')).toEqual(designsBefore);
  });
});
