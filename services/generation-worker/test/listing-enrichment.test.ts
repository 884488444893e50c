// Listing enrichment of uploaded feed rows, against the real database (and Redis for the queue
// test, on a prefix of its own). The builtin provider makes generation deterministic.
import nock from 'nock';
import type { Worker } from 'bullmq';
import { eventsRepository, listingRepository, type ListingRow, type ListingRowInput } from '@catalogue/db';
import { closeWorkers, enqueue, type JobPayloads } from '@catalogue/queue';
import { eventually, makeEshop, testConfig } from '@catalogue/testing';
import { buildDeps, closeDeps, type Deps } from '../src/deps';
import { startWorkers } from '../src/handlers';
import { ProviderError } from '../src/providers';
import {
  CONFIRMED_CONFIDENCE,
  DISPUTED_CONFIDENCE,
  enrichListingRow,
  RESEARCH_CONFIDENCE,
  type ListingDeps,
} from '../src/services/listing-enrichment.service';

const PREFIX = `${process.env.TEST_QUEUE_PREFIX}-listing`;
const MAKER = 'https://maker.listing-test.example';
const SHOP = 'https://shop.listing-test.example';

let deps: Deps;

beforeAll(() => {
  nock.disableNetConnect();
  nock.enableNetConnect(/127\.0\.0\.1|localhost/);
  deps = buildDeps(testConfig({ QUEUE_PREFIX: PREFIX }));
});
afterEach(() => nock.cleanAll());
afterAll(async () => {
  nock.enableNetConnect();
  nock.restore(); // node:http back for the next file of this jest worker (providers-fixtures.ts)
  await closeDeps(deps);
});

/** Research that may reach only the two test hosts (as public addresses); loopback refused. */
const researching = (): ListingDeps => ({
  ...deps,
  research: {
    ...deps.research,
    allowLoopback: false,
    lookup: async (host) =>
      ['maker.listing-test.example', 'shop.listing-test.example'].includes(host) ? ['93.184.215.14'] : [],
  },
});

const feed = (values: Record<string, string | string[]>) =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { value: v, source: 'feed' as const }]));

async function upload(
  eshopId: number,
  rows: ListingRowInput[],
): Promise<{ batchId: number; rowIds: number[] }> {
  const { batch, rowIds } = await deps.db.transaction((trx) =>
    listingRepository.createBatch(trx, eshopId, 'json', rows),
  );
  return { batchId: batch.id, rowIds };
}

async function oneRow(row: Omit<ListingRowInput, 'externalId'> & { externalId?: string }) {
  const eshopId = (await makeEshop(deps.db)).eshop.id;
  const { batchId, rowIds } = await upload(eshopId, [{ externalId: 'P1', ...row }]);
  const payload: JobPayloads['listing-enrichment'] = {
    eshop_id: eshopId,
    batch_id: batchId,
    row_id: rowIds[0]!,
  };
  const read = async (): Promise<ListingRow & { errorMessage: string | null }> => {
    const found = (await listingRepository.findRow(deps.db, eshopId, batchId, rowIds[0]!))!;
    const { error_message } = (await deps
      .db('listing_rows')
      .where({ id: rowIds[0] })
      .first('error_message'))!;
    return { ...found, errorMessage: error_message };
  };
  return { eshopId, batchId, payload, read };
}

