/**
 * The `listing-enrichment` job: one uploaded feed row made complete enough to list.
 *
 * - Every value of the feed is kept as it is (`source: feed`); nothing overwrites it.
 * - Pages named by the row's URL fields are read (when web research is on) and `Label: value`
 *   lines found there become parameters with `source: research`, a `confidence` and the
 *   `reference` URLs; a label the feed already has is never added again.
 * - Missing standard fields are written by the content provider from the feed's own values and
 *   the research extracts (`source: generated`). Nothing is invented: a field the provider has
 *   nothing for stays missing.
 *
 * The row ends `done`, or `failed` with `error_message` when the provider fails (after its own
 * retries). Database errors propagate so BullMQ retries; a retried row is processed again from
 * its stored feed values, and everything is written at once at the end.
 */
import type { FillWidgetInput } from '@catalogue/content';
import {
  eventsRepository,
  listingRepository,
  type Knex,
  type ListingField,
  type ListingParameter,
} from '@catalogue/db';
import type { Logger } from '@catalogue/logger';
import type { JobPayloads } from '@catalogue/queue';
import { ProviderError, type ContentProvider, type GenerationContext } from '../providers';
import { fetchResearch, type ResearchOptions, type ResearchPage } from '../research';
import {
  isUrl,
  RESEARCH_CONFIDENCE,
  RESEARCH_URL_FIELDS,
  researchParameters,
  researchUrls,
} from './listing-research';
import {
  fieldsFromWidgets,
  listingStructure,
  STANDARD_FIELDS,
  type StandardField,
} from './listing-structure';

// The confidences a research parameter can carry, for callers of this job.
export { CONFIRMED_CONFIDENCE, DISPUTED_CONFIDENCE, RESEARCH_CONFIDENCE } from './listing-research';

export interface ListingDeps {
  db: Knex;
  logger: Logger;
  provider: ContentProvider;
  research: ResearchOptions;
}

export type ListingOutcome = 'done' | 'failed' | 'missing' | 'already_finished';

const LABELS: Record<string, string> = { ean: 'EAN', sku: 'SKU', mpn: 'MPN', gtin: 'GTIN' };

const MAX_ERROR_MESSAGE = 1_000;

const valueText = (field: ListingField | undefined): string => {
  if (field === undefined) return '';
  const value = Array.isArray(field.value) ? field.value.join(', ') : field.value;
  return typeof value === 'string' ? value.trim() : '';
};

const isMissing = (field: ListingField | undefined): boolean => valueText(field) === '';

