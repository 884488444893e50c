/**
 * What a `POST …/generate` body means for one eshop and entity: the checks joi cannot make
 * (active language, accessible design of the entity's type, visible prompt, research limit),
 * the context snapshot the worker reads (`GenerateJobContext`, libs/db) and the cost estimate
 * it reserves. Nothing here writes.
 *
 * The snapshot is the one place where what the host sends meets what the service knows of the
 * entity: field by field, the body wins, then the registered entity's title and old description,
 * then the catalogue item of the same id and type (`generationMaterial`), each in the job's
 * language only. So the check that there is something to write from, and the estimate, see the
 * same material the worker writes from.
 */
import { isOneOf } from '@catalogue/config';
import { writtenLanguages, type ContentWidget } from '@catalogue/content';
import {
  generationMaterial,
  loadDesign,
  structureOf,
  type GenerationMaterial,
  type LanguageMaterial,
} from '@catalogue/content-store';
import { priceGeneration } from '@catalogue/credits';
import {
  contentRepository,
  promptsRepository,
  type Eshop,
  type GenerateJobContext,
  type Knex,
  type OtherLanguageSource,
  type Prompt,
  type WlEntity,
} from '@catalogue/db';
import { HttpError, ValidationError, type FieldErrors } from '@catalogue/http';

/** A generation request (the body of `POST …/generate`; a bulk generation sends one per item). */
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

/** The first text that is filled, in the order given (the precedence of the merge). */
const first = (...texts: Array<string | null | undefined>): string | undefined => texts.find(filled);

/**
 * The languages whose texts stand for `lang`: the language itself and, for `default`, the
 * language the eshop says it writes its `default` texts in (`default_language`). For such a shop
 * the main language's texts ARE that language's, so a catalogue sent only in `en` and `cs` still
 * has main-language texts once `default_language` is `en`.
 */
export function sourceLanguages(lang: string, mainLanguage?: string | null): string[] {
  return lang === 'default' && mainLanguage ? ['default', mainLanguage] : [lang];
}

/**
 * What the service knows of an entity in one language: the registered title and old
 * description over the catalogue item's data, in that language (`sourceLanguages`). Pure (the
 * eval scores the same merge).
 */
export function knownIn(
  registered: { title: Record<string, string>; oldDescription: Record<string, string> },
  material: Pick<GenerationMaterial, 'in'>,
  lang: string,
  mainLanguage?: string | null,
): OtherLanguageSource {
  const langs = sourceLanguages(lang, mainLanguage);
  const items: LanguageMaterial[] = langs.map((l) => material.in(l));
  const pick = <K extends keyof LanguageMaterial>(key: K): LanguageMaterial[K] =>
    items.map((item) => item[key]).find((value) => value !== undefined);
  const source: OtherLanguageSource = {
    name: first(...langs.map((l) => entityText(registered.title, l)), ...items.map((i) => i.name)),
    short_description: pick('short_description'),
    old_description: first(
      ...langs.map((l) => entityText(registered.oldDescription, l)),
      ...items.map((i) => i.description),
    ),
    parameter: pick('parameter'),
    brand: pick('brand'),
    categories: pick('categories'),
    url: pick('url'),
  };
  return Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined),
  ) as OtherLanguageSource;
}

/** The texts a job writes from: each field the body sends over what the service knows. Pure. */
export function writingTexts(
  body: Pick<GenerateBody, 'name' | 'short_description' | 'old_description' | 'parameter' | 'ean'>,
  known: OtherLanguageSource,
): Omit<OtherLanguageSource, 'categories'> & { ean?: string } {
  const texts = {
    name: first(body.name, known.name),
    short_description: first(body.short_description, known.short_description),
    old_description: first(body.old_description, known.old_description),
    parameter: first(body.parameter, known.parameter),
    ean: first(body.ean),
    brand: known.brand,
    url: known.url,
  };
  return Object.fromEntries(Object.entries(texts).filter(([, value]) => value !== undefined));
}

/** Whether a language has words to write from: a name or a description (parameters are data). */
const hasWords = (source: Pick<OtherLanguageSource, 'name' | 'short_description' | 'old_description'>) =>
  [source.name, source.short_description, source.old_description].some(filled);

const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });

/** A language as a shop owner reads it: "Czech", "the shop's main language". */
export function languageInWords(lang: string): string {
  if (lang === 'default') return "the shop's main language";
  return LANGUAGE_NAMES.of(lang) ?? lang;
}

