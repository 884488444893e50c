// The migration that gives every registered entity without a design the default design of its
// type, run on rows written before it.
import { migrateUpTo, type Knex } from '@catalogue/db';
import { freshSiblingDatabase, type SiblingDatabase } from '@catalogue/testing';

const BEFORE = '20261125000700_event_retention';
const MIGRATION = '20261126000300_entity_default_design';

describe(`migration ${MIGRATION} on entities registered before it`, () => {
  let sibling: SiblingDatabase;
  let db: Knex;

  beforeAll(async () => {
    sibling = await freshSiblingDatabase('default-design');
    db = sibling.db;
    await migrateUpTo(db, BEFORE);
  });

  afterAll(() => sibling?.drop());

  const insert = async (table: string, row: Record<string, unknown>): Promise<number> => {
    const [written] = await db(table).insert(row).returning<{ id: number }[]>('id');
    return written!.id;
  };

  test('when entities have no design, then each gets the first design of its type its eshop may use; a design it has, and a type without any, stay', async () => {
    const a = await insert('eshops', { name: 'A' });
    const b = await insert('eshops', { name: 'B' });
    const design = (category: string, position: number, extra: Record<string, unknown> = {}) =>
      insert('designs', {
        category,
        position,
        hash: 'x'.repeat(64),
        name: `${category} ${position}`,
        type: 'public',
        ...extra,
      });
    const hidden = await design('product', 0, { is_visible: false });
    const second = await design('product', 2);
    const first = await design('product', 1);
    const customOfB = await design('blog', -5, { type: 'custom', eshop_id: b });
    const publicBlog = await design('blog', 9);
    const customOfA = await design('category', 0, { type: 'custom', eshop_id: a });
    const entity = (eshop_id: number, type: string, entity_id: string, design_id: number | null = null) =>
      insert('wl_entities', {
        eshop_id,
        type,
        entity_id,
        design_id,
        design_owner: design_id === null ? null : 0,
      });
    const product = await entity(a, 'product', 'P');
    const filled = await entity(a, 'product', 'F', second);
    const blogOfA = await entity(a, 'blog', 'B');
    const blogOfB = await entity(b, 'blog', 'B');
    const category = await entity(a, 'category', 'C');
    const page = await entity(a, 'page', 'X');

    await migrateUpTo(db, MIGRATION);

    const rows = await db('wl_entities').orderBy('id').select('id', 'design_id', 'design_owner');
    expect(rows).toEqual([
      { id: product, design_id: first, design_owner: 0 },
      { id: filled, design_id: second, design_owner: 0 },
      { id: blogOfA, design_id: publicBlog, design_owner: 0 },
      // Public designs come first, as when the worker composes: B's custom blog design is later.
      { id: blogOfB, design_id: publicBlog, design_owner: 0 },
      { id: category, design_id: customOfA, design_owner: a },
      { id: page, design_id: null, design_owner: null },
    ]);
    expect([hidden, customOfB]).not.toContain(rows[0]!.design_id);
  });
});
