import Joi from 'joi';
import { dataResponse, responseObject } from './common.schema';

/** POST /check-license 200. */
export const licenceResponse = dataResponse(
  responseObject({ eshop_id: Joi.number().integer(), has_valid_license: Joi.boolean() }),
);
