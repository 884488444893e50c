import Joi from 'joi';
import { baseComponent, responseObject } from '@catalogue/http';
import { v2ListMeta } from './list.schema';

/**
 * POST /listing's JSON body as documented (documentation only): listing.service.ts checks the
 * feed itself, JSON rows and CSV alike, with its own wording.
 */
export const listingUploadBody = Joi.array().min(1).max(10_000).items(baseComponent('ListingUploadRow'));

/** POST /listing 201. */
export const listingBatchCreated = responseObject({
  data: responseObject({
    batch_id: Joi.number().integer().min(1),
    rows: Joi.number().integer().min(1),
    created_at: baseComponent('OffsetTimestamp'),
  }),
}).id('ListingBatchCreated');

const listingSource = Joi.string()
  .valid('feed', 'research', 'generated', 'manual')
  .description(
    'Where a value comes from: `feed` (the uploaded file), `research` (looked up),\n' +
      '`generated` (written by a model), `manual` (corrected by staff).\n',
  )
  .id('ListingSource');

const listingFieldValue = responseObject({
  value: Joi.alternatives().try(Joi.string(), Joi.array().items(Joi.string())),
  source: listingSource,
}).id('ListingFieldValue');

const listingParameter = responseObject({
  label: Joi.string(),
  value: Joi.string(),
  source: listingSource,
  confidence: Joi.number().integer().min(0).max(100).optional(),
  reference: Joi.array().items(Joi.string().uri()).optional(),
})
  .description('`confidence` and `reference` occur with source `research`.')
  .id('ListingParameter');

const listingRow = responseObject({
  external_id: Joi.string().description(
    "The row's `code` from the uploaded file, or its EAN when it has no code.",
  ),
  status: Joi.string().valid('pending', 'processing', 'done', 'failed').description('Rows start `pending`.'),
  updated_at: baseComponent('OffsetTimestamp'),
  field: Joi.object()
    .pattern(Joi.string(), listingFieldValue)
    .description('Fields by name; fields without a value are omitted.'),
  parameter: Joi.array().items(listingParameter),
}).id('ListingRow');

/** GET /listing/{batch_id}/product 200: one page of rows. */
export const listingRowsResponse = responseObject({ data: Joi.array().items(listingRow), meta: v2ListMeta });
