/**
 * The bulk generation's shapes (beyond the specification), one home for both APIs: the start
 * body the catalogue API validates, the batch id in a path, and the batch as every endpoint
 * answers it (for docs/openapi.yaml; response schemas are never run against an answer).
 */
import Joi from 'joi';
import { CONTENT_LANGUAGES, GENERATION_BATCH_STATUSES, WHITE_LABEL_ENTITY_TYPES } from '@catalogue/config';
import { isStorableText, responseObject } from '@catalogue/http';
import { BATCH_MAX_ENTITIES, type BatchRequest } from './batches';

/** An external id PostgreSQL can store and compare (no NUL, no lone surrogate). */
const externalId = Joi.string()
  .strict()
  .min(1)
  .max(255)
  .custom((value: string, helpers) => (isStorableText(value) ? value : helpers.error('any.invalid')));

const id = Joi.number().strict().integer().min(1).max(2_147_483_647);
/** The most credits a budget may name: far above any balance, within a JS integer. */
export const BATCH_BUDGET_MAX = 1_000_000_000_000;

export const batchStartBody = Joi.object<BatchRequest, true>({
  entity_type: Joi.string()
    .valid(...WHITE_LABEL_ENTITY_TYPES.filter((type) => type !== 'page'))
    .required()
    .description('The catalogue items of this type are generated for (`product`, `category` or `blog`).'),
  ids: Joi.array()
    .items(externalId)
    .min(1)
    .max(BATCH_MAX_ENTITIES)
    .description('The external ids of the items; every one must be an item of the eshop.'),
  filter: Joi.object({
    without_content: Joi.boolean().strict().valid(true).description('Items no generation has written yet.'),
    category_id: externalId.description('Products listed in this category.'),
    changed_since: Joi.date().iso().raw().description('Items imported or changed at or after this time.'),
  })
    .min(1)
    .description('Which items, when `ids` is not sent; every condition sent must hold.'),
  design_id: id.allow(null).description("The design every item is filled with; default: each item's own."),
  prompt_id: id.allow(null).description("A global prompt or one of the eshop's."),
  languages: Joi.array()
    .items(Joi.string().valid(...CONTENT_LANGUAGES))
    .min(1)
    .max(CONTENT_LANGUAGES.length)
    .unique()
    .required()
    .description('Active languages of the eshop; each item is generated in each of them.'),
  budget: Joi.number()
    .strict()
    .integer()
    .min(1)
    .max(BATCH_BUDGET_MAX)
    .required()
    .description('Credits the batch may reserve and charge in all, never more.'),
  dry_run: Joi.boolean().strict().description('Answer the size and estimate only; nothing is written.'),
})
  // One of them (both at once is refused by the service: a schema for it reads badly in OpenAPI).
  .or('ids', 'filter')
  .required();

export const batchIdParams = Joi.object<{ batch_id: number }, true>({
  batch_id: Joi.number().integer().min(1).max(2_147_483_647).required(),
});

const count = Joi.number().integer().min(0);

export const batchView = responseObject({
  id: Joi.number().integer(),
  status: Joi.string().valid(...GENERATION_BATCH_STATUSES),
  entity_type: Joi.string(),
  languages: Joi.array().items(Joi.string()),
  design_id: Joi.number().integer().allow(null),
  prompt_id: Joi.number().integer().allow(null),
  counts: responseObject({
    total: count,
    queued: count,
    running: count,
    done: count,
    failed: count,
    left_out: count.description('Items skipped without charge (nothing to write from, over the budget, cancelled).'),
  }),
  credits: responseObject({ budget: count, estimate: count, reserved: count, charged: count }),
  errors: Joi.array()
    .items(responseObject({ entity_id: Joi.string(), code: Joi.string(), message: Joi.string().allow('') }))
    .description('The first 20 items that failed or were left out.'),
  created_at: Joi.string(),
  updated_at: Joi.string(),
  finished_at: Joi.string().allow(null),
}).id('GenerationBatch');

export const batchList = responseObject({ batches: Joi.array().items(batchView) }).id('GenerationBatchList');

export const batchDryRun = responseObject({
  dry_run: Joi.boolean().valid(true),
  items: count,
  estimate: responseObject({ credits: count, per_item: count }),
  within_budget: Joi.boolean(),
}).id('GenerationBatchDryRun');
