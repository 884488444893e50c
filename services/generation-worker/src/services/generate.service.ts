/**
 * The `generate` job: content for one white-label entity, written by the configured provider
 * after the design the host chose, from the context snapshot stored on the job row.
 *
 * The job row goes `pending → running → done | failed`, and ends exactly once: the final write
 * locks the row and does nothing when another delivery already ended it. Content, the catalogue
 * item's `updated_at` and the job's outcome are written in one transaction; the credit
 * settlement is queued after the commit with a deterministic job id, so a redelivered job never
 * settles twice (and one whose worker died between the commit and the queueing settles then).
 *
 * A provider failure (already retried inside the provider) ends the job `failed` and releases
 * its reservation; the BullMQ job itself completes. Database and Redis errors propagate so that
 * BullMQ retries the job.
 */
import { isOneOf, WHITE_LABEL_ENTITY_TYPES } from '@catalogue/config';
import { UnrecoverableError } from 'bullmq';
import {
  appendWidgets,
  fillDesign,
  htmlToText,
  writtenLanguages,
  type ContentWidget,
  type DesignStructure,
  type FillWidgetInput,
  type Text,
} from '@catalogue/content';
import {
  generationMaterial,
  loadDesign,
  saveEditorContents,
  structureOf,
  type EntitySources,
  type LoadedDesign,
} from '@catalogue/content-store';
import { chargesFor } from '@catalogue/credits';
import {
  type Eshop,
  eshopsRepository,
  type GenerationJob,
  generationJobsRepository,
  type JobOutcome,
} from '@catalogue/db';
import type { GeneratePayload } from '@catalogue/queue';
import { inSpan, SpanKind } from '@catalogue/tracing';
import {
  ProviderError,
  type GenerationContext,
  type ResearchSource,
  type SkippedWidget,
  type TokenUsage,
} from '../providers';
import { collapse } from '../providers/text';
import type { ResearchPage, ResearchRefusal } from '../research';
import { leaveOutRepeats, withDataWidgets } from './generated-widgets';
import {
  fillProblems,
  mergeLanguages,
  promptText,
  readContext,
  research,
  type JobContext,
} from './generation-context';
import {
  failGeneration,
  isFinished,
  queueSettlement,
  settleFinished,
  type GenerationDeps,
  type GenerationRunResult,
} from './generation-end';

export { failGeneration } from './generation-end';
export type { GenerationDeps, GenerationOutcome, GenerationRunResult } from './generation-end';

const CONTENT_TYPES: ReadonlySet<string> = new Set(WHITE_LABEL_ENTITY_TYPES);

/**
 * This worker does not add search-results (SERP) context: there is no search backend. What a
 * job reserved for it is released at settlement instead of charged.
 */
const SERP_CONTEXT_PROVIDED = false;

/** A job's failure: the message it ends with, and what the provider used on the way. */
interface Failure {
  failed: string;
  provider?: string | null;
  usage?: TokenUsage | null;
}

/** What a running job is generated from. */
interface JobInputs {
  design: LoadedDesign;
  eshop: Eshop;
  context: JobContext;
  structure: DesignStructure;
  pages: ResearchPage[];
  /** Research URLs not read, and why. */
  refused: ResearchRefusal[];
  /** The job's language first, then each other language a replacing job writes again. */
  contexts: GenerationContext[];
}

/** Generated widgets filled into the design. */
interface Generated {
  /** The widgets as answered (every language merged), which `tree` is filled from. */
  widgets: FillWidgetInput[];
  /** Each image's alternative text by language. */
  imageAlt: Record<string, string>;
  tree: ContentWidget[];
  widgetsCreated: number;
  /** Widgets that got text, summed over the languages written: what is charged. */
  widgetLanguages: number;
  /** The languages the tree has text in. */
  languages: string[];
  /** The design's fillable widgets left out, and why. */
  skipped: SkippedWidget[];
  /** Research pages the texts came from. */
  sources: ResearchSource[];
  provider: string;
  usage: TokenUsage | null;
}

/** Reads shared by the jobs of one bulk generation step (one eshop): each design, the eshop, each prompt once. */
export interface InputsMemo {
  designs: Map<number, Promise<LoadedDesign | undefined>>;
  eshop: Map<number, Promise<Eshop | undefined>>;
  prompts: Map<number | undefined, Promise<string | undefined>>;
}

