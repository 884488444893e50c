import { catalogueService, type Client } from './helpers';

/** Listing batches: upload (JSON rows or CSV) and read back through the v2 listing endpoint. */

const INVALID = 'The given data was invalid.';
const ISO_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;
const JOB_STATES = [
  'waiting',
  'delayed',
  'active',
  'completed',
  'failed',
  'prioritized',
  'waiting-children',
] as const;

interface StoredRow {
  id: number;
  external_id: string;
  status: string;
  field: Record<string, { value: string | string[]; source: string }>;
  parameter: { label: string; value: string; source: string }[];
}

describe('catalogue-api: listing batches', () => {
  const svc = catalogueService();

  async function upload(api: Client, rows: unknown): Promise<number> {
    const res = await api.post('/api/v2/rest/listing', rows);
    expect(res.status).toBe(201);
    return res.body.data.batch_id as number;
  }

  function batches(eshopId: number) {
    return svc.deps
      .db('listing_batches')
      .where({ eshop_id: eshopId })
      .orderBy('id')
      .select('id', 'format', 'rows_total');
  }

  function storedRows(eshopId: number, batchId: number): Promise<StoredRow[]> {
    return svc.deps
      .db('listing_rows')
      .where({ eshop_id: eshopId, batch_id: batchId })
      .orderBy('id')
      .select('id', 'external_id', 'status', 'field', 'parameter');
  }

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
      expect(Object.keys(res.body.errors)).toEqual(['rows.0']);
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
      const [first, second] = res.body.data;
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
        status: 'done',
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
          .update({ updated_at: updatedAt });
      }

      // Act
      const res = await api.get(
        `/api/v2/rest/listing/${batchId}/product?updated_since=${encodeURIComponent('2026-04-01 12:00:00')}`,
      );

      // Assert
      expect(res.status).toBe(200);
      expect(res.body.data.map((r: { external_id: string }) => r.external_id)).toEqual(['C-after']);
      expect(res.body.data[0].updated_at).toBe('2026-04-01T12:00:00.000001+00:00');
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
