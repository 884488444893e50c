import Joi from 'joi';
import { entityParamsWith } from './common.schema';

/** `{entity_id}/type/{entity_type}/revisions/{revision_id}`. */
export const revisionParams = entityParamsWith('revision_id');

export interface RevisionsQuery {
  page: number;
  per_page: number;
}

export const revisionsQuery = Joi.object<RevisionsQuery, true>({
  page: Joi.number().integer().min(1).max(1_000_000).default(1),
  per_page: Joi.number().integer().min(1).max(100).default(20),
});