describe('enrichListingRow', () => {
  test('when a row has only code and name, then a description is generated and the feed values stay feed', async () => {
    const row = await oneRow({ field: feed({ code: 'P1', name: 'Trail Runner 2' }), parameter: [] });
    const before = await row.read();

    const outcome = await enrichListingRow(deps, row.payload);

    const after = await row.read();
    expect(outcome).toBe('done');
    expect(after.status).toBe('done');
    expect(after.updatedAt > before.updatedAt).toBe(true);
    expect(after.field.code).toEqual({ value: 'P1', source: 'feed' });
    expect(after.field.name).toEqual({ value: 'Trail Runner 2', source: 'feed' });
    expect(after.field.description).toEqual({
      value: '<ul><li><strong>Code</strong>: P1</li></ul>',
      source: 'generated',
    });
    // Nothing in the feed says what a short description could say: it stays missing.
    expect(after.field.short_description).toBeUndefined();
    expect(after.parameter).toEqual([]);
    expect(after.errorMessage).toBeNull();
  });

  test('when a row has a short description and parameters, then the description uses them and nothing else', async () => {
    const row = await oneRow({
      field: feed({
        code: 'P2',
        name: 'Rain jacket',
        short_description: 'A packable rain jacket. It weighs 190 g.',
      }),
      parameter: [
        { label: 'Colour', value: 'blue', source: 'feed' },
        { label: 'Size', value: 'M', source: 'feed' },
      ],
    });

    await enrichListingRow(deps, row.payload);

    const after = await row.read();
    expect(after.field.short_description).toEqual({
      value: 'A packable rain jacket. It weighs 190 g.',
      source: 'feed',
    });
    expect(after.field.description?.source).toBe('generated');
    expect(after.field.description?.value).toBe(
      '<p>A packable rain jacket. It weighs 190 g.</p>' +
        '<ul><li><strong>Code</strong>: P2</li><li><strong>Colour</strong>: blue</li><li><strong>Size</strong>: M</li></ul>',
    );
    expect(after.parameter).toEqual([
      { label: 'Colour', value: 'blue', source: 'feed' },
      { label: 'Size', value: 'M', source: 'feed' },
    ]);
  });

  test('when a row has a description but no short description, then the short one is taken from it', async () => {
    const row = await oneRow({
      field: feed({
        code: 'P3',
        name: 'Mug',
        description: '<p>A stoneware mug for 350 ml. Dishwasher safe.</p><p>Made in Portugal.</p>',
      }),
      parameter: [],
    });

    await enrichListingRow(deps, row.payload);

    const after = await row.read();
    expect(after.field.description?.source).toBe('feed');
    expect(after.field.short_description).toEqual({
      value: 'A stoneware mug for 350 ml. Dishwasher safe. Made in Portugal.',
      source: 'generated',
    });
  });

  test('when the row has URL fields, then parameters found on the pages carry research, confidence and reference', async () => {
    const maker = nock(MAKER)
      .get('/p4')
      .reply(
        200,
        '<html><body><h1>Trail Runner 2</h1><ul><li>Material: recycled mesh</li><li>Drop: 6 mm</li>' +
          '<li>Colour: red</li><li>Visit https://example.com: now</li></ul></body></html>',
        { 'Content-Type': 'text/html' },
      );
    const shop = nock(SHOP)
      .get('/p4')
      .reply(200, 'Material: Recycled mesh\nWeight: 280 g\nDrop: 8 mm', { 'Content-Type': 'text/plain' });
    const row = await oneRow({
      field: feed({ code: 'P4', name: 'Trail Runner 2', url: `${MAKER}/p4`, source_url: `${SHOP}/p4` }),
      parameter: [{ label: 'Colour', value: 'black', source: 'feed' }],
    });

    await enrichListingRow(researching(), row.payload);

    expect(maker.isDone() && shop.isDone()).toBe(true);
    const after = await row.read();
    expect(after.status).toBe('done');
    expect(after.field.url).toEqual({ value: `${MAKER}/p4`, source: 'feed' });
    expect(after.parameter).toEqual([
      { label: 'Colour', value: 'black', source: 'feed' },
      {
        label: 'Material',
        value: 'recycled mesh',
        source: 'research',
        confidence: CONFIRMED_CONFIDENCE,
        reference: [`${MAKER}/p4`, `${SHOP}/p4`],
      },
      {
        label: 'Drop',
        value: '6 mm',
        source: 'research',
        confidence: DISPUTED_CONFIDENCE,
        reference: [`${MAKER}/p4`],
      },
      {
        label: 'Weight',
        value: '280 g',
        source: 'research',
        confidence: RESEARCH_CONFIDENCE,
        reference: [`${SHOP}/p4`],
      },
    ]);
    // Research facts feed the generated description too.
    expect(after.field.description?.value).toContain('<strong>Weight</strong>: 280 g');
    expect(after.field.description?.value).toContain('<strong>Material</strong>: recycled mesh');
    // The pages disagree about the drop: it is not written into the description.
    expect(after.field.description?.value).not.toContain('Drop');
  });

  test('when a URL points at a private address, then it is not read and the row is still enriched', async () => {
    const row = await oneRow({
      field: feed({ code: 'P5', name: 'Lamp', url: 'http://127.0.0.1:9/admin' }),
      parameter: [],
    });

    await enrichListingRow(researching(), row.payload);

    const after = await row.read();
    expect(after.status).toBe('done');
    expect(after.parameter).toEqual([]);
    expect(after.field.description?.source).toBe('generated');
  });

  test('when web research is off (WEB_RESEARCH_MAX_URLS=0), then no page is fetched', async () => {
    const scope = nock(MAKER).get('/p6').reply(200, 'Material: oak', { 'Content-Type': 'text/plain' });
    const row = await oneRow({
      field: feed({ code: 'P6', name: 'Table', url: `${MAKER}/p6` }),
      parameter: [],
    });

    await enrichListingRow(
      { ...researching(), research: { ...researching().research, maxUrls: 0 } },
      row.payload,
    );

    expect(scope.isDone()).toBe(false);
    expect((await row.read()).parameter).toEqual([]);
  });

  test('when the rows of a batch end at once, then exactly one listing.batch_finished says how many there were and how many failed', async () => {
    const eshopId = (await makeEshop(deps.db)).eshop.id;
    const rows = Array.from({ length: 8 }, (_, i) => ({
      externalId: `B${i}`,
      field: feed({ code: `B${i}`, name: `Chair ${i}` }),
      parameter: [],
    }));
    const { batchId, rowIds } = await upload(eshopId, rows);
    const failing: ListingDeps = {
      ...deps,
      provider: { name: 'openai', generate: () => Promise.reject(new ProviderError('gave up', false)) },
    };

    // Every row at the same time; two of them fail.
    await Promise.all(
      rowIds.map((rowId, i) =>
        enrichListingRow(i < 2 ? failing : deps, { eshop_id: eshopId, batch_id: batchId, row_id: rowId }),
      ),
    );

    const finished = (await eventsRepository.listAfter(deps.db, eshopId, 0, 100)).filter(
      (e) => e.type === 'listing.batch_finished',
    );
    expect(finished).toEqual([
      expect.objectContaining({
        entityType: 'listing_batch',
        externalId: String(batchId),
        data: { batch_id: batchId, rows: 8, failed: 2 },
      }),
    ]);
  });

  test('when the provider fails, then the row is failed with a message and its feed values are kept', async () => {
    const row = await oneRow({ field: feed({ code: 'P7', name: 'Chair' }), parameter: [] });
    const failing: ListingDeps = {
      ...deps,
      provider: {
        name: 'openai',
        generate: () =>
          Promise.reject(new ProviderError('openai provider gave up after 4 attempts: HTTP 503', false)),
      },
    };

    const outcome = await enrichListingRow(failing, row.payload);

    const after = await row.read();
    expect(outcome).toBe('failed');
    expect(after.status).toBe('failed');
    expect(after.errorMessage).toBe('Enrichment failed: openai provider gave up after 4 attempts: HTTP 503');
    expect(after.field).toEqual(feed({ code: 'P7', name: 'Chair' }));
  });

  test('when the payload names another eshop or batch, then nothing happens', async () => {
    const row = await oneRow({ field: feed({ code: 'P8', name: 'Desk' }), parameter: [] });
    const other = (await makeEshop(deps.db)).eshop.id;

    expect(await enrichListingRow(deps, { ...row.payload, eshop_id: other })).toBe('missing');
    expect(await enrichListingRow(deps, { ...row.payload, batch_id: row.batchId + 1_000_000 })).toBe(
      'missing',
    );

    expect((await row.read()).status).toBe('pending');
  });

  test('when a finished row is delivered again, then it is left as it is', async () => {
    const row = await oneRow({ field: feed({ code: 'P9', name: 'Shelf' }), parameter: [] });
    await enrichListingRow(deps, row.payload);
    const done = await row.read();

    expect(await enrichListingRow(deps, row.payload)).toBe('already_finished');

    expect(await row.read()).toEqual(done);
  });

  test('when every standard field is in the feed, then nothing is generated', async () => {
    const generate = jest.fn();
    const row = await oneRow({
      field: feed({ code: 'P10', name: 'Pen', description: '<p>Blue ink.</p>', short_description: 'A pen.' }),
      parameter: [],
    });

    await enrichListingRow({ ...deps, provider: { name: 'builtin', generate } }, row.payload);

    expect(generate).not.toHaveBeenCalled();
    const after = await row.read();
    expect(after.status).toBe('done');
    expect(Object.values(after.field).every((f) => f.source === 'feed')).toBe(true);
  });
});

describe('the listing-enrichment queue', () => {
  let workers: Worker[];

  beforeAll(() => {
    workers = startWorkers(deps, ['listing-enrichment']);
  });
  afterAll(async () => {
    await closeWorkers(workers);
  });

  test('when rows are queued, then a real worker enriches each one', async () => {
    const eshopId = (await makeEshop(deps.db)).eshop.id;
    const { batchId, rowIds } = await upload(eshopId, [
      { externalId: 'A', field: feed({ code: 'A', name: 'First' }), parameter: [] },
      { externalId: 'B', field: feed({ code: 'B', name: 'Second' }), parameter: [] },
    ]);

    for (const row_id of rowIds) {
      await enqueue(deps.queues, 'listing-enrichment', { eshop_id: eshopId, batch_id: batchId, row_id });
    }

    await eventually(async () => {
      const rows = await listingRepository.listRows(deps.db, eshopId, batchId, { page: 1, perPage: 10 });
      expect(rows.map((r) => r.status)).toEqual(['done', 'done']);
      expect(rows.map((r) => r.field.description?.source)).toEqual(['generated', 'generated']);
    }, 15_000);
  });
});
