/**
 * What a `POST …/generate` body means for one eshop and entity: the checks joi cannot make
 * (active language, accessible design of the entity's type, visible prompt, research limit),
 * the context snapshot the worker reads (`GenerateJobContext`, libs/db) and the cost estimate
 * it reserves. Nothing here writes.
 */
import { ownLanguages, type ContentWidget } from '@catalogue/content';
import { loadDesign, structureOf } from '@catalogue/content-store';
import { estimateGeneration } from '@catalogue/credits';
import {
  contentRepository,
  creditsRepository,
  promptsRepository,
  type Eshop,
  type GenerateJobContext,
  type Knex,
  type OtherLanguageSource,
  type Prompt,
  type WlEntity,
} from '@catalogue/db';
import { ValidationError, type FieldErrors } from '@catalogue/http';
import type { GenerateBody } from '../schemas/generate.schema';

/** A checked generation request, ready to be stored as a job row. */
export interface PlannedGeneration {
  designId: number;
  lang: string;
  /** The snapshot stored on the job. */
  context: GenerateJobContext;
  /** Credits to reserve. */
  estimate: number;
}

const sent = <T>(value: T | null | undefined): value is T => value !== undefined && value !== null;
const filled = (value: string | null | undefined): value is string =>
  typeof value === 'string' && value.trim() !== '';

/**
 * A registered entity's text (title, old description) in one language, and only in it: a `cs`
 * job never writes the English or `default` description into Czech text.
 */
function entityText(map: Record<string, string | undefined>, lang: string): string | undefined {
  const own = map[lang];
  return filled(own) ? own : undefined;
}

/**
 * The other languages a replacing job must write again: those the entity's content has text of
 * their own in (the others show it through `default`). Each is written from the entity's title
 * and old description in that language; a language with neither is refused, because replacing
 * the widgets would leave it without its text or in another language's words.
 */
async function otherLanguages(
  db: Knex,
  input: PlanInput,
  lang: string,
  fail: Fail,
): Promise<Record<string, OtherLanguageSource>> {
  const { eshop, entity } = input;
  const content = await contentRepository.find(db, {
    eshopId: eshop.id,
    entityType: entity.type,
    externalId: entity.entityId,
  });
  if (content === undefined) return {};
  const active = new Set<string>(eshop.languages);
  const sources: Record<string, OtherLanguageSource> = {};
  const missing: string[] = [];
  for (const other of ownLanguages(content.tree as ContentWidget[])) {
    if (other === lang || !active.has(other)) continue;
    const name = entityText(entity.title, other);
    const oldDescription = entityText(entity.oldDescription, other);
    if (name === undefined && oldDescription === undefined) missing.push(other);
    else
      sources[other] = { ...(name && { name }), ...(oldDescription && { old_description: oldDescription }) };
  }
  if (missing.length > 0) {
    fail(
      'remove_exist_widget',
      `Replacing the widgets would remove the ${missing.join(', ')} text and the entity has no ${missing.join(', ')} title or old description to write it again from: register them (register-entity) or send remove_exist_widget: false.`,
    );
  }
  return sources;
}

/** The request's settings, where the body leaves them out taken from the chosen prompt. */
function settings(body: GenerateBody, prompt: Prompt | undefined) {
  return {
    remove_exist_widget: body.remove_exist_widget ?? prompt?.remove_exist_widget ?? false,
    use_serp_context: body.use_serp_context ?? prompt?.use_serp_context ?? false,
    use_web_research: body.use_web_research ?? prompt?.use_web_research ?? false,
    // The worker reads each distinct URL once, so duplicates are neither read nor charged twice.
    search_web: [...new Set(body.search_web ?? prompt?.search_web ?? [])],
    search_model: body.search_model ?? prompt?.search_model ?? [],
  };
}

export interface PlanInput {
  eshop: Eshop;
  entity: WlEntity;
  body: GenerateBody;
  /** WEB_RESEARCH_MAX_URLS: pages the worker reads per job at most. */
  maxResearchUrls: number;
}

type Fail = (field: string, message: string) => void;

/**
 * The design the job fills (sent, else the entity's): accessible, of the entity's type and with
 * something to generate. Returns how many of its widgets are fillable.
 */
