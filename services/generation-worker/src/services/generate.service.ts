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
import { UnrecoverableError } from 'bullmq';
import { designStructure, fillDesign, type FillWidgetInput, type Text } from '@catalogue/content';
import { estimateGeneration } from '@catalogue/credits';
import {
  creditsRepository,
  designsRepository,
  eshopsRepository,
  generationJobsRepository,
  promptsRepository,
  saveEditorContent,
  type ContentEntityType,
  type GenerationJob,
  type Knex,
} from '@catalogue/db';
import type { Logger } from '@catalogue/logger';
import { enqueue, type JobPayloads, type Queues } from '@catalogue/queue';
import { ProviderError, type ContentProvider, type GenerationContext, type TokenUsage } from '../providers';
import { fetchResearch, type ResearchOptions, type ResearchPage } from '../research';
import { appendWidgets } from './append-widgets';

export interface GenerationDeps {
  db: Knex;
  queues: Queues;
  logger: Logger;
  provider: ContentProvider;
  research: ResearchOptions;
}

export type GenerationOutcome =
  /** Content written, job `done`. */
  | 'done'
  /** Job `failed` (provider failure, design unavailable, nothing to write); reservation released. */
  | 'failed'
  /** The job had ended before (a redelivery): nothing written again. */
  | 'already_finished';

export interface GenerationRunResult {
  outcome: GenerationOutcome;
  widgets_created: number;
  actual_cost: number;
}

const CONTENT_TYPES: ReadonlySet<string> = new Set(['product', 'category', 'blog', 'page']);

/**
 * This worker does not add search-results (SERP) context: there is no search backend. What a
 * job reserved for it is released at settlement instead of charged.
 */
const SERP_CONTEXT_PROVIDED = false;

const MAX_ERROR_MESSAGE = 1_000;

/** The context snapshot as stored by the generate endpoint (the request body, see spec rule 5). */
interface JobContext {
  name?: string;
  short_description?: string;
  old_description?: string;
  parameter?: string;
  ean?: string;
  prompt_id?: number;
  paragraph_length?: number;
  remove_exist_widget: boolean;
  use_serp_context: boolean;
  use_web_research: boolean;
  search_web: string[];
}

const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;
const int = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;

/** The snapshot read defensively: a value of the wrong type counts as not sent. */
function readContext(raw: Record<string, unknown>): JobContext {
  return {
    name: str(raw.name),
    short_description: str(raw.short_description),
    old_description: str(raw.old_description),
    parameter: str(raw.parameter),
    ean: str(raw.ean),
    prompt_id: int(raw.prompt_id),
    paragraph_length: int(raw.paragraph_length),
    remove_exist_widget: raw.remove_exist_widget === true,
    use_serp_context: raw.use_serp_context === true,
    use_web_research: raw.use_web_research === true,
    search_web: Array.isArray(raw.search_web)
      ? raw.search_web.filter((url): url is string => typeof url === 'string' && url.trim() !== '')
      : [],
  };
}

const isFinished = (job: GenerationJob): boolean => job.status === 'done' || job.status === 'failed';

const clip = (text: string): string =>
  text.length <= MAX_ERROR_MESSAGE ? text : `${text.slice(0, MAX_ERROR_MESSAGE - 1)}…`;

/** The instructions of the selected prompt: a prompt every eshop sees or one of this eshop's own. */
async function promptText(
  db: Knex,
  eshopId: number,
  promptId: number | undefined,
): Promise<string | undefined> {
  if (promptId === undefined) return undefined;
  return str((await promptsRepository.find(db, eshopId, promptId))?.prompt);
}

