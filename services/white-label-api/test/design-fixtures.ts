// Designs the seed does not make: custom designs of one eshop, hidden public ones.
import type { DesignCategory } from '@catalogue/content';
import type { Knex } from '@catalogue/db';

export interface DesignFixture {
  eshopId: number | null;
  category: DesignCategory;
  name?: string;
  position?: number;
  isVisible?: boolean;
  /** Widget types in order, with per-design overrides. */
  widgets?: Array<{
    widget: string;
    item_count?: number;
    image_slot?: number;
    max_length?: Record<string, number>;
  }>;
}

/** Inserts a design (custom when it has an eshop) and its widgets; returns the design id. */
export async function insertDesign(db: Knex, fixture: DesignFixture): Promise<number> {
  return db.transaction(async (trx) => {
    const [row] = await trx('designs')
      .insert({
        eshop_id: fixture.eshopId,
        name: fixture.name ?? `Design ${Math.random().toString(36).slice(2, 8)}`,
        name_translation: JSON.stringify({ default: fixture.name ?? 'Design' }),
        category: fixture.category,
        type: fixture.eshopId === null ? 'public' : 'custom',
        is_visible: fixture.isVisible ?? true,
        position: fixture.position ?? 0,
        hash: 'a'.repeat(64),
        preview_html: '<section class="ccs-widget">preview</section>',
      })
      .returning<{ id: number }[]>('id');
    const widgets = fixture.widgets ?? [{ widget: 'section' }];
    const ids = new Map(
      (await trx('widgets').select<{ id: number; type: string }[]>('id', 'type')).map((w) => [w.type, w.id]),
    );
    for (const [position, { widget, ...overrides }] of widgets.entries()) {
      await trx('design_widgets').insert({
        design_id: row!.id,
        widget_id: ids.get(widget)!,
        position,
        overrides: JSON.stringify(overrides),
      });
    }
    return row!.id;
  });
}

/** The id of a seeded public design by its key. */
export async function seededDesignId(db: Knex, key: string): Promise<number> {
  const row = await db('designs').where({ key }).first<{ id: number }>('id');
  if (!row) throw new Error(`no seeded design ${key}`);
  return row.id;
}

/** The seeded product-classic design: section, image_text, benefit (3), parameters, gallery (4). */
export async function classicDesign(db: Knex) {
  const id = await seededDesignId(db, 'product-classic');
  const [section, imageText, benefit, parameters, gallery] = await db('design_widgets')
    .where({ design_id: id })
    .orderBy('position')
    .pluck<number[]>('id');
  return {
    id,
    section: section!,
    imageText: imageText!,
    benefit: benefit!,
    parameters: parameters!,
    gallery: gallery!,
  };
}