export const newInputsMemo = (): InputsMemo => ({ designs: new Map(), eshop: new Map(), prompts: new Map() });

function once<K, T>(memo: Map<K, Promise<T>> | undefined, key: K, read: () => Promise<T>): Promise<T> {
  if (!memo) return read();
  let found = memo.get(key);
  if (!found) memo.set(key, (found = read()));
  return found;
}

/** Step 1: the design, the eshop, the stored context, the research pages and the prompt of the job. */
async function loadInputs(
  deps: GenerationDeps,
  job: GenerationJob,
  memo?: InputsMemo,
): Promise<JobInputs | Failure> {
  const { eshopId } = job;
  if (!CONTENT_TYPES.has(job.entityType)) return { failed: `Unknown entity type "${job.entityType}".` };
  const design = await once(memo?.designs, job.designId, () => loadDesign(deps.db, eshopId, job.designId));
  if (design === undefined) return { failed: `Design ${job.designId} is not available to this eshop.` };
  const eshop = await once(memo?.eshop, eshopId, () => eshopsRepository.findById(deps.db, eshopId));
  if (eshop === undefined) throw new UnrecoverableError(`eshop ${eshopId} not found`);

  const context = readContext(job.context);
  const structure = structureOf(design);
  const { pages, refused } = await research(deps, context);
  const prompt = await once(memo?.prompts, context.prompt_id, () =>
    promptText(deps.db, eshopId, context.prompt_id),
  );
  // The catalogue's material was merged into the context when the job was planned; a row
  // written before that carries no `images`, and reads the item's images and pages now.
  const legacy =
    context.images === undefined
      ? await generationMaterial(deps.db, eshopId, job.entityType, job.entityId)
      : undefined;
  const images = context.images ?? legacy?.images ?? [];
  const urlIn = (lang: string, stored: string | undefined) =>
    stored ?? (legacy?.url[lang]?.trim() || undefined);
  const own: GenerationContext = {
    lang: job.lang,
    languages: eshop.languages,
    name: context.name,
    short_description: context.short_description,
    old_description: context.old_description,
    parameter: context.parameter,
    ean: context.ean,
    brand: context.brand,
    categories: context.categories,
    prompt,
    paragraph_length: context.paragraph_length,
    research: pages,
    images,
    url: urlIn(job.lang, context.url),
    ...(eshop.defaultLanguage && { mainLanguage: eshop.defaultLanguage }),
  };
  // Another language is written from its own data only: the host's fields and the research
  // pages belong to the job's language.
  const others = Object.entries(context.other_languages)
    .filter(([lang]) => lang !== job.lang && isOneOf(eshop.languages, lang))
    .map(([lang, source]): GenerationContext => ({
      lang,
      languages: eshop.languages,
      name: source.name,
      short_description: source.short_description,
      old_description: source.old_description,
      parameter: source.parameter,
      ean: context.ean,
      brand: source.brand,
      categories: source.categories,
      prompt,
      paragraph_length: context.paragraph_length,
      research: [],
      images,
      url: urlIn(lang, source.url),
      ...(eshop.defaultLanguage && { mainLanguage: eshop.defaultLanguage }),
    }));
  return { design, eshop, context, structure, pages, refused, contexts: [own, ...others] };
}