/** A provider's plain texts as language maps of the job's language. */
function inLanguage(widgets: readonly FillWidgetInput[], lang: string): FillWidgetInput[] {
  const texts = (record: Record<string, Text>): Record<string, Text> =>
    Object.fromEntries(
      Object.entries(record).map(([role, text]) => [
        role,
        typeof text === 'string' ? { [lang]: text } : text,
      ]),
    );
  return widgets.map((widget) => ({
    ...widget,
    ...(widget.fields ? { fields: texts(widget.fields) } : {}),
    ...(widget.items ? { items: widget.items.map(texts) } : {}),
  }));
}

function fillProblems(errors: Record<string, string[]>): string {
  return Object.values(errors).flat().join(' ');
}

function settlementJobId(jobId: number): string {
  return `settle-${jobId}`;
}

async function queueSettlement(
  deps: GenerationDeps,
  payload: JobPayloads['credit-settlement'],
): Promise<void> {
  await enqueue(deps.queues, 'credit-settlement', payload, { jobId: settlementJobId(payload.job_id) });
}

/**
 * Ends a job `failed` (unless it has ended already) and queues the release of its reservation.
 * Usage spent on failed provider attempts is recorded too.
 */
export async function failGeneration(
  deps: GenerationDeps,
  eshopId: number,
  jobId: number,
  failure: { message: string; provider: string | null; usage: TokenUsage | null },
): Promise<GenerationRunResult> {
  const state = await deps.db.transaction(async (trx) => {
    const current = await generationJobsRepository.find(trx, eshopId, jobId, { lock: true });
    if (current === undefined) return 'missing';
    if (isFinished(current)) return 'finished';
    await generationJobsRepository.finish(trx, eshopId, jobId, {
      status: 'failed',
      errorMessage: clip(failure.message),
      provider: failure.provider,
      usage: failure.usage,
    });
    return 'failed';
  });
  if (state === 'missing') return { outcome: 'already_finished', widgets_created: 0, actual_cost: 0 };
  if (state === 'finished') return settleFinished(deps, eshopId, jobId);
  await queueSettlement(deps, { eshop_id: eshopId, job_id: jobId, actual_cost: 0 });
  deps.logger.info(
    { eshop_id: eshopId, job_id: jobId, provider: failure.provider, error: clip(failure.message) },
    'generation failed',
  );
  return { outcome: 'failed', widgets_created: 0, actual_cost: 0 };
}

/** A redelivered job that had ended: queue its settlement again (a no-op when it was queued). */
async function settleFinished(
  deps: GenerationDeps,
  eshopId: number,
  jobId: number,
): Promise<GenerationRunResult> {
  const job = await generationJobsRepository.find(deps.db, eshopId, jobId);
  if (job === undefined) return { outcome: 'already_finished', widgets_created: 0, actual_cost: 0 };
  const actualCost = job.status === 'done' ? (job.chargedCost ?? 0) : 0;
  await queueSettlement(deps, { eshop_id: eshopId, job_id: jobId, actual_cost: actualCost });
  return { outcome: 'already_finished', widgets_created: job.widgetsCreated, actual_cost: actualCost };
}

async function research(deps: GenerationDeps, context: JobContext): Promise<ResearchPage[]> {
  if (!context.use_web_research || context.search_web.length === 0) return [];
  const result = await fetchResearch(context.search_web, deps.research);
  // Reasons only: the URLs are the host's data and may carry tokens in their query strings.
  if (result.refused.length > 0) {
    deps.logger.info({ refused: result.refused.map((r) => r.reason) }, 'research pages not read');
  }
  return result.pages;
}

/**
 * Runs one generation job row. Returns what happened; throws UnrecoverableError when the job
 * does not exist for that eshop, and lets database and Redis errors through (BullMQ retries).
 */
