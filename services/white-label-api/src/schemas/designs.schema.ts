import Joi from 'joi';
import { ENTITY_TYPES, idSchema } from './common.schema';

export const listDesignsQuery = Joi.object({ type: Joi.string().valid(...ENTITY_TYPES) });

export const designParams = Joi.object({ design_id: idSchema.required() });
