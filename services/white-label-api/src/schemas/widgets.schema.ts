import Joi from 'joi';
import { idSchema } from './common.schema';

export const listWidgetsQuery = Joi.object<{ category_id?: number }, true>({ category_id: idSchema });
