// Shared arrangement of the generate tests: the job rows as the white-label API creates them
// (snapshot, estimate, reservation) against the real database and Redis, and readers of what a
// run stored. Each test file runs the worker deps on a queue prefix of its own
// (`useGenerateDeps('<file>')`), so settlement jobs can be inspected, no other test file's
// worker takes them, and the files can run at once.
import nock from 'nock';
import { loadDesign, structureOf as structureOfLoaded } from '@catalogue/content-store';
import type { ContentWidget, DesignStructure } from '@catalogue/content';
import { estimateGeneration } from '@catalogue/credits';
import {
  contentRepository,
  creditsRepository,
  generationJobsRepository,
  wlEntitiesRepository,
  type GenerationJob,
  type WlEntityType,
} from '@catalogue/db';
import type { GeneratePayload, JobPayloads } from '@catalogue/queue';
import { makeEshop, testConfig } from '@catalogue/testing';
import { buildDeps, closeDeps, type Deps } from '../src/deps';
import { instrumentProvider } from '../src/metrics';
import { createProvider } from '../src/providers';
import type { GenerationDeps } from '../src/services/generate.service';

export const LLM = 'https://llm.generate-test.example/v1';
export const KEY = 'sk-test-generate-0123456789';
export const TOP_UP = 1_000;

export const CONTEXT = {
  name: 'Trail Runner 2',
  short_description: 'A light trail shoe with a grippy sole. It drains water fast.',
  old_description: '<p>Made for wet mountain paths.</p><p>Weighs 280 g per shoe.</p>',
  parameter: 'Weight: 280 g\nDrop: 6 mm\nUpper: recycled mesh',
  ean: '8590000000427',
  remove_exist_widget: false,
  use_serp_context: false,
  use_web_research: false,
  search_web: [] as string[],
  paragraph_length: 0,
};

export let deps: Deps;

/** The worker deps of a test file, on a queue prefix of its own; outside HTTP only through nock. */
export function useGenerateDeps(file: string): void {
  beforeAll(() => {
    nock.disableNetConnect();
    nock.enableNetConnect(/127\.0\.0\.1|localhost/);
    deps = buildDeps(testConfig({ QUEUE_PREFIX: `${testConfig().redis.queuePrefix}-generate-${file}` }));
  });
  afterEach(() => nock.cleanAll());
  afterAll(async () => {
    nock.enableNetConnect();
    nock.restore(); // node:http back for the next file of this jest worker (providers-fixtures.ts)
    await closeDeps(deps);
  });
}

let entityCounter = 0;
export const nextEntity = (): string => `GEN-${process.pid}-${++entityCounter}`;

export async function designId(key: string): Promise<number> {
  const row = await deps.db('designs').where({ key }).first<{ id: number }>('id');
  return row.id;
}

export async function structureOf(eshopId: number, id: number): Promise<DesignStructure> {
  return structureOfLoaded((await loadDesign(deps.db, eshopId, id))!);
}

export interface JobSetup {
  eshopId: number;
  entityId?: string;
  entityType?: string;
  design?: string;
  lang?: string;
  context?: Partial<typeof CONTEXT> & Record<string, unknown>;
}

/** What the white-label generate endpoint does: estimate, create the job, reserve, one transaction. */
export async function createJob(setup: JobSetup): Promise<{ job: GenerationJob; estimate: number }> {
  const id = await designId(setup.design ?? 'product-classic');
  const structure = await structureOf(setup.eshopId, id);
  const context = { ...CONTEXT, ...setup.context };
  const prices = await creditsRepository.prices(deps.db);
  const estimate = estimateGeneration(prices, {
    widgets: structure.widget.filter((w) => w.fillable).length,
    languages: 1,
    webResearchUrls: context.use_web_research ? context.search_web.length : 0,
    serpContext: context.use_serp_context,
  }).total;
  const entityType = (setup.entityType ?? 'product') as WlEntityType;
  const entityId = setup.entityId ?? nextEntity();
  const job = await deps.db.transaction(async (trx) => {
    // Jobs exist only for entities the eshop registered (a foreign key says so).
    await wlEntitiesRepository.upsert(trx, setup.eshopId, {
      entityId,
      type: entityType,
      oldDescription: {},
      title: {},
    });
    const created = await generationJobsRepository.create(trx, setup.eshopId, {
      entityType,
      entityId,
      designId: id,
      lang: setup.lang ?? 'default',
      context,
      estimatedCost: estimate,
    });
    const reserved = await creditsRepository.reserve(trx, setup.eshopId, created.id, estimate);
    expect(reserved.ok).toBe(true);
    return created;
  });
  return { job, estimate };
}

export async function shop(
  languages: Array<'default' | 'cs' | 'en'> = ['default', 'cs', 'en'],
): Promise<number> {
  const created = await makeEshop(deps.db, { languages });
  await deps.db.transaction((trx) => creditsRepository.topUp(trx, created.eshop.id, TOP_UP, 'test top-up'));
  return created.eshop.id;
}

export const payload = (job: GenerationJob): GeneratePayload => ({
  eshop_id: job.eshopId,
  job_id: job.id,
});

export const reload = async (job: GenerationJob): Promise<GenerationJob> =>
  (await generationJobsRepository.find(deps.db, job.eshopId, job.id))!;

export const contentOf = (job: GenerationJob) =>
  contentRepository.find(deps.db, {
    eshopId: job.eshopId,
    entityType: job.entityType as 'product',
    externalId: job.entityId,
  });

export async function settlementsOf(jobId: number): Promise<Array<JobPayloads['credit-settlement']>> {
  const jobs = await deps.queues['credit-settlement'].getJobs([
    'waiting',
    'prioritized',
    'delayed',
    'active',
    'completed',
  ]);
  return jobs.filter((j) => j?.data.job_id === jobId).map((j) => j.data);
}

export async function widgetPrice(): Promise<number> {
  const prices = await creditsRepository.prices(deps.db);
  return prices.find((p) => p.operation === 'widget_generation')!.price;
}

export function openAiDeps(overrides: { maxAttempts?: number } = {}): GenerationDeps {
  const provider = createProvider({
    provider: 'openai',
    openai: {
      baseUrl: LLM,
      apiKey: KEY,
      model: 'gpt-test',
      timeoutMs: 2_000,
      maxAttempts: overrides.maxAttempts ?? 2,
      backoffMs: 1,
    },
  });
  return { ...deps, provider: instrumentProvider(provider, deps.providerMetrics) };
}

export const completion = (content: unknown, usage: object | null) => ({
  id: 'chatcmpl-gen',
  object: 'chat.completion',
  model: 'gpt-test-1',
  choices: [
    { index: 0, message: { role: 'assistant', content: JSON.stringify(content) }, finish_reason: 'stop' },
  ],
  ...(usage ? { usage } : {}),
});

export const allIds = (tree: ContentWidget[]) => ({
  widgets: tree.map((w) => w.id),
  keys: tree.map((w) => w.key),
  elements: tree.flatMap((w) => w.children.map((e) => e.id)),
});
export const unique = (values: number[]): boolean => new Set(values).size === values.length;