export async function runGeneration(
  deps: GenerationDeps,
  payload: JobPayloads['generate'],
): Promise<GenerationRunResult> {
  const { eshop_id: eshopId, job_id: jobId } = payload;
  const job = await generationJobsRepository.find(deps.db, eshopId, jobId);
  if (job === undefined)
    throw new UnrecoverableError(`generation job ${jobId} of eshop ${eshopId} not found`);
  if (isFinished(job)) return settleFinished(deps, eshopId, jobId);
  await generationJobsRepository.markRunning(deps.db, eshopId, jobId);

  const fail = (message: string, provider: string | null = null, usage: TokenUsage | null = null) =>
    failGeneration(deps, eshopId, jobId, { message, provider, usage });

  if (!CONTENT_TYPES.has(job.entityType)) return fail(`Unknown entity type "${job.entityType}".`);
  const design = await designsRepository.load(deps.db, eshopId, job.designId);
  if (design === undefined) return fail(`Design ${job.designId} is not available to this eshop.`);
  const eshop = await eshopsRepository.findById(deps.db, eshopId);
  if (eshop === undefined) throw new UnrecoverableError(`eshop ${eshopId} not found`);

  const context = readContext(job.context);
  const structure = designStructure(design.definition, {
    design_id: design.design.id,
    design_widget_ids: design.designWidgetIds,
    widgets: design.templates,
  });
  const pages = await research(deps, context);
  const generationContext: GenerationContext = {
    lang: job.lang,
    languages: eshop.languages,
    name: context.name,
    short_description: context.short_description,
    old_description: context.old_description,
    parameter: context.parameter,
    ean: context.ean,
    prompt: await promptText(deps.db, eshopId, context.prompt_id),
    paragraph_length: context.paragraph_length,
    research: pages,
  };

  let generated;
  try {
    generated = await deps.provider.generate({ structure, context: generationContext });
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    // The provider retried already; its messages carry no secrets.
    return fail(`Content generation failed: ${err.message}`, deps.provider.name, err.usage);
  }
  const { provider, usage } = generated;
  if (generated.widgets.length === 0) {
    return fail(
      'Nothing could be generated for this design from the context sent (name, descriptions, parameters, research).',
      provider,
      usage,
    );
  }
  const filled = fillDesign(
    structure,
    design.templates,
    { widget: inLanguage(generated.widgets, job.lang) },
    { htmlLanguage: job.lang },
  );
  if (!filled.ok) {
    return fail(
      `The generated content does not fit the design: ${fillProblems(filled.errors)}`,
      provider,
      usage,
    );
  }

  const actualCost = await deps.db.transaction(async (trx) => {
    const current = await generationJobsRepository.find(trx, eshopId, jobId, { lock: true });
    if (current === undefined || isFinished(current)) return null;
    await saveEditorContent(
      trx,
      {
        eshop,
        entityType: job.entityType as ContentEntityType,
        externalId: job.entityId,
        fallbackName: context.name,
      },
      (existing) =>
        context.remove_exist_widget || existing === undefined
          ? filled.tree
          : appendWidgets(existing, filled.tree, job.lang),
    );
    const cost = estimateGeneration(await creditsRepository.prices(trx), {
      widgets: filled.widgetsCreated,
      languages: 1,
      webResearchUrls: pages.length,
      serpContext: SERP_CONTEXT_PROVIDED && context.use_serp_context,
    }).total;
    // Never more than was reserved: the settlement charges at most that, and the row says the same.
    const charged = Math.min(cost, current.estimatedCost);
    await generationJobsRepository.finish(trx, eshopId, jobId, {
      status: 'done',
      widgetsCreated: filled.widgetsCreated,
      chargedCost: charged,
      provider,
      usage,
    });
    return charged;
  });
  if (actualCost === null) return settleFinished(deps, eshopId, jobId);
  await queueSettlement(deps, { eshop_id: eshopId, job_id: jobId, actual_cost: actualCost });
  deps.logger.info(
    {
      eshop_id: eshopId,
      job_id: jobId,
      provider,
      widgets_created: filled.widgetsCreated,
      research_pages: pages.length,
      actual_cost: actualCost,
      usage,
    },
    'generation done',
  );
  return { outcome: 'done', widgets_created: filled.widgetsCreated, actual_cost: actualCost };
}
