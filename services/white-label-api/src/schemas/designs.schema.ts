import Joi from 'joi';
import { ENTITY_TYPES, idSchema, type EntityType } from './common.schema';

export const listDesignsQuery = Joi.object<{ type?: EntityType }, true>({
  type: Joi.string().valid(...ENTITY_TYPES),
});

export const designParams = Joi.object<{ design_id: number }, true>({ design_id: idSchema.required() });