async function checkDesign(
  db: Knex,
  input: PlanInput,
  designId: number | null | undefined,
  fail: Fail,
): Promise<number> {
  const { eshop, entity } = input;
  const design = sent(designId) ? await loadDesign(db, eshop.id, designId) : undefined;
  if (!sent(designId)) {
    fail('design_id', 'The design_id field is required (the entity has no design yet).');
  } else if (!design) {
    fail('design_id', 'The selected design_id is invalid.');
  } else if (design.design.category !== entity.type) {
    fail(
      'design_id',
      `The selected design_id is a ${design.design.category} design, not a ${entity.type} design.`,
    );
  } else {
    const fillable = structureOf(design).widget.filter((w) => w.fillable).length;
    if (fillable === 0) fail('design_id', 'The selected design has no widget that can be generated.');
    return fillable;
  }
  return 0;
}

/** Pages the worker will read; more than WEB_RESEARCH_MAX_URLS is refused. */
function checkResearch(chosen: ReturnType<typeof settings>, maxResearchUrls: number, fail: Fail): number {
  const researchUrls = chosen.use_web_research ? chosen.search_web.length : 0;
  if (researchUrls > maxResearchUrls) {
    fail(
      'search_web',
      maxResearchUrls === 0
        ? 'Web research is turned off: use_web_research needs an empty search_web field.'
        : `The search_web field must not have more than ${maxResearchUrls} items when use_web_research is on.`,
    );
  }
  return researchUrls;
}

/**
 * The snapshot stored on the job: the body, the prompt's settings, and the entity's own texts
 * where the body sent none.
 */
function jobContext(
  input: PlanInput,
  lang: string,
  prompt: Prompt | undefined,
  chosen: ReturnType<typeof settings>,
  others: Record<string, OtherLanguageSource>,
): GenerateJobContext {
  const { entity, body } = input;
  const name = filled(body.name) ? body.name : entityText(entity.title, lang);
  const oldDescription = filled(body.old_description)
    ? body.old_description
    : entityText(entity.oldDescription, lang);
  const context: GenerateJobContext = {
    ...(name !== undefined && { name }),
    ...(filled(body.short_description) && { short_description: body.short_description }),
    ...(oldDescription !== undefined && { old_description: oldDescription }),
    ...(filled(body.parameter) && { parameter: body.parameter }),
    ...(filled(body.ean) && { ean: body.ean }),
    ...(prompt && { prompt_id: prompt.id }),
    ...(sent(body.paragraph_length) && { paragraph_length: body.paragraph_length }),
    ...chosen,
    use_ai_profile: body.use_ai_profile ?? false,
    ...(Object.keys(others).length > 0 && { other_languages: others }),
  };
  return context;
}

/** Whether the job has text of its language to write from (its own fields, or pages to read). */
function hasSource(context: GenerateJobContext, researchUrls: number): boolean {
  const { name, short_description, old_description, parameter } = context;
  return researchUrls > 0 || [name, short_description, old_description, parameter].some(filled);
}

/**
 * Checks the body against the eshop and entity and plans the job; a 422 names every field that
 * is not usable (all at once, like the joi checks before it).
 */
export async function planGeneration(db: Knex, input: PlanInput): Promise<PlannedGeneration> {
  const { eshop, entity, body, maxResearchUrls } = input;
  const errors: FieldErrors = {};
  const fail: Fail = (field, message) => {
    (errors[field] ??= []).push(message);
  };

  const lang = body.lang ?? 'default';
  if (!(eshop.languages as string[]).includes(lang)) {
    fail('lang', `The lang ${lang} is not an active language of this eshop.`);
  }
  const designId = body.design_id ?? entity.designId;
  const fillable = await checkDesign(db, input, designId, fail);
  const prompt = sent(body.prompt_id)
    ? await promptsRepository.find(db, eshop.id, body.prompt_id)
    : undefined;
  if (sent(body.prompt_id) && !prompt) fail('prompt_id', 'The selected prompt_id is invalid.');
  const chosen = settings(body, prompt);
  const researchUrls = checkResearch(chosen, maxResearchUrls, fail);
  const others = chosen.remove_exist_widget ? await otherLanguages(db, input, lang, fail) : {};
  const context = jobContext(input, lang, prompt, chosen, others);
  if (!hasSource(context, researchUrls)) {
    // The job would fail with nothing written; the host learns why now, and nothing is reserved.
    fail(
      'lang',
      `There is no text in ${lang} to generate from: send name, short_description, old_description or parameter, or register the entity's ${lang} title or old description (register-entity).`,
    );
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);

  // The worker charges each widget once per language it writes text in: the job's language, and
  // for a replacing job each other language written again. The estimate reserves the most.
  const estimate = estimateGeneration(await creditsRepository.prices(db), {
    widgets: fillable,
    languages: 1 + Object.keys(others).length,
    webResearchUrls: researchUrls,
    serpContext: chosen.use_serp_context,
  }).total;
  return { designId: designId!, lang, context, estimate };
}
