// Content stored before samples were marked: the deploy that brings the marking (prepareDatabase,
// once) marks the samples of widgets nobody edited and renders them out of every public output.
import { renderAll, starterWidget, type ContentWidget } from '@catalogue/content';
import { markStoredSamples, prepareDatabase, widgetTemplates } from '@catalogue/content-store';
import { contentRepository, migrateUpTo, type Knex } from '@catalogue/db';
import { freshSiblingDatabase, makeEshop, type SiblingDatabase } from '@catalogue/testing';

describe('markStoredSamples: content stored before sample marking', () => {
  let sibling: SiblingDatabase;
  let db: Knex;

  beforeAll(async () => {
    sibling = await freshSiblingDatabase('legacy-samples');
    db = sibling.db;
  });
  afterAll(() => sibling?.drop());

  /** A tree as the editor stored it before: the catalogue's samples, no marker. */
  async function legacyTree(types: string[]): Promise<ContentWidget[]> {
    const templates = await widgetTemplates(db);
    let next = 0;
    return types.map((type, i) => {
      const widget = starterWidget(
        templates.find((t) => t.type === type)!,
        {},
        i + 1,
        () => ++next,
      );
      return { ...widget, key: i, children: widget.children.map(({ sample: _s, ...element }) => element) };
    });
  }

  const store = (eshopId: number, externalId: string, tree: ContentWidget[], origin: 'editor' | 'composed') =>
    contentRepository.save(
      db,
      { eshopId, entityType: 'page', externalId },
      { origin, tree, ...renderAll(tree, null, ['default', 'cs']) },
    );

  test('when the deploy that brings marking runs, then untouched samples are marked and leave the outputs; edited widgets and other content stay', async () => {
    // The schema as before this change, with the catalogue seeded, and content stored then.
    await migrateUpTo(db, '20261125000700_event_retention');
    await prepareDatabase(db); // applies the newest migration: the repair runs, on nothing yet
    await db('knex_migrations').where({ name: '20261126000300_entity_default_design' }).delete();
    const shop = await makeEshop(db, { languages: ['default', 'cs'] });
    const [cta, faq] = await legacyTree(['cta', 'faq']);
    const heading = faq!.children.find((e) => e.class === 'ccs-faq__heading')!;
    // A person edited the FAQ (is_original false): its sample-equal texts are theirs now.
    const edited = { ...faq!, is_original: false };
    await store(shop.eshop.id, 'LEGACY', [cta!, { ...edited, children: [...edited.children] }], 'editor');
    await store(shop.eshop.id, 'COMPOSED', (await legacyTree(['section'])) as ContentWidget[], 'composed');
    const before = await contentRepository.find(db, {
      eshopId: shop.eshop.id,
      entityType: 'page',
      externalId: 'LEGACY',
    });
    expect(before?.html.default).toContain('Shop now');

    expect(await prepareDatabase(db)).toEqual(['20261126000300_entity_default_design']);

    const after = await contentRepository.find(db, {
      eshopId: shop.eshop.id,
      entityType: 'page',
      externalId: 'LEGACY',
    });
    const [markedCta, keptFaq] = after!.tree as ContentWidget[];
    expect(markedCta!.children.find((e) => e.class === 'ccs-cta__button')?.sample).toEqual(['value', 'href']);
    expect(keptFaq!.children.some((e) => e.sample !== undefined)).toBe(false);
    expect(after?.html.default).not.toContain('Shop now');
    expect(after?.html.default).not.toContain('example.com');
    expect(after?.html.default).toContain(heading.value.default);
    // Composed content is the worker's (never samples) and is not looked at.
    const composed = await contentRepository.find(db, {
      eshopId: shop.eshop.id,
      entityType: 'page',
      externalId: 'COMPOSED',
    });
    expect(composed?.html.default).toContain('Made for everyday use');

    // Once marked, nothing is left to do.
    expect(await markStoredSamples(db)).toBe(0);
  });
});
