import { INVALID, ISO_OFFSET, JOB_STATES, listingService } from './listing-fixtures';

/** Listing batches: upload (JSON rows or CSV) and read back through the v2 listing endpoint. */
describe('catalogue-api: listing batches (upload)', () => {
  const { svc, upload, batches, storedRows } = listingService();

  describe('upload', () => {
    test('when JSON rows are uploaded, then 201 with batch_id, rows and created_at, and the rows are stored from the feed', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      const rows = [
        {
          code: 'SKU-1',
          ean: '8590000000001',
          name: 'Office chair',
          tags: ['office', 'chair'],
          parameter: [{ label: 'Colour', value: 'black' }],
        },
        { code: 'SKU-2', name: 'Desk', description: '' },
      ];

      // Act
      const res = await api.post('/api/v2/rest/listing', rows);

      // Assert
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        data: { batch_id: expect.any(Number), rows: 2, created_at: expect.stringMatching(ISO_OFFSET) },
      });
      const batchId = res.body.data.batch_id;
      expect(await batches(eshop.id)).toEqual([{ id: batchId, format: 'json', rows_total: 2 }]);
      const stored = await storedRows(eshop.id, batchId);
      expect(stored.map((r) => [r.external_id, r.status])).toEqual([
        ['SKU-1', 'pending'],
        ['SKU-2', 'pending'],
      ]);
      expect(stored[0]!.field).toMatchObject({
        name: { value: 'Office chair', source: 'feed' },
        tags: { value: ['office', 'chair'], source: 'feed' },
      });
      expect(stored[0]!.parameter).toEqual([{ label: 'Colour', value: 'black', source: 'feed' }]);
      expect(stored[1]!.field).toMatchObject({ name: { value: 'Desk', source: 'feed' } });
      expect(stored[1]!.field).not.toHaveProperty('description');
      expect(stored[1]!.parameter).toEqual([]);
      for (const row of stored) {
        expect(row.field).not.toHaveProperty('parameter');
        for (const value of Object.values(row.field)) expect(value.source).toBe('feed');
      }
    });

    test('when a CSV with a header row and parameter:<label> columns is uploaded, then its rows are stored with fields and parameters', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      const csv = [
        'code,ean,name,parameter:Colour,parameter:Material',
        'SKU-1,8590000000001,"Chair, black",black,steel',
        ',8590000000002,Desk,,oak',
      ].join('\n');

      // Act
      const res = await api.post('/api/v2/rest/listing', csv, 'text/csv');

      // Assert
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({
        batch_id: expect.any(Number),
        rows: 2,
        created_at: expect.stringMatching(ISO_OFFSET),
      });
      expect(await batches(eshop.id)).toEqual([{ id: res.body.data.batch_id, format: 'csv', rows_total: 2 }]);
      const stored = await storedRows(eshop.id, res.body.data.batch_id);
      expect(stored.map((r) => r.external_id)).toEqual(['SKU-1', '8590000000002']);
      expect(stored[0]!.field).toMatchObject({ name: { value: 'Chair, black', source: 'feed' } });
      expect(stored[0]!.parameter).toEqual([
        { label: 'Colour', value: 'black', source: 'feed' },
        { label: 'Material', value: 'steel', source: 'feed' },
      ]);
      expect(stored[1]!.field).toMatchObject({ name: { value: 'Desk', source: 'feed' } });
      expect(stored[1]!.parameter).toEqual([{ label: 'Material', value: 'oak', source: 'feed' }]);
      for (const row of stored)
        expect(Object.keys(row.field).some((k) => k.startsWith('parameter'))).toBe(false);
    });

    test('when a CSV has a byte order mark and CRLF line endings, then it is read like any other CSV', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      const csv = '\ufeffcode,name,parameter:Colour\r\nSKU-1,Chair,black\r\nSKU-2,Desk,white\r\n';

      // Act
      const res = await api.post('/api/v2/rest/listing', csv, 'text/csv; charset=utf-8');

      // Assert
      expect(res.status).toBe(201);
      expect(res.body.data.rows).toBe(2);
      const stored = await storedRows(eshop.id, res.body.data.batch_id);
      expect(stored.map((r) => [r.external_id, r.field.name, r.parameter])).toEqual([
        ['SKU-1', { value: 'Chair', source: 'feed' }, [{ label: 'Colour', value: 'black', source: 'feed' }]],
        ['SKU-2', { value: 'Desk', source: 'feed' }, [{ label: 'Colour', value: 'white', source: 'feed' }]],
      ]);
    });

    test('when rows have a code, only an ean, or an empty code and an ean, then external_id is the code or else the ean', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();

      // Act
      const batchId = await upload(api, [
        { code: 'SKU-1', ean: '8590000000001' },
        { ean: '8590000000002' },
        { code: '', ean: '8590000000003' },
      ]);

      // Assert
      const stored = await storedRows(eshop.id, batchId);
      expect(stored.map((r) => r.external_id)).toEqual(['SKU-1', '8590000000002', '8590000000003']);
    });

    test('when a JSON row has neither code nor ean, then 422 naming that row and nothing is stored', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();

      // Act
      const res = await api.post('/api/v2/rest/listing', [{ code: 'SKU-1' }, { name: 'No identifier' }]);

      // Assert
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: INVALID,
        code: 'validation_failed',
        errors: { 'rows.1': [expect.stringMatching(/code.*ean/)] },
      });
      expect(await batches(eshop.id)).toEqual([]);
    });

    test('when a CSV row has neither code nor ean, then 422 naming that row and nothing is stored', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      const csv = 'code,ean,name\nSKU-1,,Chair\n,,Nameless\n';

      // Act
      const res = await api.post('/api/v2/rest/listing', csv, 'text/csv');

      // Assert
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: INVALID,
        code: 'validation_failed',
        errors: { 'rows.1': [expect.stringMatching(/code.*ean/)] },
      });
      expect(await batches(eshop.id)).toEqual([]);
    });

    test('when a JSON row has a field that is neither a string nor an array of strings, then 422 naming that row', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();

      // Act
      const res = await api.post('/api/v2/rest/listing', [{ code: 'SKU-1', price: 12.5 }]);

      // Assert
      expect(res.status).toBe(422);
      expect(res.body.error).toBe(INVALID);
      expect(Object.keys(res.body.errors ?? {})).toEqual(['rows.0']);
      expect(await batches(eshop.id)).toEqual([]);
    });

    test('when a CSV has a broken quote, then 422 (not 500) and nothing is stored', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      const csv = 'code,name\nSKU-1,"Chair\nSKU-2,Desk\n';

      // Act
      const res = await api.post('/api/v2/rest/listing', csv, 'text/csv');

      // Assert
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: INVALID,
        code: 'validation_failed',
        errors: { body: [expect.any(String)] },
      });
      expect(await batches(eshop.id)).toEqual([]);
    });

    test.each([
      ['before', 'code,parameter,parameter:Colour\nSKU-1,loose,black\n'],
      ['after', 'code,parameter:Colour,parameter\nSKU-1,black,loose\n'],
    ])(
      'when a CSV has a plain "parameter" column %s a parameter:<label> column, then 422 saying the column is reserved (not 500)',
      async (_order, csv) => {
        // Arrange
        const { eshop, api } = await svc.eshop();

        // Act
        const res = await api.post('/api/v2/rest/listing', csv, 'text/csv');

        // Assert
        expect(res.status).toBe(422);
        expect(res.body).toEqual({
          error: INVALID,
          code: 'validation_failed',
          errors: {
            body: ['The CSV column "parameter" is reserved: name parameter columns "parameter:<label>".'],
          },
        });
        expect(await batches(eshop.id)).toEqual([]);
      },
    );

    test('when the body is text/plain, then 415 and nothing is stored', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();

      // Act
      const res = await api.post('/api/v2/rest/listing', 'code,name\nSKU-1,Chair\n', 'text/plain');

      // Assert
      expect(res.status).toBe(415);
      expect(res.body).toEqual({ error: expect.any(String), code: 'unsupported_media_type' });
      expect(await batches(eshop.id)).toEqual([]);
    });

    test('when exactly 10,000 rows are uploaded, then they are all stored', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      const rows = Array.from({ length: 10_000 }, (_, i) => ({ code: `S${i}`, name: `Item ${i}` }));

      // Act
      const res = await api.post('/api/v2/rest/listing', rows);

      // Assert
      expect(res.status).toBe(201);
      expect(res.body.data.rows).toBe(10_000);
      const [stored] = await svc.deps
        .db('listing_rows')
        .where({ eshop_id: eshop.id, batch_id: res.body.data.batch_id })
        .count<{ count: number }[]>({ count: '*' });
      expect(stored?.count).toBe(10_000);
    });

    test('when more than 10,000 rows are uploaded, then 422 and nothing is stored', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();
      const rows = Array.from({ length: 10_001 }, (_, i) => ({ code: `S${i}` }));
      const csv = ['code', ...rows.map((r) => r.code)].join('\n');

      // Act
      const json = await api.post('/api/v2/rest/listing', rows);
      const fromCsv = await api.post('/api/v2/rest/listing', csv, 'text/csv');

      // Assert
      for (const res of [json, fromCsv]) {
        expect(res.status).toBe(422);
        expect(res.body).toEqual({
          error: INVALID,
          code: 'validation_failed',
          errors: { body: [expect.stringContaining('10000')] },
        });
      }
      expect(await batches(eshop.id)).toEqual([]);
    });

    test('when a batch is uploaded, then one listing-enrichment job {eshop_id, batch_id, row_id} is queued per row', async () => {
      // Arrange
      const { eshop, api } = await svc.eshop();

      // Act
      const batchId = await upload(api, [{ code: 'SKU-1' }, { code: 'SKU-2' }, { ean: '8590000000003' }]);

      // Assert
      const stored = await storedRows(eshop.id, batchId);
      const jobs = await svc.deps.queues['listing-enrichment'].getJobs([...JOB_STATES]);
      const mine = jobs
        .filter((job) => job?.data.eshop_id === eshop.id)
        .map((job) => job.data)
        .sort((a, b) => a.row_id - b.row_id);
      expect(mine).toEqual(stored.map((row) => ({ eshop_id: eshop.id, batch_id: batchId, row_id: row.id })));
    });
  });
});
