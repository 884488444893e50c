import { catalogueService } from './helpers';

const ENDPOINTS = [
  { version: 'v1', path: '/api/v1/parameters/bulk-import' },
  { version: 'v2', path: '/api/v2/rest/parameters' },
] as const;

describe('catalogue-api: parameter import (v1 bulk-import and v2)', () => {
  const svc = catalogueService();

  /** The stored parameters of one eshop with their values, as [id, name, [[value id, value]]]. */
  async function stored(eshopId: number) {
    const db = svc.deps.db;
    const parameters = await db('parameters').where({ eshop_id: eshopId }).orderBy('external_id');
    const values = await db('parameter_values').where({ eshop_id: eshopId }).orderBy('external_id');
    return parameters.map((p) => [
      Number(p.external_id),
      p.name,
      values.filter((v) => v.parameter_id === p.id).map((v) => [Number(v.external_id), v.value]),
    ]);
  }

  const counts = (c: Partial<Record<string, number>>) => ({
    imported: 0,
    updated: 0,
    values_imported: 0,
    values_updated: 0,
    ...c,
  });

  describe.each(ENDPOINTS)('$version ($path)', ({ path }) => {
    test('when new parameters with values are imported, then they are stored with their values', async () => {
      const shop = await svc.eshop();

      const res = await shop.api.post(path, [
        {
          id: 1,
          name: 'Colour',
          values: [
            { id: 10, value: 'Red' },
            { id: 11, value: 'Blue' },
          ],
        },
        { id: 2, name: 'Material' },
      ]);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        ...counts({ imported: 2, values_imported: 2 }),
        skipped: 0,
        errors: [],
      });
      expect(await stored(shop.eshop.id)).toEqual([
        [
          1,
          'Colour',
          [
            [10, 'Red'],
            [11, 'Blue'],
          ],
        ],
        [2, 'Material', []],
      ]);
    });

    test('when parameters are imported again, then names and sent values are updated, new values added and values not sent kept', async () => {
      const shop = await svc.eshop();
      await shop.api.post(path, [
        {
          id: 1,
          name: 'Colour',
          values: [
            { id: 10, value: 'Red' },
            { id: 11, value: 'Blue' },
          ],
        },
      ]);

      const res = await shop.api.post(path, [
        {
          id: 1,
          name: 'Color',
          values: [
            { id: 10, value: 'Dark red' },
            { id: 12, value: 'Green' },
          ],
        },
        { id: 3, name: 'Size', values: [{ id: 10, value: 'XL' }] },
      ]);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        ...counts({ imported: 1, updated: 1, values_imported: 2, values_updated: 1 }),
        skipped: 0,
        errors: [],
      });
      expect(await stored(shop.eshop.id)).toEqual([
        [
          1,
          'Color',
          [
            [10, 'Dark red'],
            [11, 'Blue'],
            [12, 'Green'],
          ],
        ],
        [3, 'Size', [[10, 'XL']]],
      ]);
    });

    test('when a parameter repeats a value id, then that parameter is skipped and nothing of it is written', async () => {
      const shop = await svc.eshop();

      const res = await shop.api.post(path, [
        {
          id: 1,
          name: 'Colour',
          values: [
            { id: 10, value: 'Red' },
            { id: 10, value: 'Blue' },
          ],
        },
        { id: 2, name: 'Size', values: [{ id: 10, value: 'XL' }] },
      ]);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: false,
        ...counts({ imported: 1, values_imported: 1 }),
        skipped: 1,
        errors: [{ index: 0, id: 1, errors: [expect.stringContaining('duplicate')] }],
      });
      expect(await stored(shop.eshop.id)).toEqual([[2, 'Size', [[10, 'XL']]]]);
    });

    test('when the same parameter id appears twice, then the first is written and the second reported as a duplicate', async () => {
      const shop = await svc.eshop();

      const res = await shop.api.post(path, [
        { id: 1, name: 'First' },
        { id: 1, name: 'Second' },
      ]);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: false,
        ...counts({ imported: 1 }),
        skipped: 1,
        errors: [{ index: 1, id: 1, errors: ['The id field has a duplicate value.'] }],
      });
      expect(await stored(shop.eshop.id)).toEqual([[1, 'First', []]]);
    });

    test('when items are invalid, then each is reported and only the valid one is written', async () => {
      const shop = await svc.eshop();

      const res = await shop.api.post(path, [
        { id: 1, name: 'Valid', values: [{ id: 1, value: '' }] },
        { id: 2 },
        { id: 0, name: 'Zero' },
        { id: 3.5, name: 'Fraction' },
        { id: 4, name: 'Values', values: 'Red' },
        { id: 5, name: 'Value', values: [{ id: 1 }] },
        { id: 6, name: 'Value', values: [{ id: 1, value: 5 }] },
        { id: 7, name: 'Value', values: [{ id: '1', value: 'a' }] },
        { id: 8, name: 'n'.repeat(256) },
        { id: 9, name: 'Value', values: [{ id: 1, value: 'v'.repeat(1001) }] },
        null,
      ]);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: false,
        ...counts({ imported: 1, values_imported: 1 }),
        skipped: 10,
        errors: [
          { index: 1, id: 2, errors: ['The name field is required.'] },
          { index: 2, id: 0, errors: ['The id field must be at least 1.'] },
          { index: 3, id: null, errors: ['The id field must be an integer.'] },
          { index: 4, id: 4, errors: ['The values field must be an array.'] },
          { index: 5, id: 5, errors: ['The values.0.value field is required.'] },
          { index: 6, id: 6, errors: ['The values.0.value field must be a string.'] },
          { index: 7, id: 7, errors: ['The values.0.id field must be an integer.'] },
          { index: 8, id: 8, errors: ['The name field must not be greater than 255 characters.'] },
          {
            index: 9,
            id: 9,
            errors: ['The values.0.value field must not be greater than 1000 characters.'],
          },
          { index: 10, id: null, errors: ['The item must be an object.'] },
        ],
      });
      expect(await stored(shop.eshop.id)).toEqual([[1, 'Valid', [[1, '']]]]);
    });

    test('when an id is a string or beyond the safe integer range, then the item is reported, never converted', async () => {
      const shop = await svc.eshop();
      // Raw JSON: 9007199254740993 cannot be represented exactly and must not be rounded and stored.
      const body =
        '[{"id": "5", "name": "Text id"}, {"id": 9007199254740993, "name": "Huge"}, {"id": 1e30, "name": "Huger"}]';

      const res = await shop.api.post(path, body);

      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: false, imported: 0, skipped: 3 });
      expect(res.body.errors).toEqual([
        expect.objectContaining({ index: 0, errors: ['The id field must be an integer.'] }),
        expect.objectContaining({ index: 1, errors: ['The id field must be an integer.'] }),
        expect.objectContaining({ index: 2, errors: ['The id field must be an integer.'] }),
      ]);
      expect(await stored(shop.eshop.id)).toEqual([]);
    });

    test('when parameters are imported, then no render job is queued', async () => {
      const shop = await svc.eshop();

      await shop.api.post(path, [{ id: 1, name: 'Colour', values: [{ id: 1, value: 'Red' }] }]);

      expect(await svc.renderJobs(shop.eshop.id)).toEqual([]);
    });

    test('when the body is not an array, then 422 naming the body', async () => {
      const shop = await svc.eshop();

      const res = await shop.api.post(path, { id: 1, name: 'Colour' });

      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: 'The given data was invalid.',
        code: 'validation_failed',
        errors: { body: [expect.any(String)] },
      });
      expect(await stored(shop.eshop.id)).toEqual([]);
    });

    test('when 101 parameters are sent, then 422 with the bulk error and nothing is written', async () => {
      const shop = await svc.eshop();

      const res = await shop.api.post(
        path,
        Array.from({ length: 101 }, (_, i) => ({ id: i + 1, name: `P${i}` })),
      );

      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        success: false,
        errors: { bulk: ['Maximum 100 items allowed for bulk import'] },
        code: 'bulk_limit_exceeded',
      });
      expect(await stored(shop.eshop.id)).toEqual([]);
    });

    test('when the token is missing, then 401 and nothing is written', async () => {
      const shop = await svc.eshop();

      const res = await fetch(`${svc.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify([{ id: 1, name: 'Colour' }]),
      });

      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: 'Authorization token required', code: 'token_missing' });
      expect(await stored(shop.eshop.id)).toEqual([]);
    });
  });

  test('when a request carries as many values as the limits allow (100 parameters of 1,000 values), then all are written', async () => {
    const shop = await svc.eshop();
    const items = Array.from({ length: 100 }, (_, p) => ({
      id: p + 1,
      name: `Parameter ${p + 1}`,
      values: Array.from({ length: 1000 }, (_, v) => ({ id: v + 1, value: `v${v}` })),
    }));

    const res = await shop.api.post('/api/v2/rest/parameters', items);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      ...counts({ imported: 100, values_imported: 100_000 }),
      skipped: 0,
      errors: [],
    });
    const [total] = await svc.deps.db('parameter_values').where({ eshop_id: shop.eshop.id }).count();
    expect(Number(total?.count)).toBe(100_000);
  });

  test('when the v1 and v2 endpoints import the same parameter, then they write the same row', async () => {
    const shop = await svc.eshop();
    await shop.api.post('/api/v1/parameters/bulk-import', [
      { id: 1, name: 'Colour', values: [{ id: 1, value: 'Red' }] },
    ]);

    const res = await shop.api.post('/api/v2/rest/parameters', [
      { id: 1, name: 'Colour', values: [{ id: 1, value: 'Red' }] },
    ]);

    expect(res.body).toEqual({
      success: true,
      ...counts({ updated: 1, values_updated: 1 }),
      skipped: 0,
      errors: [],
    });
    expect(await stored(shop.eshop.id)).toEqual([[1, 'Colour', [[1, 'Red']]]]);
  });

  test('when requests import the same parameters at once in opposite orders, then all of them succeed', async () => {
    const shop = await svc.eshop();
    const items = Array.from({ length: 100 }, (_, p) => ({
      id: p + 1,
      name: `Parameter ${p + 1}`,
      values: Array.from({ length: 20 }, (_, v) => ({ id: v + 1, value: `v${v}` })),
    }));
    await shop.api.post('/api/v2/rest/parameters', items);
    const statuses: number[] = [];

    // A few rounds of six concurrent requests: lock-order problems show up as deadlocks (500).
    for (let round = 1; round <= 5; round++) {
      const renamed = items.map((item) => ({ ...item, name: `${item.name} r${round}` }));
      const reversed = [...renamed].reverse();
      const bodies = [renamed, reversed, renamed, reversed, renamed, reversed];
      const responses = await Promise.all(
        bodies.map((body) => shop.api.post('/api/v2/rest/parameters', body)),
      );
      statuses.push(...responses.map((r) => r.status));
    }

    expect(statuses).toEqual(Array(30).fill(200));
    const names = (await stored(shop.eshop.id)).map(([, name]) => name);
    expect(names.every((name) => String(name).endsWith(' r5'))).toBe(true);
  });
});