/** Step 2: the provider's widgets, filled into the design in the job's language. */
async function generateTree(
  deps: GenerationDeps,
  job: GenerationJob,
  inputs: JobInputs,
): Promise<Generated | Failure> {
  const answers = [];
  let usage: TokenUsage | null = null;
  for (const context of inputs.contexts) {
    let generated;
    try {
      // One span per provider call (its retries inside): which provider and language, the tokens
      // it used; never the prompt or the answer.
      generated = await inSpan(
        'provider generate',
        { 'app.provider': deps.provider.name, 'app.language': context.lang, 'app.generation_job_id': job.id },
        async (span) => {
          const answer = await deps.provider.generate({ structure: inputs.structure, context });
          if (answer.usage)
            span.setAttributes({
              'gen_ai.usage.input_tokens': answer.usage.prompt_tokens,
              'gen_ai.usage.output_tokens': answer.usage.completion_tokens,
            });
          span.setAttribute('app.widgets', answer.widgets.length);
          return answer;
        },
        SpanKind.CLIENT,
      );
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      // The provider retried already; its messages carry no secrets.
      return {
        failed: `Content generation failed: ${err.message}`,
        provider: deps.provider.name,
        usage: addUsage(usage, err.usage),
      };
    }
    usage = addUsage(usage, generated.usage);
    answers.push({
      lang: context.lang,
      widgets: generated.widgets,
      skipped: generated.skipped ?? [],
      sources: generated.sources,
    });
  }
  const provider = deps.provider.name;
  const [own, ...others] = answers;
  if (own!.widgets.length === 0) {
    return {
      failed:
        'Nothing could be generated for this design from the context sent (name, descriptions, parameters, research).',
      provider,
      usage,
    };
  }
  const merged = mergeLanguages(own!, others);
  const empty = others.filter((other) => merged.perLanguage[other.lang] === 0).map((other) => other.lang);
  if (empty.length > 0) {
    // Replacing the widgets would leave these languages without the text they have now.
    return {
      failed: `Nothing could be generated in ${empty.join(', ')} (from the entity's title and old description in that language) for the widgets written in ${job.lang}; the content was left as it was.`,
      provider,
      usage,
    };
  }
  const alt = imageAlt(inputs.contexts);
  const filled = fillDesign(
    inputs.structure,
    inputs.design.templates,
    { widget: merged.widgets },
    { htmlLanguage: job.lang, imageAlt: alt },
  );
  if (!filled.ok) {
    return {
      failed: `The generated content does not fit the design: ${fillProblems(filled.errors)}`,
      provider,
      usage,
    };
  }
  return {
    widgets: merged.widgets,
    imageAlt: alt,
    tree: filled.tree,
    widgetsCreated: filled.widgetsCreated,
    widgetLanguages: writtenWidgets(
      inputs.structure,
      merged.widgets,
      answers.map((a) => a.lang),
    ),
    languages: answers.map((answer) => answer.lang),
    skipped: skippedWidgets(inputs.structure, merged.widgets, own!.skipped),
    // A provider that cannot tell which widget used a page read them all for every widget.
    sources: own!.sources ?? inputs.pages.map((page) => ({ url: page.url, design_widget_id: null })),
    provider,
    usage,
  };
}

/**
 * The images' alternative text: the item's name in each language written (as the import
 * rendering sets it), so a generated image is never described by nothing.
 */
function imageAlt(contexts: readonly GenerationContext[]): Record<string, string> {
  const alt: Record<string, string> = {};
  for (const context of contexts) {
    const name = collapse(htmlToText(context.name ?? ''));
    if (name !== '') alt[context.lang] = name;
  }
  return alt;
}

/**
 * What is charged: per language written, the widgets that received text in it (a field or an
 * item of text or HTML format). A widget of the catalogue's own images only, or of a bare link
 * (a video taken from the description), is placed, not written, and costs nothing.
 */
export function writtenWidgets(
  structure: DesignStructure,
  widgets: readonly FillWidgetInput[],
  languages: readonly string[],
): number {
  const specs = new Map(
    structure.widget.map((w) => [
      w.design_widget_id,
      new Map(
        (w.fillable ? [...w.field, ...w.item_field] : []).map((spec) => [spec.role, spec.format] as const),
      ),
    ]),
  );
  const hasText = (texts: Record<string, Text>, formats: Map<string, string>, lang: string, only: boolean) =>
    Object.entries(texts).some(([role, text]) => {
      const format = formats.get(role);
      if (format !== 'text' && format !== 'html') return false;
      const value = typeof text === 'string' ? (only ? text : undefined) : text[lang];
      return typeof value === 'string' && value.trim() !== '';
    });
  let count = 0;
  for (const widget of widgets) {
    const formats = specs.get(widget.design_widget_id) ?? new Map<string, string>();
    for (const lang of languages) {
      // A plain string is the job's language's text (the first language).
      const only = lang === languages[0];
      const texts = [widget.fields ?? {}, ...(widget.items ?? [])];
      if (texts.some((t) => hasText(t, formats, lang, only))) count++;
    }
  }
  return count;
}