const listInWords = (langs: readonly string[], joiner: 'and' | 'or'): string => {
  const words = langs.map(languageInWords);
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} ${joiner} ${words.at(-1)}`;
};

const ENTITY_IN_WORDS: Record<string, string> = {
  product: 'the product',
  category: 'the category',
  blog: 'the blog post',
  page: 'the page',
};

/**
 * The eshop setting that also fixes a missing main language (`default`) while the shop has not
 * said which language its `default` texts are in: `default_language`. Empty otherwise.
 */
function mainLanguageFix(langs: readonly string[], eshop: Pick<Eshop, 'defaultLanguage'>): string {
  if (!langs.includes('default') || eshop.defaultLanguage) return '';
  return ", or have the shop's main language set (the eshop's default_language setting) to a language the texts are in";
}

/**
 * 422: there is nothing to write from in a language the job would write. `code` says which case
 * (stable), `languages` which languages, `error` says it in words a shop owner can act on;
 * `errors` keys it by the field, like the other 422s of the endpoint.
 */
export class NothingToWriteFromError extends HttpError {
  constructor(
    code: 'generation_material_missing' | 'replaced_language_missing',
    languages: string[],
    errors: FieldErrors,
  ) {
    const error = Object.values(errors).flat().join(' ');
    super(422, code, { error, errors, languages });
  }
}

/**
 * The other languages a replacing job must write again: those the entity's content has text of
 * their own in, outside the widgets filled from the item's data (a parameters table's names and
 * values are the catalogue's; a replace composes them from the data again), so a shop whose
 * catalogue writes no `default` texts is never asked for some. Each is written from what the
 * service knows of the entity in that language; a language with no name or description is
 * refused, because replacing the widgets would leave it without its text or in another
 * language's words.
 */
async function otherLanguages(
  db: Knex,
  input: PlanInput,
  material: GenerationMaterial,
  lang: string,
): Promise<{ sources: Record<string, OtherLanguageSource>; missing: string[] }> {
  const { eshop, entity } = input;
  const content = await contentRepository.find(db, {
    eshopId: eshop.id,
    entityType: entity.type,
    externalId: entity.entityId,
  });
  const sources: Record<string, OtherLanguageSource> = {};
  const missing: string[] = [];
  if (content === undefined) return { sources, missing };
  const active = new Set<string>(eshop.languages);
  for (const other of writtenLanguages(content.tree as ContentWidget[])) {
    if (other === lang || !active.has(other)) continue;
    const source = knownIn(entity, material, other, eshop.defaultLanguage);
    if (hasWords(source)) sources[other] = source;
    else missing.push(other);
  }
  return { sources, missing };
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
  /**
   * Reads shared by the plans of one transaction (a bulk generation's step plans hundreds of
   * items of one eshop with one design and prompt): each design, prompt and price read once.
   */
  memo?: PlanMemo;
  /** The entity's catalogue material, when the caller read it already (`generationMaterials`). */
  material?: GenerationMaterial;
}

/** What `planGeneration` read once per key, for the plans that share it (`newPlanMemo`). */
export interface PlanMemo {
  designs: Map<number, ReturnType<typeof loadDesign>>;
  prompts: Map<number, Promise<Prompt | undefined>>;
  prices: Map<string, Promise<number>>;
}

export const newPlanMemo = (): PlanMemo => ({ designs: new Map(), prompts: new Map(), prices: new Map() });

function once<K, T>(memo: Map<K, Promise<T>> | undefined, key: K, read: () => Promise<T>): Promise<T> {
  if (!memo) return read();
  let found = memo.get(key);
  if (!found) memo.set(key, (found = read()));
  return found;
}

type Fail = (field: string, message: string) => void;

/**
 * The design the job fills (sent, else the entity's): accessible, of the entity's type and with
 * something to generate. Returns how many of its fillable widgets can receive text (what the
 * worker may charge for).
 */
async function checkDesign(
  db: Knex,
  eshop: Pick<Eshop, 'id'>,
  entity: Pick<WlEntity, 'type'>,
  designId: number | null | undefined,
  fail: Fail,
  memo?: PlanMemo,
): Promise<number> {
  const design = sent(designId)
    ? await once(memo?.designs, designId, () => loadDesign(db, eshop.id, designId))
    : undefined;
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
    const fillable = structureOf(design).widget.filter((w) => w.fillable);
    if (fillable.length === 0) fail('design_id', 'The selected design has no widget that can be generated.');
    // Only widgets that can receive text are charged (an images-only gallery never is).
    return fillable.filter((w) =>
      [...w.field, ...w.item_field].some((spec) => spec.format === 'text' || spec.format === 'html'),
    ).length;
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
 * The snapshot stored on the job: the body, the prompt's settings, and where the body sent
 * nothing, what the service knows of the entity in the job's language (`knownIn`).
 */
function jobContext(
  input: PlanInput,
  known: OtherLanguageSource,
  images: string[],
  prompt: Prompt | undefined,
  chosen: ReturnType<typeof settings>,
  others: Record<string, OtherLanguageSource>,
): GenerateJobContext {
  const { body } = input;
  const context: GenerateJobContext = {
    ...writingTexts(body, known),
    ...(known.categories && known.categories.length > 0 && { categories: known.categories }),
    images,
    ...(prompt && { prompt_id: prompt.id }),
    ...(sent(body.paragraph_length) && { paragraph_length: body.paragraph_length }),
    ...chosen,
    use_ai_profile: body.use_ai_profile ?? false,
    ...(Object.keys(others).length > 0 && { other_languages: others }),
  };
  return context;
}

/**
 * Whether the job has words of its language to write from: a name or a description (sent or
 * known), parameters the host sent for it, or pages to read. The catalogue's parameters, brand
 * and images alone are not enough: they are data the words are written around.
 */
function hasSource(context: GenerateJobContext, body: GenerateBody, researchUrls: number): boolean {
  return researchUrls > 0 || hasWords(context) || filled(body.parameter);
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
  if (!isOneOf(eshop.languages, lang)) {
    fail('lang', `The lang ${lang} is not an active language of this eshop.`);
  }
  const designId = body.design_id ?? entity.designId;
  const { memo } = input;
  const fillable = await checkDesign(db, eshop, entity, designId, fail, memo);
  const prompt = sent(body.prompt_id)
    ? await once(memo?.prompts, body.prompt_id, () => promptsRepository.find(db, eshop.id, body.prompt_id!))
    : undefined;
  if (sent(body.prompt_id) && !prompt) fail('prompt_id', 'The selected prompt_id is invalid.');
  const chosen = settings(body, prompt);
  const researchUrls = checkResearch(chosen, maxResearchUrls, fail);
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);

  const material = input.material ?? (await generationMaterial(db, eshop.id, entity.type, entity.entityId));
  const { sources: others, missing } = chosen.remove_exist_widget
    ? await otherLanguages(db, input, material, lang)
    : { sources: {}, missing: [] };
  const context = jobContext(
    input,
    knownIn(entity, material, lang, eshop.defaultLanguage),
    material.images,
    prompt,
    chosen,
    others,
  );
  // The job would fail with nothing written, or replace a language's text with nothing: the
  // host learns why now, in words its user can act on, and nothing is reserved.
  const what = ENTITY_IN_WORDS[entity.type] ?? 'the entity';
  if (!hasSource(context, body, researchUrls)) {
    const language = languageInWords(lang);
    fail(
      'lang',
      `There is nothing in ${language} to write from: add a name or description in ${language} to ${what}${mainLanguageFix([lang], eshop)}, or send them with the request.`,
    );
  }
  if (missing.length > 0) {
    fail(
      'remove_exist_widget',
      `Replacing the content would remove its text in ${listInWords(missing, 'and')}, and there is nothing in ${listInWords(missing, 'or')} to write it again from: add a name or description in ${listInWords(missing, 'and')} to ${what}${mainLanguageFix(missing, eshop)}, or add the new text to the existing content instead of replacing it.`,
    );
  }
  if (errors.lang)
    throw new NothingToWriteFromError('generation_material_missing', [lang, ...missing], errors);
  if (errors.remove_exist_widget)
    throw new NothingToWriteFromError('replaced_language_missing', missing, errors);

  // The worker charges each widget once per language it writes text in: the job's language, and
  // for a replacing job each other language written again. The estimate reserves the most.
  const work = {
    widgets: fillable,
    languages: 1 + Object.keys(others).length,
    webResearchUrls: researchUrls,
    serpContext: chosen.use_serp_context,
  };
  const estimate = await once(memo?.prices, JSON.stringify(work), () => priceGeneration(db, work));
  return { designId: designId!, lang, context, estimate };
}

/** What a bulk generation asks of each item: its design (else the entity's), its prompt. */
export interface BatchItemRequest {
  design_id?: number | null;
  prompt_id?: number | null;
}

/**
 * The body a bulk generation sends for one item in one language: a single generation's, which
 * appends (a batch never replaces content: replacing would make each item's price depend on the
 * languages its content has, and remove what people wrote).
 */
export function batchItemBody(request: BatchItemRequest, lang: string): GenerateBody {
  return {
    ...(sent(request.design_id) && { design_id: request.design_id }),
    ...(sent(request.prompt_id) && { prompt_id: request.prompt_id }),
    lang,
    remove_exist_widget: false,
  };
}

/**
 * What one item of a bulk generation costs with design `designId`: `planGeneration`'s estimate of
 * the item's body (`batchItemBody`) without reading the item (an appending job writes one
 * language, so the price depends on the design and the prompt only). A design or prompt the
 * eshop cannot use is refused as `planGeneration` refuses it.
 */
export async function estimateBatchItem(
  db: Knex,
  input: { eshop: Eshop; entityType: WlEntity['type']; designId: number | null; promptId?: number | null },
  maxResearchUrls: number,
): Promise<number> {
  const { eshop, entityType, designId } = input;
  const errors: FieldErrors = {};
  const fail: Fail = (field, message) => {
    (errors[field] ??= []).push(message);
  };
  const fillable = await checkDesign(db, eshop, { type: entityType }, designId, fail);
  const prompt = sent(input.promptId)
    ? await promptsRepository.find(db, eshop.id, input.promptId)
    : undefined;
  if (sent(input.promptId) && !prompt) fail('prompt_id', 'The selected prompt_id is invalid.');
  const chosen = settings(
    batchItemBody({ design_id: designId, prompt_id: input.promptId }, 'default'),
    prompt,
  );
  const researchUrls = checkResearch(chosen, maxResearchUrls, fail);
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return priceGeneration(db, {
    widgets: fillable,
    languages: 1,
    webResearchUrls: researchUrls,
    serpContext: chosen.use_serp_context,
  });
}
