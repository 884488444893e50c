// saveEditorContents writes many entities together (a bulk generation's chunk): what it stores
// must be exactly what writing each entity alone (saveEditorContent) stores, in both publish
// modes, and a write it refuses must leave that entity as it was while the others are stored.
import {
  ContentVersionMismatch,
  renderContents,
  saveEditorContent,
  saveEditorContents,
  type EditorContentWrite,
} from '@catalogue/content-store';
import type { ContentWidget } from '@catalogue/content';
import { catalogueRepository, createKnex, eshopsRepository, type Eshop, type Knex } from '@catalogue/db';
import { makeEshop, testConfig } from '@catalogue/testing';

const PRODUCTS = ['P1', 'P2', 'P3'];
/** An entity without a catalogue item or content. */
const LOOSE = 'LOOSE-1';

/** The next tree of an entity: its first widget left out (an entity without content gets none). */
const dropFirst = (_write: EditorContentWrite, current: ContentWidget[] | undefined): ContentWidget[] =>
  (current ?? []).slice(1);

describe('saveEditorContents: many entities written as each would be alone', () => {
  let db: Knex;
  beforeAll(() => {
    db = createKnex(testConfig().database);
  });
  afterAll(() => db.destroy());

  /** An eshop with three rendered products (composed content, no revision yet) in `mode`. */
  async function shop(mode: 'immediate' | 'draft'): Promise<Eshop> {
    const { eshop } = await makeEshop(db, { languages: ['default', 'cs', 'en'], enableRichSnippet: true });
    await db.transaction((trx) =>
      catalogueRepository.upsert(
        trx,
        'product',
        eshop.id,
        PRODUCTS.map((externalId, i) => ({
          externalId,
          isVisible: true,
          status: 'generate' as const,
          fields: {
            name: { cs: `Bota ${i}`, en: `Shoe ${i}` },
            description: { cs: `<p>Popis ${i}</p>`, en: `<p>Description ${i}</p>` },
            short_description: { cs: `Krátce ${i}`, en: `Briefly ${i}` },
            url: { cs: `https://shop.test/cs/${externalId}`, en: `https://shop.test/en/${externalId}` },
          },
        })),
      ),
    );
    await renderContents(db, { eshop_id: eshop.id, entity_type: 'product', external_ids: PRODUCTS });
    await db('eshops').where({ id: eshop.id }).update({ publish_mode: mode });
    return (await eshopsRepository.findById(db, eshop.id))!;
  }

  /** Everything a content write may change of an eshop, without its ids and times. */
  async function state(eshopId: number) {
    const content = await db('content')
      .where({ eshop_id: eshopId })
      .orderBy('external_id')
      .select('external_id', 'origin', 'tree', 'html', 'site_link', 'rich_snippet', 'version');
    const drafts = await db('content_drafts')
      .where({ eshop_id: eshopId })
      .orderBy('external_id')
      .select('external_id', 'tree', 'html');
    const revisions = await db('content_revisions')
      .where({ eshop_id: eshopId })
      .orderBy(['external_id', 'version'])
      .select('external_id', 'version', 'source', 'languages_changed', 'draft', 'tree');
    const events = await db('events')
      .where({ eshop_id: eshopId })
      .orderBy(['external_id', 'seq'])
      .select('type', 'external_id', 'data');
    const items = await db('products')
      .where({ eshop_id: eshopId })
      .orderBy('external_id')
      .select('external_id', 'status', db.raw('updated_at > created_at as touched'));
    // The rendered outputs name the eshop nowhere; the snippets' JSON-LD does not either.
    return { content, drafts, revisions, events, items };
  }

  async function writeAlone(eshop: Eshop, ids: string[], source: EditorContentWrite['source']) {
    for (const externalId of ids) {
      await db.transaction((trx) =>
        saveEditorContent(trx, { eshop, entityType: 'product', externalId, source }, (current) =>
          dropFirst({ externalId, source }, current),
        ),
      );
    }
  }

  async function writeTogether(eshop: Eshop, ids: string[], source: EditorContentWrite['source']) {
    const results = await db.transaction((trx) =>
      saveEditorContents(
        trx,
        { eshop, entityType: 'product' },
        ids.map((externalId) => ({ externalId, source })),
        dropFirst,
      ),
    );
    expect([...results.values()].filter((r) => 'refused' in r)).toEqual([]);
    return results;
  }

  test.each(['immediate', 'draft'] as const)(
    'when an eshop in %s mode has products with and without revisions and an entity without content written together, then the rows, revisions, drafts, events and item touches are those of writing each alone',
    async (mode) => {
      const [alone, together] = [await shop(mode), await shop(mode)];
      const ids = [...PRODUCTS, LOOSE];
      // Twice: the first write records each product's baseline, the second starts from a revision.
      for (let round = 0; round < 2; round++) {
        await writeAlone(alone, ids, { kind: 'editor' });
        const results = await writeTogether(together, ids, { kind: 'editor' });
        // What each write answers is what was stored: the version is the content row's.
        const versions = await db('content')
          .where({ eshop_id: together.id })
          .select('external_id', 'version');
        for (const { external_id, version } of versions) {
          const result = results.get(external_id)!;
          expect('saved' in result && result.saved.version).toBe(Number(version));
        }
      }
      if (mode === 'draft') {
        await writeAlone(alone, ids, { kind: 'publish' });
        await writeTogether(together, ids, { kind: 'publish' });
      }
      const [expected, actual] = [await state(alone.id), await state(together.id)];
      expect(actual).toEqual(expected);
      // The writes did something to compare: each product has its revisions and a shorter tree.
      expect(actual.revisions.filter((r) => r.external_id === 'P1').length).toBe(mode === 'draft' ? 4 : 3);
      // One event from the render, then one per published write.
      const ready = actual.events.filter((e) => e.external_id === 'P1' && e.type === 'item.content_ready');
      expect(ready.length).toBe(mode === 'draft' ? 2 : 3);
    },
  );

  test('when one write of several names a version the content no longer has, then that entity is left as it was and the others are stored', async () => {
    const eshop = await shop('immediate');
    const before = await state(eshop.id);
    const results = await db.transaction((trx) =>
      saveEditorContents(
        trx,
        { eshop, entityType: 'product' },
        PRODUCTS.map((externalId) => ({
          externalId,
          source: { kind: 'editor' as const },
          ...(externalId === 'P2' && { ifMatch: [7] }),
        })),
        dropFirst,
      ),
    );
    const refused = results.get('P2')!;
    expect('refused' in refused && refused.refused).toBeInstanceOf(ContentVersionMismatch);
    const after = await state(eshop.id);
    const of = (s: typeof before, id: string) => ({
      content: s.content.filter((c) => c.external_id === id),
      revisions: s.revisions.filter((r) => r.external_id === id),
      events: s.events.filter((e) => e.external_id === id && e.type === 'item.content_ready'),
    });
    expect(of(after, 'P2')).toEqual(of(before, 'P2'));
    for (const id of ['P1', 'P3']) {
      expect(of(after, id).content[0]!.version).toBe(2);
      expect(of(after, id).revisions.map((r) => r.version)).toEqual([1, 2]);
    }
  });

  test('when the same entity is named twice in one call, then nothing is written and the call says why', async () => {
    const eshop = await shop('immediate');
    const before = await state(eshop.id);
    await expect(
      db.transaction((trx) =>
        saveEditorContents(
          trx,
          { eshop, entityType: 'product' },
          [
            { externalId: 'P1', source: { kind: 'editor' } },
            { externalId: 'P1', source: { kind: 'editor' } },
          ],
          dropFirst,
        ),
      ),
    ).rejects.toThrow('one write per entity');
    expect(await state(eshop.id)).toEqual(before);
  });
});