/** The fillable widgets that got nothing, with the provider's reason or `not_answered`. */
function skippedWidgets(
  structure: DesignStructure,
  filled: readonly { design_widget_id: number }[],
  reported: readonly SkippedWidget[],
): SkippedWidget[] {
  const kept = new Set(filled.map((w) => w.design_widget_id));
  const reasons = new Map(reported.map((s) => [s.design_widget_id, s]));
  return structure.widget
    .filter((w) => w.fillable && !kept.has(w.design_widget_id))
    .map(
      (w) =>
        reasons.get(w.design_widget_id) ?? {
          design_widget_id: w.design_widget_id,
          type: w.type,
          reason: 'not_answered',
        },
    );
}

function addUsage(a: TokenUsage | null, b: TokenUsage | null): TokenUsage | null {
  if (a === null || b === null) return a ?? b;
  return {
    prompt_tokens: a.prompt_tokens + b.prompt_tokens,
    completion_tokens: a.completion_tokens + b.completion_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  };
}

/** Thrown inside the content transaction: replacing now would empty a language (nothing is written). */
class LanguagesChanged extends Error {}

/** Thrown inside the content transaction: the page already shows everything generated (nothing is written). */
class NothingNew extends Error {}

/** What the job writes, once the content it writes into is known (under its lock). */
interface Written {
  tree: ContentWidget[];
  widgetsCreated: number;
  widgetLanguages: number;
  skipped: SkippedWidget[];
}

/**
 * The tree an appending job writes: the generated widgets the page does not already show
 * (`leaveOutRepeats`), appended; a widget it shows is reported `already_shown` and not charged.
 * NothingNew when the page shows them all.
 */
function appendNew(
  job: GenerationJob,
  inputs: JobInputs,
  generated: Generated,
  existing: ContentWidget[],
): Written {
  const { kept, repeated } = leaveOutRepeats(inputs.structure, generated.widgets, existing, job.lang);
  if (kept.length === 0) throw new NothingNew();
  let tree = generated.tree;
  if (repeated.length > 0) {
    // A subset of widgets that fitted the design fits it too.
    const filled = fillDesign(
      inputs.structure,
      inputs.design.templates,
      { widget: kept },
      { htmlLanguage: job.lang, imageAlt: generated.imageAlt },
    );
    if (!filled.ok) throw new Error(`generated widgets no longer fit: ${fillProblems(filled.errors)}`);
    tree = filled.tree;
  }
  return {
    tree: appendWidgets(existing, tree, job.lang),
    widgetsCreated: tree.length,
    widgetLanguages: writtenWidgets(inputs.structure, kept, generated.languages),
    skipped: [...generated.skipped, ...repeated],
  };
}

/** A job ready to store: its row, what it was generated from, what was generated. */
interface ReadyJob {
  job: GenerationJob;
  inputs: JobInputs;
  generated: Generated;
}

/** What storing a job did: written and charged, null when another delivery had ended it, or a Failure (nothing written). */
type Stored = { charged: number; written: Written } | null | Failure;

/**
 * Step 3: each job's content (replacing or appended to the entity's) and the job `done` with
 * what it cost, in one transaction for the jobs of one eshop and entity type (each entity once;
 * `storeGroup`), so a bulk generation's items cost about as many statements together as one.
 */
async function storeGenerated(
  deps: GenerationDeps,
  ready: readonly ReadyJob[],
): Promise<Map<number, Stored>> {
  const groups: ReadyJob[][] = [];
  for (const entry of ready) {
    const { eshopId, entityType, entityId } = entry.job;
    const group = groups.find(
      (g) =>
        g[0]!.job.eshopId === eshopId &&
        g[0]!.job.entityType === entityType &&
        !g.some((other) => other.job.entityId === entityId),
    );
    if (group) group.push(entry);
    else groups.push([entry]);
  }
  const out = new Map<number, Stored>();
  for (const group of groups) for (const [id, stored] of await storeGroup(deps, group)) out.set(id, stored);
  return out;
}

