// Revisions of the render job (libs/content-store renderContents): an import whose re-render
// recomposes a stored tree differently stores one `import` revision per changed item, in one
// statement for the job; a re-render that changes nothing, a first composition and people's
// kept content store none. No worker runs here: the jobs are run in the test.
import { makeEshop, serveServiceForTests } from '@catalogue/testing';
import { renderContents } from '@catalogue/content-store';
import { catalogueApi } from '../services/catalogue-api/src/service';

const PREFIX = `${process.env.TEST_QUEUE_PREFIX}-revisions-import`;

describe('content revisions of imports', () => {
  const api = serveServiceForTests(catalogueApi, { QUEUE_PREFIX: PREFIX });

  async function shop() {
    const created = await makeEshop(api.deps.db, { languages: ['default', 'cs', 'en'] });
    const importProducts = async (products: unknown[]) => {
      const res = await fetch(`${api.url}/api/v2/rest/products`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${created.apiToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(products),
      });
      expect(res.status).toBe(200);
    };
    return { id: created.eshop.id, importProducts };
  }

  const product = (id: string, name: string, cs = 'Bota') => ({
    id,
    name: { default: name, cs },
    description: { default: `<p>${name} for rocks.</p>`, cs: '<p>Na skály.</p>' },
    images: [`https://shop.test/${id}.jpg`],
  });

  async function revisionsOf(eshopId: number, externalId: string) {
    return api.deps
      .db('content_revisions')
      .where({ eshop_id: eshopId, entity_type: 'product', external_id: externalId })
      .orderBy('version')
      .select('version', 'source', 'generation_job_id', 'languages_changed', 'tree');
  }

  async function versionOf(eshopId: number, externalId: string): Promise<number> {
    const row = await api.deps
      .db('content')
      .where({ eshop_id: eshopId, entity_type: 'product', external_id: externalId })
      .first('version');
    return Number(row!.version);
  }

  test('when a re-import changes an item, then its recomposed tree is a revision of source import with the languages whose html changed, and unchanged items get none', async () => {
    const s = await shop();
    await s.importProducts([product('P1', 'Trail shoe'), product('P2', 'Road shoe')]);
    const job = { eshop_id: s.id, entity_type: 'product' as const, external_ids: ['P1', 'P2'] };
    await renderContents(api.deps.db, job);
    // A first composition replaces nothing: no revision, version 0.
    expect(await revisionsOf(s.id, 'P1')).toEqual([]);
    expect(await versionOf(s.id, 'P1')).toBe(0);

    // The same data again: nothing changed, nothing recorded.
    await renderContents(api.deps.db, job);
    expect(await revisionsOf(s.id, 'P1')).toEqual([]);

    // Only P1's default name changes.
    await s.importProducts([product('P1', 'Trail shoe v2'), product('P2', 'Road shoe')]);
    const statements: string[] = [];
    const listen = (q: { sql: string }) => statements.push(q.sql);
    api.deps.db.on('query', listen);
    try {
      await renderContents(api.deps.db, job);
    } finally {
      api.deps.db.off('query', listen);
    }

    const [revision, ...more] = await revisionsOf(s.id, 'P1');
    expect(more).toEqual([]);
    expect(revision).toMatchObject({ version: 1, source: 'import', generation_job_id: null });
    // The default and the languages falling back to it (en) changed; cs has its own text.
    expect(revision!.languages_changed).toEqual(['default', 'en']);
    expect(JSON.stringify(revision!.tree)).toContain('Trail shoe v2');
    expect(await versionOf(s.id, 'P1')).toBe(1);
    const stored = await api.deps
      .db('content')
      .where({ eshop_id: s.id, entity_type: 'product', external_id: 'P1' })
      .first('tree');
    expect(revision!.tree).toEqual(stored!.tree);
    expect(await revisionsOf(s.id, 'P2')).toEqual([]);
    // One statement for the job's revisions.
    expect(statements.filter((sql) => sql.includes('insert into content_revisions'))).toHaveLength(1);
  });

  test('when many items of one job change, then their revisions are written in one statement', async () => {
    const s = await shop();
    const ids = Array.from({ length: 20 }, (_, i) => `M${i}`);
    await s.importProducts(ids.map((id) => product(id, `Shoe ${id}`)));
    const job = { eshop_id: s.id, entity_type: 'product' as const, external_ids: ids };
    await renderContents(api.deps.db, job);
    await s.importProducts(ids.map((id) => product(id, `Shoe ${id} renamed`)));

    const statements: string[] = [];
    const listen = (q: { sql: string }) => statements.push(q.sql);
    api.deps.db.on('query', listen);
    try {
      await renderContents(api.deps.db, job);
    } finally {
      api.deps.db.off('query', listen);
    }

    expect(statements.filter((sql) => sql.includes('content_revisions'))).toHaveLength(1);
    const count = await api.deps
      .db('content_revisions')
      .where({ eshop_id: s.id, source: 'import' })
      .count<{ count: string }[]>('* as count');
    expect(Number(count[0]!.count)).toBe(ids.length);
  });
});
