import Joi from 'joi';
import type { GenerateBody } from '@catalogue/generation';
import { CONTENT_LANGUAGES } from '@catalogue/config';
import { dataResponse, idSchema, languageCodeEnum, offsetTimestamp, responseObject } from './common.schema';

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
  design_id: idSchema
    .strict()
    .allow(null)
    .description("An accessible design of the entity's type; defaults to the entity's design."),
  prompt_id: idSchema.strict().allow(null).description("A global prompt or one of the eshop's."),
  lang: Joi.string()
    .strict()
    .valid(...CONTENT_LANGUAGES)
    .allow(null)
    .description(
      "An active language of the eshop (default `default`); texts are written in it, from this body's fields and the entity's title and old description in this language only (never another language's).",
    ),
  remove_exist_widget: flag.description(
    "`false` appends the generated widgets (written in `lang` only). `true` replaces the entity's content and so also writes again every other active language that has text of its own in it, from the entity's title and old description in that language (estimated and charged per language written); a 422 on this field names the languages that have text but nothing registered to write it again from.",
  ),
  name: text(255).description("The entity's name in `lang`; default: its registered title in `lang`."),
  short_description: text(10_000),
  old_description: text(200_000),
  parameter: text(50_000).description('`Name: value` lines.'),
  ean: text(64),
  use_serp_context: flag.description(
    'Reserves `serp_context`; no search backend yet, so it is released at settlement.',
  ),
  use_web_research: flag,
  search_web: Joi.array()
    .items(url)
    .max(SEARCH_WEB_MAX_ITEMS)
    .allow(null)
    .description(
      'http(s) pages to read when `use_web_research` is on (at most `WEB_RESEARCH_MAX_URLS` distinct ones).',
    ),
  search_model: Joi.array()
    .items(Joi.string().strict().min(1).max(100))
    .max(10)
    .allow(null)
    .description('Stored with the job; not used yet (no search backend).'),
  // Characters per paragraph field the host would like; 0 = no preference.
  paragraph_length: Joi.number().strict().integer().min(0).max(10_000).allow(null),
  use_ai_profile: flag.description('Stored with the job; no AI profile exists yet.'),
})
  .required()
  .description(
    'Specification rule 5. Every field is optional; `null` means "not sent". Unknown fields\nare refused (422), so a misspelt flag is not silently ignored.\n',
  );

/** The body's type: the planner's request (`@catalogue/generation`), which a bulk generation sends too. */
export type { GenerateBody } from '@catalogue/generation';

/** `generate/{generate_id}` path parameter. */
export const generateIdParams = Joi.object<{ generate_id: number }, true>({
  generate_id: idSchema.required(),
});

/** A generation job as answered. */
export const generationJobShape = responseObject({
  id: Joi.number().integer(),
  status: Joi.string()
    .valid('pending', 'running', 'done', 'failed')
    .description('`pending` → `running` → `done` or `failed`.'),
  design_id: Joi.number().integer(),
  lang: languageCodeEnum,
  widgets_created: Joi.number().integer().min(0),
  widgets_skipped: Joi.array()
    .items(
      responseObject({ design_widget_id: Joi.number().integer(), type: Joi.string(), reason: Joi.string() }),
    )
    .optional()
    .description(
      "Beyond the specification: the design's fillable widgets the job left out, and why: the data held nothing for them (`no_text`, `no_parameters`, `no_questions`, `no_images`, `no_url`, `no_video`, `no_quotes`, `no_two_options`, `not_answered`), a `default` job of an eshop that has not set `default_language` cannot write benefit sentences (`no_language`), or an appending job's widget whose texts and images the page already shows (`already_shown`: not written, not charged). Empty until the job is done.",
    ),
  research_sources: Joi.array()
    .items(responseObject({ url: Joi.string(), design_widget_id: Joi.number().integer().allow(null) }))
    .optional()
    .description(
      "Beyond the specification: the `search_web` pages the job's texts were taken from, with the widget that used each (`null`: the provider read every page for every widget), so the shop can check a source. Empty until the job is done.",
    ),
  research_refused: Joi.array()
    .items(responseObject({ url: Joi.string(), reason: Joi.string() }))
    .optional()
    .description(
      'Beyond the specification: the `search_web` URLs the job did not read, each with a short reason (e.g. `private address 10.0.0.1 refused`, `scheme ftp not allowed`, `HTTP 404`, `timed out after 10000 ms`, `over the limit of 5 URLs`), so research that was asked for and left out is never silent. Empty until the job ends (done or failed).',
    ),
  error_message: Joi.string().allow(null),
  created_at: offsetTimestamp,
  updated_at: offsetTimestamp,
}).id('WlGenerationJob');

/** The job in `{ data }`: a start, the running job, a job by id. */
export const generationJobResponse = dataResponse(generationJobShape).id('WlGenerationJobResponse');

/** The pre-check of a start (beyond the specification): what the start would do. */
export const generationCheckResponse = dataResponse(
  responseObject({
    estimated_cost: Joi.number().integer().min(0).description('Credits the start would reserve.'),
    remaining: Joi.number().integer().description('Credits the eshop has left now.'),
    lang: languageCodeEnum,
    languages: Joi.array()
      .items(languageCodeEnum)
      .description(
        'The languages the job would write: its own first, then each language a replace writes again (those with text of their own outside the parameters table).',
      ),
  }).id('WlGenerationCheck'),
).id('WlGenerationCheckResponse');
