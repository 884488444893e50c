import { INVALID, ISO_OFFSET, listingService } from './listing-fixtures';

/** Listing batches: upload (JSON rows or CSV) and read back through the v2 listing endpoint. */
describe('catalogue-api: listing batches (read rows)', () => {
  const { svc, upload } = listingService();

  describe('read rows', () => {
    test('when a batch is read, then each row is {external_id, status, updated_at with +00:00, field, parameter} and meta', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      const batchId = await upload(api, [
        {
          code: 'SKU-1',
          name: 'Chair',
          tags: ['office', 'chair'],
          parameter: [{ label: 'Colour', value: 'black' }],
        },
        { ean: '8590000000002', name: 'Desk' },
      ]);

      // Act
      const res = await api.get(`/api/v2/rest/listing/${batchId}/product`);

      // Assert
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({ current_page: 1, per_page: 200, total: 2 });
      expect(res.body.data).toHaveLength(2);
      const first = res.body.data[0]!;
      const second = res.body.data[1]!;
      expect(Object.keys(first).sort()).toEqual([
        'external_id',
        'field',
        'parameter',
        'status',
        'updated_at',
      ]);
      expect(first).toMatchObject({
        external_id: 'SKU-1',
        status: 'pending',
        field: {
          name: { value: 'Chair', source: 'feed' },
          tags: { value: ['office', 'chair'], source: 'feed' },
        },
        parameter: [{ label: 'Colour', value: 'black', source: 'feed' }],
      });
      expect(second).toMatchObject({
        external_id: '8590000000002',
        status: 'pending',
        field: { name: { value: 'Desk', source: 'feed' } },
        parameter: [],
      });
      const stamps: { at: string }[] = await svc.deps
        .db('listing_rows')
        .where({ eshop_id: eshop.id, batch_id: batchId })
        .orderBy('id')
        .select(
          svc.deps.db.raw(
            `to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"') as at`,
          ),
        );
      expect([first.updated_at, second.updated_at]).toEqual(stamps.map((s) => s.at));
      for (const row of res.body.data) expect(row.updated_at).toMatch(ISO_OFFSET);
    });

    test('when rows were enriched, then they are returned as stored with research confidence and reference', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      const batchId = await upload(api, [{ code: 'SKU-1', name: 'Chair' }]);
      const enriched = {
        status: 'done' as const,
        field: JSON.stringify({
          code: { value: 'SKU-1', source: 'feed' },
          name: { value: 'Chair', source: 'feed' },
          title: { value: 'Ergonomic office chair', source: 'generated' },
        }),
        parameter: JSON.stringify([
          {
            label: 'Material',
            value: 'steel',
            source: 'research',
            confidence: 87,
            reference: ['https://maker.test/chair'],
          },
          { label: 'Colour', value: 'black', source: 'manual' },
        ]),
      };
      await svc.deps.db('listing_rows').where({ eshop_id: eshop.id, batch_id: batchId }).update(enriched);

      // Act
      const res = await api.get(`/api/v2/rest/listing/${batchId}/product`);

      // Assert
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([
        {
          external_id: 'SKU-1',
          status: 'done',
          updated_at: expect.stringMatching(ISO_OFFSET),
          field: JSON.parse(enriched.field),
          parameter: JSON.parse(enriched.parameter),
        },
      ]);
    });

    test('when per_page is absent, then pages hold 200 rows; per_page=200 is accepted and 201 is refused with 422', async () => {
      // Arrange
      const { api } = await svc.eshop();
      const batchId = await upload(
        api,
        Array.from({ length: 201 }, (_, i) => ({ code: `SKU-${String(i).padStart(3, '0')}` })),
      );

      // Act
      const first = await api.get(`/api/v2/rest/listing/${batchId}/product`);
      const second = await api.get(`/api/v2/rest/listing/${batchId}/product?page=2`);
      const max = await api.get(`/api/v2/rest/listing/${batchId}/product?per_page=200&page=2`);
      const over = await api.get(`/api/v2/rest/listing/${batchId}/product?per_page=201`);

      // Assert
      expect(first.status).toBe(200);
      expect(first.body.meta).toEqual({ current_page: 1, per_page: 200, total: 201 });
      expect(first.body.data).toHaveLength(200);
      expect(second.body.meta).toEqual({ current_page: 2, per_page: 200, total: 201 });
      expect(second.body.data.map((r: { external_id: string }) => r.external_id)).toEqual(['SKU-200']);
      expect(max.status).toBe(200);
      expect(max.body.data).toHaveLength(1);
      expect(over.status).toBe(422);
      expect(over.body).toEqual({
        error: INVALID,
        code: 'validation_failed',
        errors: { per_page: [expect.any(String)] },
      });
    });

    test('when updated_since is given, then only rows changed strictly after it are returned', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      const batchId = await upload(api, [{ code: 'A-before' }, { code: 'B-exact' }, { code: 'C-after' }]);
      const at: Record<string, string> = {
        'A-before': '2026-04-01 11:59:59.999999+00',
        'B-exact': '2026-04-01 12:00:00+00',
        'C-after': '2026-04-01 12:00:00.000001+00',
      };
      for (const [code, updatedAt] of Object.entries(at)) {
        await svc.deps
          .db('listing_rows')
          .where({ eshop_id: eshop.id, batch_id: batchId, external_id: code })
          .update({ updated_at: svc.deps.db.raw('?::timestamptz', [updatedAt]) });
      }

      // Act
      const res = await api.get(
        `/api/v2/rest/listing/${batchId}/product?updated_since=${encodeURIComponent('2026-04-01 12:00:00')}`,
      );

      // Assert
      expect(res.status).toBe(200);
      expect(res.body.data.map((r: { external_id: string }) => r.external_id)).toEqual(['C-after']);
      expect(res.body.data[0]?.updated_at).toBe('2026-04-01T12:00:00.000001+00:00');
      expect(res.body.meta).toEqual({ current_page: 1, per_page: 200, total: 1 });
    });

    test.each(['2026-04-31 12:00:00', '2026-04-01T12:00:00', 'yesterday'])(
      'when updated_since=%s is not a Y-m-d H:i:s time, then 422',
      async (value) => {
        // Arrange
        const { api } = await svc.eshop();
        const batchId = await upload(api, [{ code: 'SKU-1' }]);

        // Act
        const res = await api.get(
          `/api/v2/rest/listing/${batchId}/product?updated_since=${encodeURIComponent(value)}`,
        );

        // Assert
        expect(res.status).toBe(422);
        expect(res.body).toEqual({
          error: INVALID,
          code: 'validation_failed',
          errors: { updated_since: ['The updated_since field must match the format Y-m-d H:i:s.'] },
        });
      },
    );

    test('when updated_since is sent empty, then it is treated as omitted', async () => {
      // Arrange
      const { api } = await svc.eshop();
      const batchId = await upload(api, [{ code: 'SKU-1' }]);

      // Act
      const res = await api.get(`/api/v2/rest/listing/${batchId}/product?updated_since=`);

      // Assert
      expect(res.status).toBe(200);
      expect(res.body.data.map((r: { external_id: string }) => r.external_id)).toEqual(['SKU-1']);
    });

    test("when another eshop's batch id is read, then 404 Listing batch not found", async () => {
      // Arrange
      const owner = await svc.eshop();
      const stranger = await svc.eshop();
      const batchId = await upload(owner.api, [{ code: 'SKU-1' }]);

      // Act
      const res = await stranger.api.get(`/api/v2/rest/listing/${batchId}/product`);
      const missing = await stranger.api.get(`/api/v2/rest/listing/${batchId + 1_000_000}/product`);

      // Assert
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Listing batch not found', code: 'not_found' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: 'Listing batch not found', code: 'not_found' });
      const own = await owner.api.get(`/api/v2/rest/listing/${batchId}/product`);
      expect(own.status).toBe(200);
    });

    test.each(['abc', '12abc', '0', '-3', '1.5'])(
      'when the batch id is %s, then 422 with errors.batch_id',
      async (batchId) => {
        // Arrange
        const { api } = await svc.eshop();

        // Act
        const res = await api.get(`/api/v2/rest/listing/${batchId}/product`);

        // Assert
        expect(res.status).toBe(422);
        expect(res.body).toEqual({
          error: INVALID,
          code: 'validation_failed',
          errors: { batch_id: [expect.any(String)] },
        });
      },
    );
  });
});
