import Joi from 'joi';
import type { RegisterEntityInput } from '../services/entities.service';
import { entityIdSchema, entityTypeSchema, languageMap, type EntityType } from './common.schema';

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
  old_description: text(200_000),
  title: text(255),
})
  .unknown(true)
  .required();

export interface ListEntitiesQuery {
  type?: EntityType;
  page: number;
  per_page: number;
}

export const listEntitiesQuery = Joi.object<ListEntitiesQuery, true>({
  type: entityTypeSchema,
  page: Joi.number().integer().min(1).max(1_000_000).default(1),
  per_page: Joi.number().integer().min(1).max(100).default(100),
});
