import { parse } from 'csv-parse/sync';
import Joi from 'joi';
import { listingRepository, type Knex, type ListingField, type ListingRowInput } from '@catalogue/db';
import {
  fieldMessage,
  firstUnstorablePath,
  NotFoundError,
  ReplicaBehind,
  unstorableTextMessage,
  ValidationError,
} from '@catalogue/http';
import { addFair, ENQUEUE_TIMEOUT_MS, listingJobId, withTimeout } from '@catalogue/queue';
import type { ListingQuery } from '../schemas/list.schema';
import type { Deps } from '../deps';

/** Rows per uploaded batch; larger feeds are split by the client into several batches. */
export const LISTING_ROW_LIMIT = 10_000;
const PARAMETER_COLUMN = 'parameter:';

interface RawRow {
  code?: string;
  ean?: string;
  parameter?: { label: string; value: string }[];
  [field: string]: unknown;
}

const text = Joi.string().max(10_000);
const rowSchema = Joi.object<RawRow>({
  code: Joi.string().allow('').max(255),
  ean: Joi.string().allow('').max(64),
  parameter: Joi.array()
    .items(Joi.object({ label: Joi.string().min(1).max(255).required(), value: text.allow('').required() }))
    .max(500),
})
  .pattern(Joi.string().min(1).max(64), Joi.alternatives(text.allow(''), Joi.array().items(text).max(100)))
  .max(200);

/** A field's value as rowSchema admits it: a text or a list of texts. */
function isFieldValue(value: unknown): value is string | string[] {
  return typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'));
}

/** CSV: one header row; `parameter:<label>` columns are parameters, every other column a field. */
function rowsFromCsv(csv: string): RawRow[] {
  let records: Record<string, string>[];
  try {
    records = parse(csv, { columns: true, skip_empty_lines: true, trim: true, bom: true });
  } catch (err) {
    throw new ValidationError({
      body: [`The CSV could not be read: ${err instanceof Error ? err.message : String(err)}`],
    });
  }
  if (records.length && Object.hasOwn(records[0]!, 'parameter')) {
    throw new ValidationError({
      body: ['The CSV column "parameter" is reserved: name parameter columns "parameter:<label>".'],
    });
  }
  return records.map((record) => {
    const row: RawRow = { parameter: [] };
    for (const [column, value] of Object.entries(record)) {
      if (value === '') continue;
      if (column.startsWith(PARAMETER_COLUMN))
        row.parameter!.push({ label: column.slice(PARAMETER_COLUMN.length), value });
      else row[column] = value;
    }
    return row;
  });
}

/** A feed row as stored: every non-empty value is a field from the feed. */
function toRowInput(row: RawRow): ListingRowInput {
  const field: Record<string, ListingField> = {};
  for (const [name, value] of Object.entries(row)) {
    if (name === 'parameter' || value === '' || (Array.isArray(value) && !value.length)) continue;
    // Always a text or texts (rowSchema, the CSV's cells): the check only makes the type true.
    if (isFieldValue(value)) field[name] = { value, source: 'feed' };
  }
  return {
    externalId: row.code || row.ean!,
    field,
    parameter: (row.parameter ?? [])
      .filter((p) => p.value !== '')
      .map((p) => ({ ...p, source: 'feed' as const })),
  };
}

function checkRows(raw: unknown): ListingRowInput[] {
  if (!Array.isArray(raw))
    throw new ValidationError({ body: ['The body must be an array of rows or a CSV file.'] });
  if (!raw.length) throw new ValidationError({ body: ['The batch must have at least one row.'] });
  if (raw.length > LISTING_ROW_LIMIT) {
    throw new ValidationError({ body: [`The batch must not have more than ${LISTING_ROW_LIMIT} rows.`] });
  }
  const errors: Record<string, string[]> = {};
  const rows: RawRow[] = [];
  raw.forEach((row: unknown, index) => {
    const unstorable = firstUnstorablePath(row);
    if (unstorable !== undefined) {
      errors[`rows.${index}`] = [unstorableTextMessage(`rows.${index}.${unstorable}`)];
      return;
    }
    const { error, value } = rowSchema.validate(row, { abortEarly: false, convert: false });
    const problems = error
      ? error.details.map((d) => fieldMessage({ ...d, path: ['rows', index, ...d.path] }))
      : [];
    if (!error && !value.code && !value.ean) {
      problems.push(`The rows.${index} row needs a code or an ean.`);
    }
    if (problems.length) errors[`rows.${index}`] = problems;
    else if (!error) rows.push(value);
  });
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return rows.map(toRowInput);
}

