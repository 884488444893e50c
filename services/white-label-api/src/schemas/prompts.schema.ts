import Joi from 'joi';
import { dataResponse, responseObject } from './common.schema';

export const promptShape = responseObject({
  id: Joi.number().integer(),
  name: Joi.string(),
  prompt: Joi.string(),
  remove_exist_widget: Joi.boolean(),
  use_serp_context: Joi.boolean(),
  use_web_research: Joi.boolean(),
  search_web: Joi.array().items(Joi.string()),
  search_model: Joi.array().items(Joi.string()),
}).id('WlPrompt');

/** GET /prompt 200. */
export const promptsResponse = dataResponse(Joi.array().items(promptShape));
