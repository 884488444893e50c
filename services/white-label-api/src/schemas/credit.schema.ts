import Joi from 'joi';
import { dataResponse, responseObject } from './common.schema';

/** GET /credit 200. */
export const remainingCreditsResponse = dataResponse(
  responseObject({ remaining: Joi.number().integer().min(0) }),
);