/** What a job writes into the content it finds (under its lock); throws LanguagesChanged or NothingNew. */
function writtenInto(
  { job, inputs, generated }: ReadyJob,
  existing: ContentWidget[] | undefined,
  sources: EntitySources | undefined,
): Written {
  const replaced = (): Written => ({
    tree: withDataWidgets(
      inputs.structure,
      inputs.design.templates,
      generated.widgets,
      generated.tree,
      sources?.compose,
      job.lang,
    ),
    widgetsCreated: generated.widgetsCreated,
    widgetLanguages: generated.widgetLanguages,
    skipped: generated.skipped,
  });
  if (existing === undefined) return replaced();
  if (!inputs.context.remove_exist_widget) return appendNew(job, inputs, generated, existing);
  // The request was planned on the content as it was; an edit since may have given another
  // language text of its own that this job does not write. (A parameters table's texts are the
  // item's data: composed again, nothing is lost.)
  const lost = [...writtenLanguages(existing)].filter(
    (lang) => isOneOf(inputs.eshop.languages, lang) && !generated.languages.includes(lang),
  );
  if (lost.length > 0) throw new LanguagesChanged(lost.join(', '));
  return replaced();
}

/** Everything generated is on the page already: nothing is written or charged, and the job says which widgets were left out and why. */
function nothingNew({ inputs, generated }: ReadyJob): Written {
  return {
    tree: [],
    widgetsCreated: 0,
    widgetLanguages: 0,
    skipped: [
      ...generated.skipped,
      ...generated.widgets.map((w) => ({
        design_widget_id: w.design_widget_id,
        type: inputs.structure.widget.find((t) => t.design_widget_id === w.design_widget_id)?.type ?? '',
        reason: 'already_shown' as const,
      })),
    ],
  };
}

/** `storeGenerated` of jobs of one eshop and entity type, each entity once: one transaction. */
async function storeGroup(deps: GenerationDeps, group: readonly ReadyJob[]): Promise<Map<number, Stored>> {
  const { eshopId, entityType } = group[0]!.job;
  const { eshop } = group[0]!.inputs;
  return deps.db.transaction(async (trx) => {
    const out = new Map<number, Stored>();
    const ids = group.map((entry) => entry.job.id);
    const current = new Map(
      (await generationJobsRepository.findMany(trx, eshopId, ids, { lock: true })).map((job) => [
        job.id,
        job,
      ]),
    );
    const live = group.filter(({ job }) => {
      const row = current.get(job.id);
      if (row === undefined || isFinished(row)) out.set(job.id, null);
      return !out.has(job.id);
    });
    if (live.length === 0) return out;
    const byEntity = new Map(live.map((entry) => [entry.job.entityId, entry]));
    const written = new Map<number, Written>();
    const saved = await saveEditorContents(
      trx,
      { eshop, entityType },
      live.map(({ job, inputs }) => ({
        externalId: job.entityId,
        fallbackName: inputs.context.name,
        source: { kind: 'generation' as const, jobId: job.id },
      })),
      (write, existing, sources) => {
        const entry = byEntity.get(write.externalId)!;
        const into = writtenInto(entry, existing, sources);
        written.set(entry.job.id, into);
        return into.tree;
      },
    );
    const charge = await chargesFor(trx);
    const finished: { id: number; outcome: JobOutcome }[] = [];
    for (const entry of live) {
      const { job, inputs, generated } = entry;
      const result = saved.get(job.entityId)!;
      let into: Written;
      if ('saved' in result) into = written.get(job.id)!;
      else if (result.refused instanceof NothingNew) into = nothingNew(entry);
      else if (result.refused instanceof LanguagesChanged) {
        out.set(job.id, {
          failed: `The content changed while the job ran: ${result.refused.message} now has text of its own that this job does not write, so nothing was replaced.`,
          provider: generated.provider,
          usage: generated.usage,
        });
        continue;
      } else throw result.refused;
      // Never more than was reserved: the settlement charges at most that, and the row says the same.
      const charged = charge(current.get(job.id)!.estimatedCost, {
        widgets: into.widgetLanguages,
        languages: 1,
        webResearchUrls: inputs.pages.length,
        serpContext: SERP_CONTEXT_PROVIDED && inputs.context.use_serp_context,
      });
      finished.push({
        id: job.id,
        outcome: {
          status: 'done',
          widgetsCreated: into.widgetsCreated,
          chargedCost: charged,
          provider: generated.provider,
          usage: generated.usage,
          widgetsSkipped: into.skipped,
          researchSources: generated.sources,
          researchRefused: inputs.refused,
        },
      });
      out.set(job.id, { charged, written: into });
    }
    await generationJobsRepository.finishMany(trx, eshopId, finished);
    return out;
  });
}

