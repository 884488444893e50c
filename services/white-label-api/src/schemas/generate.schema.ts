import Joi from 'joi';
import { CONTENT_LANGUAGES } from '@catalogue/config';
import { idSchema } from './common.schema';

/** Hard cap of the research list in the body; the configured WEB_RESEARCH_MAX_URLS is checked by the service. */
export const SEARCH_WEB_MAX_ITEMS = 100;

/**
 * Optional texts of the host page. `''` and `null` mean "not sent" (a host form posts empty
 * fields); limits follow the catalogue's fields of the same meaning. Text PostgreSQL cannot
 * store is refused for every body by licensedRouter.
 */
const text = (max: number) => Joi.string().strict().allow('', null).max(max);

/** Optional flags: JSON booleans only (`"true"` is not one), `null` = not sent. */
const flag = Joi.boolean().strict().allow(null);

const url = Joi.string()
  .strict()
  .max(2_048)
  .uri({ scheme: ['http', 'https'] });

/**
 * Body of `POST …/generate` (specification rule 5). Types only: whether the design, prompt
 * and language are usable by the eshop and the entity is decided by the service.
 */
export const generateBody = Joi.object<GenerateBody, true>({
  // Optional: the design the entity was last filled with is used when none is sent.
  design_id: idSchema.strict().allow(null),
  prompt_id: idSchema.strict().allow(null),
  lang: Joi.string()
    .strict()
    .valid(...CONTENT_LANGUAGES)
    .allow(null),
  remove_exist_widget: flag,
  name: text(255),
  short_description: text(10_000),
  old_description: text(200_000),
  parameter: text(50_000),
  ean: text(64),
  use_serp_context: flag,
  use_web_research: flag,
  search_web: Joi.array().items(url).max(SEARCH_WEB_MAX_ITEMS).allow(null),
  search_model: Joi.array().items(Joi.string().strict().min(1).max(100)).max(10).allow(null),
  // Characters per paragraph field the host would like; 0 = no preference.
  paragraph_length: Joi.number().strict().integer().min(0).max(10_000).allow(null),
  use_ai_profile: flag,
}).required();

export interface GenerateBody {
  design_id?: number | null;
  prompt_id?: number | null;
  lang?: string | null;
  remove_exist_widget?: boolean | null;
  name?: string | null;
  short_description?: string | null;
  old_description?: string | null;
  parameter?: string | null;
  ean?: string | null;
  use_serp_context?: boolean | null;
  use_web_research?: boolean | null;
  search_web?: string[] | null;
  search_model?: string[] | null;
  paragraph_length?: number | null;
  use_ai_profile?: boolean | null;
}

/** `generate/{generate_id}` path parameter. */
export const generateIdParams = Joi.object<{ generate_id: number }, true>({
  generate_id: idSchema.required(),
});
