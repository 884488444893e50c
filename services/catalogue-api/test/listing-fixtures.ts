// Shared arrangement of the listing batch tests (upload; read rows): the service, and readers
// of the stored batches and rows.
import { catalogueService, type Client } from './helpers';

export const INVALID = 'The given data was invalid.';
export const ISO_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;
export const JOB_STATES = [
  'waiting',
  'delayed',
  'active',
  'completed',
  'failed',
  'prioritized',
  'waiting-children',
] as const;

export interface StoredRow {
  id: number;
  external_id: string;
  status: string;
  field: Record<string, { value: string | string[]; source: string }>;
  parameter: { label: string; value: string; source: string }[];
}

/** The service of one test file, with an uploader and readers of what a batch stored. */
export function listingService() {
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

  return { svc, upload, batches, storedRows };
}