const isFailure = (value: object): value is Failure => 'failed' in value;

/**
 * Runs one generation job row. Returns what happened; throws UnrecoverableError when the job
 * does not exist for that eshop, and lets database and Redis errors through (BullMQ retries).
 */
export async function runGeneration(
  deps: GenerationDeps,
  payload: GeneratePayload,
): Promise<GenerationRunResult> {
  const { eshop_id: eshopId, job_id: jobId } = payload;
  const job = await generationJobsRepository.find(deps.db, eshopId, jobId);
  if (job === undefined)
    throw new UnrecoverableError(`generation job ${jobId} of eshop ${eshopId} not found`);
  if (isFinished(job)) return settleFinished(deps, eshopId, jobId);
  await generationJobsRepository.markRunning(deps.db, eshopId, jobId);
  const [result] = await generateRows(deps, [job], { settle: true });
  return result!;
}

/**
 * Runs job rows their caller has taken (`running`) and settles itself: a bulk generation's step,
 * which settles all its items in one transaction afterwards. The jobs are generated one after
 * another and stored together (`storeGenerated`). `memo` shares the design, eshop and prompt
 * reads between the jobs of one step.
 */
export async function runClaimedGenerations(
  deps: GenerationDeps,
  jobs: readonly GenerationJob[],
  memo?: InputsMemo,
): Promise<GenerationRunResult[]> {
  return generateRows(deps, jobs, { settle: false, memo });
}

async function generateRows(
  deps: GenerationDeps,
  jobs: readonly GenerationJob[],
  opts: { settle: boolean; memo?: InputsMemo },
): Promise<GenerationRunResult[]> {
  const results = new Map<number, GenerationRunResult>();
  const refusedOf = new Map<number, ResearchRefusal[]>();
  const fail = async (job: GenerationJob, { failed, provider = null, usage = null }: Failure) =>
    results.set(
      job.id,
      await failGeneration(
        deps,
        job.eshopId,
        job.id,
        { message: failed, provider, usage, researchRefused: refusedOf.get(job.id) ?? [] },
        { settle: opts.settle },
      ),
    );

  const ready: ReadyJob[] = [];
  for (const job of jobs) {
    const inputs = await loadInputs(deps, job, opts.memo);
    if (isFailure(inputs)) {
      await fail(job, inputs);
      continue;
    }
    refusedOf.set(job.id, inputs.refused);
    const generated = await generateTree(deps, job, inputs);
    if (isFailure(generated)) await fail(job, generated);
    else ready.push({ job, inputs, generated });
  }
  const stored = await storeGenerated(deps, ready);
  for (const { job, inputs, generated } of ready) {
    const { eshopId, id: jobId } = job;
    const outcome = stored.get(jobId);
    if (outcome === null || outcome === undefined) {
      results.set(
        jobId,
        opts.settle
          ? await settleFinished(deps, eshopId, jobId)
          : { outcome: 'already_finished', widgets_created: 0, actual_cost: 0 },
      );
      continue;
    }
    if (isFailure(outcome)) {
      await fail(job, outcome);
      continue;
    }
    const { charged: actualCost, written } = outcome;
    if (opts.settle)
      await queueSettlement(deps, { eshop_id: eshopId, job_id: jobId, actual_cost: actualCost });
    deps.logger.info(
      {
        eshop_id: eshopId,
        job_id: jobId,
        provider: generated.provider,
        widgets_created: written.widgetsCreated,
        research_pages: inputs.pages.length,
        actual_cost: actualCost,
        usage: generated.usage,
      },
      'generation done',
    );
    results.set(jobId, { outcome: 'done', widgets_created: written.widgetsCreated, actual_cost: actualCost });
  }
  return jobs.map((job) => results.get(job.id)!);
}
