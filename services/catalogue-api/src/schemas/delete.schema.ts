import Joi from 'joi';
import { baseComponent, responseObject } from '@catalogue/http';

/**
 * The documented body of the soft-deletes (documentation only): delete.service.ts checks it
 * itself, item by item, reporting a bad element in `errors` rather than refusing the request.
 */
export const deleteIdsBody = Joi.array()
  .max(100)
  .items(
    Joi.alternatives()
      .try(Joi.string(), Joi.object({ id: Joi.string().required() }).unknown(true))
      .match('one'),
  );

/** DELETE /api/v2/rest/<entity> 200. */
export const deleteResponse = responseObject({
  success: Joi.boolean(),
  deleted: Joi.number().integer().min(0),
  skipped: Joi.number().integer().min(0),
  errors: Joi.array()
    .items(baseComponent('ItemError'))
    .example([{ index: 0, id: 'P-404', errors: ['Product not found'] }]),
})
  .description(
    '`success` is true when no item was skipped. An element that is neither a non-empty id\n' +
      'string nor `{id}` is reported with `id: null`; a repeated id is reported as a duplicate.\n',
  )
  .id('DeleteResult');
