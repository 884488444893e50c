// The demo product of `npm start`: a catalogue item with texts in the demo eshop's languages,
// its content composed from them as an import composes it, so the demo page's editor opens on
// widgets to edit rather than on an empty product.
import { renderContent } from '@catalogue/content-store';
import { catalogueRepository, ENTITY_TABLES, type Knex } from '@catalogue/db';

/** The demo product's external id (the demo host page's default `entity-id`). */
export const DEMO_PRODUCT = 'DEMO-1';

const TEXTS: Record<string, Record<string, string>> = {
  name: { default: 'Trail shoe', cs: 'Trailová bota', en: 'Trail shoe' },
  short_description: {
    default: 'A light shoe for long days on rough trails.',
    cs: 'Lehká bota na dlouhé dny v náročném terénu.',
    en: 'A light shoe for long days on rough trails.',
  },
  description: {
    default:
      '<p>A grippy sole and a breathable upper keep you sure-footed from the first climb to the last descent.</p>',
    cs: '<p>Přilnavá podrážka a prodyšný svršek vás udrží pevně na nohou od prvního stoupání po poslední sestup.</p>',
    en: '<p>A grippy sole and a breathable upper keep you sure-footed from the first climb to the last descent.</p>',
  },
};

/**
 * Puts the demo product into the eshop's catalogue and composes its content, unless the eshop
 * has that item already (a database from before keeps what was done with it). Answers whether
 * it was seeded.
 */
export async function seedDemoProduct(db: Knex, eshopId: number): Promise<boolean> {
  const fields: Record<string, unknown> = {};
  for (const field of ENTITY_TABLES.product.fields)
    fields[field.column] = field.kind === 'text' ? (TEXTS[field.column] ?? {}) : field.empty;
  const seeded = await db.transaction(async (trx) => {
    const existing = await catalogueRepository.findForUpdate(trx, 'product', eshopId, [DEMO_PRODUCT]);
    if (existing.size > 0) return false;
    await catalogueRepository.upsert(trx, 'product', eshopId, [
      { externalId: DEMO_PRODUCT, isVisible: true, status: 'generate', fields },
    ]);
    return true;
  });
  if (!seeded) return false;
  await renderContent(db, { eshop_id: eshopId, entity_type: 'product', external_id: DEMO_PRODUCT });
  return true;
}
