import { catalogueRepository } from '@catalogue/db';
import { eventually } from '@catalogue/testing';
import { catalogueService } from './helpers';

/**
 * `imported` and `updated` say what this request inserted and updated, also when another request
 * creates the same new ids at the same time; and the later request merges with what the earlier
 * one stored instead of overwriting it.
 */
describe('catalogue-api: import counts under concurrency', () => {
  const svc = catalogueService();

  const product = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    name: { default: `Product ${id}` },
    ...extra,
  });

  test('when another transaction creates the same new ids while the import runs, then they count as updated and are merged with its data', async () => {
    const shop = await svc.eshop();
    const db = svc.deps.db;
    // A concurrent import, held open: it has inserted P1 and P2 but not committed yet.
    const other = await db.transaction();
    const { rows } = await other.raw<{ rows: { pid: number }[] }>('select pg_backend_pid() as pid');
    await catalogueRepository.upsert(
      other,
      'product',
      shop.eshop.id,
      ['P1', 'P2'].map((id) => ({
        externalId: id,
        isVisible: true,
        status: 'generate',
        fields: { name: { default: `Theirs ${id}` }, description: { default: `Described ${id}` } },
      })),
    );

    const request = shop.api.post('/api/v2/rest/products', [
      product('P1', { name: { cs: 'Výrobek P1' } }),
      product('P2'),
      product('P3'),
    ]);
    // The import's insert waits on the other transaction's rows; only then let that one commit.
    await eventually(async () => {
      const waiting = await db.raw<{ rows: unknown[] }>(
        'select pid from pg_stat_activity where ? = any(pg_blocking_pids(pid))',
        [rows[0]!.pid],
      );
      expect(waiting.rows.length).toBeGreaterThan(0);
    }, 30_000);
    await other.commit();
    const res = await request;

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, imported: 1, updated: 2, skipped: 0, errors: [] });
    const stored = await db('products')
      .where({ eshop_id: shop.eshop.id })
      .orderBy('external_id')
      .select('external_id', 'name', 'description');
    expect(stored).toEqual([
      {
        external_id: 'P1',
        name: { default: 'Theirs P1', cs: 'Výrobek P1' },
        description: { default: 'Described P1' },
      },
      { external_id: 'P2', name: { default: 'Product P2' }, description: { default: 'Described P2' } },
      { external_id: 'P3', name: { default: 'Product P3' }, description: {} },
    ]);
  });

  test('when two requests import the same new ids at once, then each id is counted imported exactly once', async () => {
    const shop = await svc.eshop();

    for (let round = 0; round < 5; round++) {
      const items = Array.from({ length: 40 }, (_, i) => product(`R${round}-${i}`));

      const responses = await Promise.all([
        shop.api.post('/api/v2/rest/products', items),
        shop.api.post('/api/v2/rest/products', [...items].reverse()),
      ]);

      for (const res of responses) {
        expect(res.body).toMatchObject({ success: true, skipped: 0 });
        expect(res.body.imported + res.body.updated).toBe(40);
      }
      expect(responses.reduce((sum, res) => sum + res.body.imported, 0)).toBe(40);
      expect(responses.reduce((sum, res) => sum + res.body.updated, 0)).toBe(40);
    }
    expect(await svc.deps.db('products').where({ eshop_id: shop.eshop.id })).toHaveLength(200);
  });
});
