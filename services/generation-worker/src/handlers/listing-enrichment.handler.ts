import type { JobHandler } from '@catalogue/queue';
import { enrichListingRow, failListingRow, type ListingDeps } from '../services/listing-enrichment.service';

/**
 * Enriches one uploaded listing row. Provider failures end the row `failed`; other errors are
 * thrown so BullMQ retries, and when the last attempt fails too the row is ended `failed` (if
 * the database lets us) instead of staying `processing`.
 */
export function listingEnrichmentHandler(deps: ListingDeps): JobHandler<'listing-enrichment'> {
  return async (job) => {
    try {
      return { outcome: await enrichListingRow(deps, job.data) };
    } catch (err) {
      if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
        await failListingRow(deps, job.data, 'Enrichment failed because of an internal error.').catch(
          (cleanup: unknown) =>
            deps.logger.error({ err: cleanup, row_id: job.data.row_id }, 'could not end the listing row'),
        );
      }
      throw err;
    }
  };
}
