import { PATH, TABLE, TYPES, ISO_MICROS, item, idsOf, v2ListService } from './v2-list-fixtures';

/** v2 list items: which items are listed, their shape, languages, includes and timestamps. */
describe('catalogue-api: v2 lists: timestamps, variants and soft deletion (rules 10–12)', () => {
  const { svc, importItems, publish } = v2ListService();

  describe('rule 10: timestamps', () => {
    test('when items are listed, then created_at and updated_at are UTC with microseconds and Z and equal the stored values', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      await importItems(api, 'product', [item('product', 'P1'), item('product', 'P2')]);
      await publish(eshop.id, 'product', ['P1', 'P2']);
      await svc.deps
        .db('products')
        .where({ eshop_id: eshop.id, external_id: 'P1' })
        .update({ created_at: '2026-05-04 03:02:01.000123+00', updated_at: '2026-05-04 12:00:00.5+02' });

      // Act
      const res = await api.get('/api/v2/rest/products');

      // Assert
      expect(res.status).toBe(200);
      const stored = await svc.deps
        .db('products')
        .where({ eshop_id: eshop.id })
        .orderBy('id')
        .select(
          'external_id',
          svc.deps.db.raw(
            `to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at`,
          ),
          svc.deps.db.raw(
            `to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as updated_at`,
          ),
        );
      expect(
        res.body.data.map((i: { id: string; created_at: string; updated_at: string }) => ({
          external_id: i.id,
          created_at: i.created_at,
          updated_at: i.updated_at,
        })),
      ).toEqual(stored);
      for (const listed of res.body.data) {
        expect(listed.created_at).toMatch(ISO_MICROS);
        expect(listed.updated_at).toMatch(ISO_MICROS);
      }
      expect(res.body.data[0]?.created_at).toBe('2026-05-04T03:02:01.000123Z');
      expect(res.body.data[0]?.updated_at).toBe('2026-05-04T10:00:00.500000Z');
    });
  });

  describe('rule 11: variants', () => {
    test('when include=variant is asked, then variants come in internal-id order and a product without variants has []', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      await importItems(api, 'product', [
        item('product', 'P1', {
          variant: [{ code: 'P1-XL', ean: '8590000000003' }, { code: 'P1-S', ean: null }, { code: 'P1-M' }],
        }),
        item('product', 'P2'),
      ]);
      await publish(eshop.id, 'product', ['P1', 'P2']);

      // Act
      const res = await api.get('/api/v2/rest/products?include=variant');

      // Assert
      expect(res.status).toBe(200);
      const p1 = res.body.data[0]!;
      const p2 = res.body.data[1]!;
      expect(p1.variant).toEqual([
        { code: 'P1-XL', ean: '8590000000003' },
        { code: 'P1-S', ean: null },
        { code: 'P1-M', ean: null },
      ]);
      expect(p2.variant).toEqual([]);
      const stored = await svc.deps
        .db('product_variants as v')
        .join('products as p', 'p.id', 'v.product_id')
        .where({ 'p.eshop_id': eshop.id, 'p.external_id': 'P1' })
        .orderBy('v.id')
        .select('v.code', 'v.ean');
      expect(p1.variant).toEqual(stored);
    });

    test('when a product is re-imported with its variants in another order, then the list follows the new internal ids', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      await importItems(api, 'product', [
        item('product', 'P1', { variant: [{ code: 'A' }, { code: 'B' }, { code: 'C' }] }),
      ]);
      await importItems(api, 'product', [
        item('product', 'P1', { variant: [{ code: 'C' }, { code: 'A', ean: '4006381333931' }] }),
      ]);
      await publish(eshop.id, 'product', ['P1']);

      // Act
      const res = await api.get('/api/v2/rest/products?include=variant');

      // Assert
      expect(res.status).toBe(200);
      expect(res.body.data[0]?.variant).toEqual([
        { code: 'C', ean: null },
        { code: 'A', ean: '4006381333931' },
      ]);
      const stored = await svc.deps
        .db('product_variants')
        .where({ eshop_id: eshop.id })
        .orderBy('id')
        .select('code', 'ean');
      expect(stored).toEqual(res.body.data[0]?.variant);
    });
  });

  describe('rule 12: soft deletion', () => {
    test.each(TYPES)('when a listed %s is soft-deleted, then it disappears from the list', async (type) => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      await importItems(api, type, [item(type, 'A-keep'), item(type, 'B-drop')]);
      await publish(eshop.id, type, ['A-keep', 'B-drop']);
      const before = await api.get(`/api/v2/rest/${PATH[type]}`);
      expect(idsOf(before.body)).toEqual(['A-keep', 'B-drop']);

      // Act
      const deleted = await api.delete(`/api/v2/rest/${PATH[type]}`, ['B-drop']);
      const res = await api.get(`/api/v2/rest/${PATH[type]}`);

      // Assert
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ success: true, deleted: 1, skipped: 0, errors: [] });
      expect(res.status).toBe(200);
      expect(idsOf(res.body)).toEqual(['A-keep']);
      expect(res.body.meta.total).toBe(1);
      const stored = await svc.deps
        .db(TABLE[type])
        .where({ eshop_id: eshop.id })
        .orderBy('id')
        .select('external_id', 'is_delete');
      expect(stored).toEqual([
        { external_id: 'A-keep', is_delete: false },
        { external_id: 'B-drop', is_delete: true },
      ]);
    });
  });
});
