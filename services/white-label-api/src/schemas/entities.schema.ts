import Joi from 'joi';
import type { WhiteLabelEntityType } from '@catalogue/config';
import type { RegisterEntityInput } from '../services/entities.service';
import {
  baseComponent,
  entityIdSchema,
  entityTypeEnum,
  entityTypeSchema,
  languageMap,
  offsetTimestamp,
  responseObject,
} from './common.schema';

/** `old_description` / `title`: one string (stored as `default`) or a language map; null clears it. */
function text(maxLength: number) {
  const value = Joi.string().allow('').max(maxLength);
  return Joi.alternatives().try(value, languageMap(value)).allow(null);
}

/**
 * Only the texts have alternatives: anything else (the specification's example shows an array)
 * is told what is accepted.
 */
export const registerEntityMessages = {
  'alternatives.types': (field: string) =>
    `The ${field} field must be a string or a language map (an object keyed by language code).`,
};

/**
 * Fields a host sends beyond these are ignored (it may send more than we store), like the
 * catalogue API's imports.
 */
export const registerEntityBody = Joi.object<RegisterEntityInput, true>({
  entity_id: entityIdSchema.required(),
  type: entityTypeSchema.required(),
  // As long as a catalogue description may be.
  old_description: text(200_000).description(
    'HTML, at most 200,000 characters per language; `null` clears it. Anything else (an array,\nas the specification\'s example shows) is 422 "The old_description field must be a string\nor a language map (an object keyed by language code)."\n',
  ),
  title: text(255).description(
    'Plain text, at most 255 characters per language; `null` clears it (an array is 422, as for old_description).',
  ),
})
  .unknown(true)
  .required();

export interface ListEntitiesQuery {
  type?: WhiteLabelEntityType;
  page: number;
  per_page: number;
}

export const listEntitiesQuery = Joi.object<ListEntitiesQuery, true>({
  type: entityTypeSchema,
  page: Joi.number().integer().min(1).max(1_000_000).default(1),
  per_page: Joi.number().integer().min(1).max(100).default(100),
});

/** A registered entity as answered. */
export const entityShape = responseObject({
  id: Joi.number().integer(),
  entity_id: Joi.string(),
  type: entityTypeEnum,
  design_id: Joi.number()
    .integer()
    .allow(null)
    .description(
      "The entity's design: from registration the eshop's default design of the entity's type\n(the one its catalogue items of that type are composed with), then the design last\nfilled into it. `null` only when the eshop could use no design of that type when the\nentity was registered, or the entity's design was removed since (a custom design\ndeleted); registering the entity again then gives it the default design.\n",
    ),
  old_description: Joi.string().description('HTML: `default`, else the first language that has one.'),
  title: Joi.string(),
  created_at: offsetTimestamp,
  updated_at: offsetTimestamp,
}).id('WlEntity');

/** POST /register-entity 200 (updated) and 201 (created). */
export const entityRegisteredResponse = responseObject({
  data: entityShape,
  message: Joi.string().valid('Entity created', 'Entity updated'),
}).id('WlEntityResponse');

/** GET /entity 200. */
export const entitiesResponse = responseObject({
  data: Joi.array().items(entityShape),
  meta: responseObject({
    total: Joi.number().integer().min(0),
    current_page: Joi.number().integer().min(1),
    per_page: Joi.number().integer().min(1).max(100),
  }),
});

/** GET /entity/{entity_id}/type/{entity_type}/html 200. */
export const entityHtmlResponse = responseObject({ html: baseComponent('WlHtmlMap') });