type ListingDeps = Pick<Deps, 'db' | 'queues' | 'logger'>;

/** The answer to an upload: the stored batch (201). */
export interface UploadAnswer {
  data: { batch_id: number; rows: number; created_at: string };
}

/** Stores a whole feed (all rows or none) and queues the enrichment of each row. */
export async function uploadListing(
  deps: ListingDeps,
  eshopId: number,
  format: 'json' | 'csv',
  body: unknown,
  /**
   * Called in the batch's transaction with the answer: an Idempotency-Key's outcome commits with
   * the batch (a retry after a crash stores no second batch). The answer does not depend on the
   * queueing after the commit, which answers 201 whether Redis took the jobs or not.
   */
  recordOutcome?: (trx: Knex, answer: UploadAnswer) => Promise<void>,
): Promise<UploadAnswer> {
  const rows = checkRows(format === 'csv' ? rowsFromCsv(typeof body === 'string' ? body : '') : body);
  const { answer, batch, rowIds } = await deps.db.transaction(async (trx) => {
    const created = await listingRepository.createBatch(trx, eshopId, format, rows);
    const stored: UploadAnswer = {
      data: {
        batch_id: created.batch.id,
        rows: created.batch.rowsTotal,
        created_at: created.batch.createdAt,
      },
    };
    await recordOutcome?.(trx, stored);
    return { answer: stored, ...created };
  });
  try {
    // Bounded, so a Redis outage does not hold the answer: the rows are committed and the
    // sweeper queues those whose job is missing. One id per row: never two jobs for a row.
    await withTimeout(
      (async () => {
        for (let start = 0; start < rowIds.length; start += 1000) {
          // Fair between eshops (libs/queue fair.ts): one eshop's feed does not hold another's rows.
          await addFair(
            deps.queues['listing-enrichment'],
            'listing-enrichment',
            rowIds.slice(start, start + 1000).map((row_id) => ({
              data: { eshop_id: eshopId, batch_id: batch.id, row_id },
              opts: { jobId: listingJobId(row_id) },
            })),
          );
        }
      })(),
      ENQUEUE_TIMEOUT_MS,
    );
  } catch (err) {
    // The batch is stored; answering 500 would make the client upload it twice.
    deps.logger.error({ err, eshopId, batchId: batch.id }, 'could not queue listing-enrichment jobs');
  }
  return answer;
}

/**
 * A page of a batch's rows. A replica may serve it (`deps.reads`); an upload writes no event, so
 * a batch the replica does not have yet (the client has just uploaded it) is looked up on the
 * primary before it is 404. Rows the enrichment updates meanwhile are as fresh as the replica
 * (docs/decisions/0049-reads-from-a-replica.md, "Reads from a replica").
 */
export function listingRows(
  deps: Pick<Deps, 'reads'>,
  eshopId: number,
  batchId: number,
  query: ListingQuery,
) {
  return deps.reads.run(eshopId, async (db, target) => {
    if (!(await listingRepository.batchExists(db, eshopId, batchId))) {
      if (target === 'replica') throw new ReplicaBehind();
      throw new NotFoundError('Listing batch not found');
    }
    return rowsPage(db, eshopId, batchId, query);
  });
}

async function rowsPage(db: Knex, eshopId: number, batchId: number, query: ListingQuery) {
  const opts = { page: query.page, perPage: query.per_page, updatedSince: query.updated_since };
  const [rows, total] = await Promise.all([
    listingRepository.listRows(db, eshopId, batchId, opts),
    listingRepository.countRows(db, eshopId, batchId, query.updated_since),
  ]);
  return {
    data: rows.map((r) => ({
      external_id: r.externalId,
      status: r.status,
      updated_at: r.updatedAt,
      field: r.field,
      parameter: r.parameter,
    })),
    meta: { current_page: query.page, per_page: query.per_page, total },
  };
}
