import Joi from 'joi';
import { CONTENT_LANGUAGES, WHITE_LABEL_ENTITY_TYPES, type WhiteLabelEntityType } from '@catalogue/config';
import { baseComponent, responseObject } from '@catalogue/http';
import { isValidText } from './valid-text.schema';

export { baseComponent, responseObject };

/**
 * The host's identifier, as long as a catalogue external id may be, and text PostgreSQL can
 * compare: a decoded `%00` in a path would otherwise reach a query and fail there (500).
 */
export const entityIdSchema = Joi.string()
  .min(1)
  .max(255)
  .custom((value: string, helpers) => (isValidText(value) ? value : helpers.error('any.invalid')));
export const entityTypeSchema = Joi.string().valid(...WHITE_LABEL_ENTITY_TYPES);
/** An internal id in a path or body (designs, widgets, jobs, favourites). */
export const idSchema = Joi.number().integer().min(1).max(2_147_483_647);

/** `{entity_id}/type/{entity_type}` path parameters. */
export interface EntityPath {
  entity_id: string;
  entity_type: WhiteLabelEntityType;
}

const entityParamKeys = {
  entity_id: entityIdSchema.required(),
  entity_type: entityTypeSchema.required(),
};
export const entityParams = Joi.object<EntityPath, true>(entityParamKeys);

/** An entity's path with one more id parameter (`widget_id`, …). */
export function entityParamsWith<K extends string>(key: K): Joi.ObjectSchema<EntityPath & Record<K, number>> {
  return Joi.object<EntityPath & Record<K, number>>({ ...entityParamKeys, [key]: idSchema.required() });
}

/** A language map of the v3 language codes; every value a string. */
export function languageMap(value: Joi.StringSchema = Joi.string().allow('')): Joi.ObjectSchema {
  return Joi.object(Object.fromEntries(CONTENT_LANGUAGES.map((lang) => [lang, value])));
}

/*
 * Response bodies. Their joi schemas describe what a route answers, for docs/openapi.yaml
 * (scripts/gen-openapi.mjs) and the contract tests that read it: they are never run against a
 * response. A schema named with `.id()` becomes a component of the document.
 */

/** `{ data: … }`, the envelope of most answers. */
export function dataResponse(data: Joi.Schema): Joi.ObjectSchema {
  return responseObject({ data });
}

export const offsetTimestamp = baseComponent('OffsetTimestamp');
export const entityTypeEnum = Joi.string().valid(...WHITE_LABEL_ENTITY_TYPES);
export const languageCodeEnum = Joi.string().valid(...CONTENT_LANGUAGES);