const humanLabel = (name: string): string => {
  const known = LABELS[name.toLowerCase()];
  if (known !== undefined) return known;
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** The provider's context: the row's own values and the research extracts, nothing else. */
function contextOf(
  field: Record<string, ListingField>,
  parameter: readonly ListingParameter[],
  pages: ResearchPage[],
): GenerationContext {
  const lines: string[] = [];
  const standard: ReadonlySet<string> = new Set([...STANDARD_FIELDS, ...RESEARCH_URL_FIELDS]);
  for (const [name, value] of Object.entries(field)) {
    const text = valueText(value);
    if (standard.has(name) || text === '' || isUrl(text)) continue;
    lines.push(`${humanLabel(name)}: ${text}`);
  }
  for (const p of parameter) {
    // Values the research pages disagree about are listed as parameters, never written into text.
    const doubtful = p.source === 'research' && (p.confidence ?? 0) < RESEARCH_CONFIDENCE;
    if (p.value.trim() !== '' && !doubtful) lines.push(`${p.label}: ${p.value}`);
  }
  const optional = (name: StandardField | 'ean'): string | undefined => valueText(field[name]) || undefined;
  return {
    lang: 'default',
    languages: ['default'],
    name: optional('name'),
    short_description: optional('short_description'),
    old_description: optional('description'),
    ean: optional('ean'),
    parameter: lines.length > 0 ? lines.join('\n') : undefined,
    research: pages,
  };
}

const clip = (text: string): string =>
  text.length <= MAX_ERROR_MESSAGE ? text : `${text.slice(0, MAX_ERROR_MESSAGE - 1)}…`;

/**
 * Ends a row (`done` or `failed`) in the caller's transaction, and when it was the batch's last
 * open row, appends the batch's `listing.batch_finished` event.
 */
async function endRow(
  trx: Knex.Transaction,
  payload: JobPayloads['listing-enrichment'],
  outcome: Parameters<typeof listingRepository.finishRow>[4],
): Promise<void> {
  const { eshop_id: eshopId, batch_id: batchId, row_id: rowId } = payload;
  await listingRepository.finishRow(trx, eshopId, batchId, rowId, outcome);
  const finished = await listingRepository.finishedBatch(trx, eshopId, batchId);
  if (finished === undefined) return;
  await eventsRepository.append(trx, eshopId, [
    {
      type: 'listing.batch_finished',
      entityType: 'listing_batch',
      externalId: String(batchId),
      data: { batch_id: batchId, rows: finished.rows, failed: finished.failed },
    },
  ]);
}

/** Ends a row `failed` unless it has ended already (used after the last failed attempt too). */
export async function failListingRow(
  deps: Pick<ListingDeps, 'db'>,
  payload: JobPayloads['listing-enrichment'],
  message: string,
): Promise<void> {
  const { eshop_id: eshopId, batch_id: batchId, row_id: rowId } = payload;
  await deps.db.transaction(async (trx) => {
    const row = await listingRepository.findRow(trx, eshopId, batchId, rowId, { lock: true });
    if (row === undefined || row.status === 'done' || row.status === 'failed') return;
    await endRow(trx, payload, { status: 'failed', errorMessage: clip(message) });
  });
}

export async function enrichListingRow(
  deps: ListingDeps,
  payload: JobPayloads['listing-enrichment'],
): Promise<ListingOutcome> {
  const { eshop_id: eshopId, batch_id: batchId, row_id: rowId } = payload;
  const row = await listingRepository.findRow(deps.db, eshopId, batchId, rowId);
  if (row === undefined) return 'missing';
  if (row.status === 'done' || row.status === 'failed') return 'already_finished';
  await listingRepository.markRowProcessing(deps.db, eshopId, batchId, rowId);

  const field: Record<string, ListingField> = { ...row.field };
  const parameter: ListingParameter[] = [...row.parameter];

  const urls = deps.research.maxUrls > 0 ? researchUrls(field) : [];
  let pages: ResearchPage[] = [];
  if (urls.length > 0) {
    const result = await fetchResearch(urls, deps.research);
    pages = result.pages;
    // Reasons only: the URLs are the feed's data and may carry tokens in their query strings.
    if (result.refused.length > 0) {
      deps.logger.info(
        { eshop_id: eshopId, row_id: rowId, refused: result.refused.map((r) => r.reason) },
        'research pages not read',
      );
    }
  }
  parameter.push(...researchParameters(pages, parameter));

  const missing = new Set(STANDARD_FIELDS.filter((name) => isMissing(field[name])));
  if (missing.size > 0) {
    let widgets: FillWidgetInput[];
    try {
      const result = await deps.provider.generate({
        structure: listingStructure(missing),
        context: contextOf(field, parameter, pages),
      });
      widgets = result.widgets;
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      await failListingRow(deps, payload, `Enrichment failed: ${err.message}`);
      return 'failed';
    }
    const generated = fieldsFromWidgets(widgets);
    for (const name of missing) {
      const value = generated[name];
      if (value !== undefined) field[name] = { value, source: 'generated' };
    }
  }

  const finished = await deps.db.transaction(async (trx) => {
    const current = await listingRepository.findRow(trx, eshopId, batchId, rowId, { lock: true });
    if (current === undefined || current.status === 'done' || current.status === 'failed') return false;
    await endRow(trx, payload, { status: 'done', field, parameter });
    return true;
  });
  return finished ? 'done' : 'already_finished';
}
