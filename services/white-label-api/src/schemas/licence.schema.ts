import Joi from 'joi';
import { dataResponse, responseObject } from './common.schema';

/** POST /check-license 200. */
export const licenceResponse = dataResponse(
  responseObject({
    eshop_id: Joi.number().integer(),
    has_valid_license: Joi.boolean(),
    languages: Joi.array()
      .items(Joi.string())
      .description("The eshop's active content languages, in its order (`default` among them when active)."),
    default_language: Joi.string()
      .allow(null)
      .description(
        "The language the eshop's `default` texts are written in (its main language), or `null`\nwhen it names none. The editor opens an entity in it when it has texts there.\n",
      ),
  }),
);
