// The generate job from a job row, as the white-label API will create it (snapshot, estimate,
// reservation), against the real database and Redis. The worker deps run on a queue prefix of
// their own, so settlement jobs can be inspected and no other test file's worker takes them.
import nock from 'nock';
import type { Worker } from 'bullmq';
import { loadDesign, structureOf as structureOfLoaded } from '@catalogue/content-store';
import { htmlToText, type ContentWidget, type DesignStructure } from '@catalogue/content';
import { estimateGeneration } from '@catalogue/credits';
import {
  catalogueRepository,
  contentRepository,
  creditsRepository,
  generationJobsRepository,
  wlEntitiesRepository,
  type GenerationJob,
  type WlEntityType,
} from '@catalogue/db';
import { closeWorkers, enqueue, type JobPayloads } from '@catalogue/queue';
import { eventually, makeEshop, testConfig } from '@catalogue/testing';
import { settleJob } from '../../credit-service/src/services/settlement.service';
import { buildDeps, closeDeps, providerOptions, type Deps } from '../src/deps';
import { startWorkers } from '../src/handlers';
import { instrumentProvider } from '../src/metrics';
import { createProvider } from '../src/providers';
import { runGeneration, type GenerationDeps } from '../src/services/generate.service';

const PREFIX = `${process.env.TEST_QUEUE_PREFIX}-generate`;
const LLM = 'https://llm.generate-test.example/v1';
const KEY = 'sk-test-generate-0123456789';
const TOP_UP = 1_000;

const CONTEXT = {
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

let deps: Deps;

beforeAll(() => {
  nock.disableNetConnect();
  nock.enableNetConnect(/127\.0\.0\.1|localhost/);
  deps = buildDeps(testConfig({ QUEUE_PREFIX: PREFIX }));
});
afterEach(() => nock.cleanAll());
afterAll(async () => {
  nock.enableNetConnect();
  await closeDeps(deps);
});

let entityCounter = 0;
const nextEntity = (): string => `GEN-${process.pid}-${++entityCounter}`;

async function designId(key: string): Promise<number> {
  const row = await deps.db('designs').where({ key }).first<{ id: number }>('id');
  return row.id;
}

async function structureOf(eshopId: number, id: number): Promise<DesignStructure> {
  return structureOfLoaded((await loadDesign(deps.db, eshopId, id))!);
}

interface JobSetup {
  eshopId: number;
  entityId?: string;
  entityType?: string;
  design?: string;
  lang?: string;
  context?: Partial<typeof CONTEXT> & Record<string, unknown>;
}

/** What the white-label generate endpoint does: estimate, create the job, reserve, one transaction. */
async function createJob(setup: JobSetup): Promise<{ job: GenerationJob; estimate: number }> {
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

async function shop(languages: Array<'default' | 'cs' | 'en'> = ['default', 'cs', 'en']): Promise<number> {
  const created = await makeEshop(deps.db, { languages });
  await deps.db.transaction((trx) => creditsRepository.topUp(trx, created.eshop.id, TOP_UP, 'test top-up'));
  return created.eshop.id;
}

const payload = (job: GenerationJob): JobPayloads['generate'] => ({ eshop_id: job.eshopId, job_id: job.id });

const reload = async (job: GenerationJob): Promise<GenerationJob> =>
  (await generationJobsRepository.find(deps.db, job.eshopId, job.id))!;

const contentOf = (job: GenerationJob) =>
  contentRepository.find(deps.db, {
    eshopId: job.eshopId,
    entityType: job.entityType as 'product',
    externalId: job.entityId,
  });

async function settlementsOf(jobId: number): Promise<Array<JobPayloads['credit-settlement']>> {
  const jobs = await deps.queues['credit-settlement'].getJobs(['waiting', 'delayed', 'active', 'completed']);
  return jobs.filter((j) => j?.data.job_id === jobId).map((j) => j.data);
}

async function widgetPrice(): Promise<number> {
  const prices = await creditsRepository.prices(deps.db);
  return prices.find((p) => p.operation === 'widget_generation')!.price;
}

function openAiDeps(overrides: { maxAttempts?: number } = {}): GenerationDeps {
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

const completion = (content: unknown, usage: object | null) => ({
  id: 'chatcmpl-gen',
  object: 'chat.completion',
  model: 'gpt-test-1',
  choices: [
    { index: 0, message: { role: 'assistant', content: JSON.stringify(content) }, finish_reason: 'stop' },
  ],
  ...(usage ? { usage } : {}),
});

const allIds = (tree: ContentWidget[]) => ({
  widgets: tree.map((w) => w.id),
  keys: tree.map((w) => w.key),
  elements: tree.flatMap((w) => w.children.map((e) => e.id)),
});
const unique = (values: number[]): boolean => new Set(values).size === values.length;

describe('runGeneration with the builtin provider', () => {
  test('when a job runs, then content is stored for every language, the job is done and a settlement is queued', async () => {
    const eshopId = await shop();
    const { job, estimate } = await createJob({ eshopId });

    const result = await runGeneration(deps, payload(job));

    const done = await reload(job);
    expect(done.status).toBe('done');
    expect(done.widgetsCreated).toBeGreaterThan(0);
    expect(done.errorMessage).toBeNull();
    expect(done.provider).toBe('builtin');
    expect(done.usage).toBeNull();
    const actual = done.widgetsCreated * (await widgetPrice());
    expect(done.chargedCost).toBe(actual);
    expect(actual).toBeLessThan(estimate);
    expect(result).toEqual({ outcome: 'done', widgets_created: done.widgetsCreated, actual_cost: actual });

    const content = (await contentOf(job))!;
    expect(content.origin).toBe('editor');
    expect(content.tree).toHaveLength(done.widgetsCreated);
    for (const lang of ['default', 'cs', 'en']) {
      expect(content.html[lang]).toContain('Trail Runner 2');
      expect(content.html[lang]).toContain('Drop');
    }
    // No catalogue product has this external id: the snippet is made of the context name.
    expect(content.rich_snippet.json.default).toMatchObject({ '@type': 'Product', name: 'Trail Runner 2' });

    expect(await settlementsOf(job.id)).toEqual([{ eshop_id: eshopId, job_id: job.id, actual_cost: actual }]);
  });

  test('when the settlement is processed, then exactly the charged cost leaves the balance and the rest is released', async () => {
    const eshopId = await shop();
    const { job, estimate } = await createJob({ eshopId });
    expect((await creditsRepository.getAccount(deps.db, eshopId)).reserved).toBe(estimate);

    await runGeneration(deps, payload(job));
    const [settlement] = await settlementsOf(job.id);
    const result = await settleJob(deps.db, settlement!);

    const charged = (await reload(job)).chargedCost!;
    expect(result).toEqual({ outcome: 'settled', charged, released: estimate - charged });
    expect(await creditsRepository.getAccount(deps.db, eshopId)).toMatchObject({
      balance: TOP_UP - charged,
      reserved: 0,
      remaining: TOP_UP - charged,
    });
  });

  test('when the same job runs twice, then the second run changes nothing and one settlement exists', async () => {
    const eshopId = await shop();
    const { job } = await createJob({ eshopId });
    await runGeneration(deps, payload(job));
    const first = await reload(job);
    const content = await contentOf(job);

    const again = await runGeneration(deps, payload(job));

    expect(again.outcome).toBe('already_finished');
    expect(await reload(job)).toEqual(first);
    expect(await contentOf(job)).toEqual(content);
    expect(await settlementsOf(job.id)).toHaveLength(1);
    const [settlement] = await settlementsOf(job.id);
    await settleJob(deps.db, settlement!);
    expect((await settleJob(deps.db, settlement!)).outcome).toBe('duplicate');
    expect((await creditsRepository.getAccount(deps.db, eshopId)).balance).toBe(TOP_UP - first.chargedCost!);
  });

  test('when the worker died after the commit but before queueing the settlement, then the redelivery queues it', async () => {
    const eshopId = await shop();
    const { job } = await createJob({ eshopId });
    await runGeneration(deps, payload(job));
    await (await deps.queues['credit-settlement'].getJob(`settle-${job.id}`))!.remove();
    expect(await settlementsOf(job.id)).toEqual([]);

    await runGeneration(deps, payload(job));

    const done = await reload(job);
    expect(await settlementsOf(job.id)).toEqual([
      { eshop_id: eshopId, job_id: job.id, actual_cost: done.chargedCost },
    ]);
  });

  test('when a job left running by a dead worker is delivered again, then it is finished once', async () => {
    const eshopId = await shop();
    const { job } = await createJob({ eshopId });
    await deps.db('generation_jobs').where({ id: job.id }).update({ status: 'running' });

    const result = await runGeneration(deps, payload(job));

    expect(result.outcome).toBe('done');
    expect((await reload(job)).status).toBe('done');
    expect(await settlementsOf(job.id)).toHaveLength(1);
  });

  test('when the payload names another eshop, then nothing happens to the job', async () => {
    const owner = await shop();
    const other = await shop();
    const { job } = await createJob({ eshopId: owner });

    await expect(runGeneration(deps, { eshop_id: other, job_id: job.id })).rejects.toMatchObject({
      name: 'UnrecoverableError',
    });

    expect((await reload(job)).status).toBe('pending');
    expect(await contentOf(job)).toBeUndefined();
    expect(await settlementsOf(job.id)).toEqual([]);
    expect((await creditsRepository.getAccount(deps.db, owner)).reserved).toBe(job.estimatedCost);
  });

  test('when remove_exist_widget is false, then the new widgets are appended with unique ids', async () => {
    const eshopId = await shop();
    const entityId = nextEntity();
    const first = (await createJob({ eshopId, entityId })).job;
    await runGeneration(deps, payload(first));
    const before = (await contentOf(first))!.tree as ContentWidget[];

    const second = (
      await createJob({
        eshopId,
        entityId,
        context: { name: 'Trail Runner 3', short_description: 'Now with a wider toe box.' },
      })
    ).job;
    await runGeneration(deps, payload(second));

    const after = (await contentOf(second))!;
    const tree = after.tree as ContentWidget[];
    const added = (await reload(second)).widgetsCreated;
    expect(tree).toHaveLength(before.length + added);
    expect(tree.slice(0, before.length)).toEqual(before);
    const ids = allIds(tree);
    expect(unique(ids.widgets)).toBe(true);
    expect(unique(ids.keys)).toBe(true);
    expect(unique(ids.elements)).toBe(true);
    expect(after.html.default).toContain('Trail Runner 2');
    expect(after.html.default).toContain('Trail Runner 3');
    for (const widget of tree.slice(before.length)) {
      expect(widget.html).toContain(`data-widget-id="${widget.id}"`);
    }
  });

  test('when remove_exist_widget is true, then the new widgets replace the content', async () => {
    const eshopId = await shop();
    const entityId = nextEntity();
    await runGeneration(deps, payload((await createJob({ eshopId, entityId })).job));

    const second = (
      await createJob({
        eshopId,
        entityId,
        context: { name: 'Only this one', remove_exist_widget: true },
      })
    ).job;
    await runGeneration(deps, payload(second));

    const content = (await contentOf(second))!;
    expect(content.tree).toHaveLength((await reload(second)).widgetsCreated);
    expect(content.html.default).toContain('Only this one');
    expect(content.html.default).not.toContain('Trail Runner 2');
  });

  test('when the job language is cs, then the texts are stored and rendered in cs', async () => {
    const eshopId = await shop();
    const { job } = await createJob({ eshopId, lang: 'cs', context: { name: 'Trailová bota' } });

    await runGeneration(deps, payload(job));

    const content = (await contentOf(job))!;
    const tree = content.tree as ContentWidget[];
    const values = tree.flatMap((w) => w.children.map((e) => Object.keys(e.value))).flat();
    expect(new Set(values)).toEqual(new Set(['cs']));
    expect(content.html.cs).toContain('Trailová bota');
  });

  test('when a catalogue product has the external id, then its updated_at moves and the snippet comes from it', async () => {
    const eshopId = await shop();
    const entityId = nextEntity();
    await deps.db.transaction((trx) =>
      catalogueRepository.upsert(trx, 'product', eshopId, [
        {
          externalId: entityId,
          isVisible: true,
          status: 'ready',
          fields: { name: { default: 'Catalogue name' }, url: { default: 'https://shop.test/p' } },
        },
      ]),
    );
    const stamp = async () =>
      (await deps.db('products').where({ eshop_id: eshopId, external_id: entityId }).first('updated_at'))
        .updated_at as Date;
    const before = await stamp();
    const { job } = await createJob({ eshopId, entityId });

    await runGeneration(deps, payload(job));

    expect((await stamp()).getTime()).toBeGreaterThan(before.getTime());
    const content = (await contentOf(job))!;
    expect(content.rich_snippet.json.default).toMatchObject({
      name: 'Catalogue name',
      url: 'https://shop.test/p',
    });
    const row = await deps.db('products').where({ eshop_id: eshopId, external_id: entityId }).first('status');
    expect(row.status).toBe('ready');
  });

  test('when the design is not available to the eshop, then the job fails and everything is released', async () => {
    const eshopId = await shop();
    const { job } = await createJob({ eshopId });
    // A public design withdrawn after the job started (another eshop's custom design cannot be
    // named at all: the database refuses it, see libs/db/test/tenant-references.test.ts).
    const [custom] = await deps
      .db('designs')
      .insert({
        name: 'Withdrawn',
        category: 'product',
        type: 'public',
        is_visible: false,
        hash: 'x'.repeat(64),
      })
      .returning<{ id: number }[]>('id');
    await deps.db('generation_jobs').where({ id: job.id }).update({ design_id: custom!.id });

    const result = await runGeneration(deps, payload(job));

    expect(result.outcome).toBe('failed');
    const failed = await reload(job);
    expect(failed).toMatchObject({ status: 'failed', chargedCost: 0, widgetsCreated: 0 });
    expect(failed.errorMessage).toContain(`Design ${custom!.id} is not available`);
    expect(await settlementsOf(job.id)).toEqual([{ eshop_id: eshopId, job_id: job.id, actual_cost: 0 }]);
  });

  test('when the context gives nothing to write, then the job fails instead of wiping content', async () => {
    const eshopId = await shop();
    const { job } = await createJob({
      eshopId,
      context: {
        name: '',
        short_description: '',
        old_description: '',
        parameter: '',
        remove_exist_widget: true,
      },
    });

    await runGeneration(deps, payload(job));

    const failed = await reload(job);
    expect(failed.status).toBe('failed');
    expect(failed.errorMessage).toMatch(/^Nothing could be generated/);
    expect(await contentOf(job)).toBeUndefined();
    expect(await settlementsOf(job.id)).toEqual([{ eshop_id: eshopId, job_id: job.id, actual_cost: 0 }]);
  });

  test("when the prompt is the eshop's own or global, then the provider gets its text; another eshop's prompt is ignored", async () => {
    const eshopId = await shop();
    const other = await shop();
    const [mine] = await deps
      .db('prompts')
      .insert({ eshop_id: eshopId, name: 'Mine', prompt: 'Write like a mountain guide.' })
      .returning<{ id: number }[]>('id');
    const [theirs] = await deps
      .db('prompts')
      .insert({ eshop_id: other, name: 'Theirs', prompt: 'Secret instructions of another shop.' })
      .returning<{ id: number }[]>('id');
    const seen: Array<string | undefined> = [];
    const spy: GenerationDeps = {
      ...deps,
      provider: {
        name: 'builtin',
        generate: (req, signal) => {
          seen.push(req.context.prompt);
          return deps.provider.generate(req, signal);
        },
      },
    };

    const global = await deps
      .db('prompts')
      .whereNull('eshop_id')
      .orderBy('id')
      .first<{ id: number; prompt: string }>();

    for (const promptId of [mine!.id, theirs!.id, global.id]) {
      await runGeneration(spy, payload((await createJob({ eshopId, context: { prompt_id: promptId } })).job));
    }

    expect(seen).toEqual(['Write like a mountain guide.', undefined, global.prompt]);
  });
});

describe('runGeneration with web research', () => {
  const PAGE = `<html><body><nav>Menu</nav><h1>Trail Runner 2</h1>
    <h3>Is the Trail Runner 2 waterproof?</h3><p>No, it drains water instead of keeping it out.</p>
    <h3>How long does the sole last?</h3><p>About 800 km of trail running.</p></body></html>`;

  test('when use_web_research is on, then allowed pages are read into the context and charged per page read', async () => {
    const eshopId = await shop();
    const scope = nock('https://maker.generate-test.example')
      .get('/trail-runner-2')
      .reply(200, PAGE, { 'Content-Type': 'text/html; charset=utf-8' });
    // Only this host resolves (to a public address); loopback stays refused.
    const researching: GenerationDeps = {
      ...deps,
      research: {
        ...deps.research,
        allowLoopback: false,
        lookup: async (host) => (host === 'maker.generate-test.example' ? ['93.184.215.14'] : []),
      },
    };
    const { job, estimate } = await createJob({
      eshopId,
      design: 'product-story',
      context: {
        use_web_research: true,
        search_web: ['https://maker.generate-test.example/trail-runner-2', 'http://127.0.0.1:9/private'],
      },
    });

    await runGeneration(researching, payload(job));

    expect(scope.isDone()).toBe(true);
    const done = await reload(job);
    expect(done.status).toBe('done');
    const prices = await creditsRepository.prices(deps.db);
    const expected = estimateGeneration(prices, {
      widgets: done.widgetsCreated,
      languages: 1,
      webResearchUrls: 1,
      serpContext: false,
    }).total;
    expect(done.chargedCost).toBe(expected);
    expect(expected).toBeLessThanOrEqual(estimate);
    const html = (await contentOf(job))!.html.default!;
    expect(htmlToText(html)).toContain('Is the Trail Runner 2 waterproof?');
    expect(htmlToText(html)).toContain('About 800 km of trail running.');
    expect(await settlementsOf(job.id)).toEqual([
      { eshop_id: eshopId, job_id: job.id, actual_cost: expected },
    ]);
  });
});

describe('runGeneration with the openai provider', () => {
  const USAGE = { prompt_tokens: 321, completion_tokens: 123, total_tokens: 444 };

  test('when the endpoint answers, then the widgets are stored and the token usage is recorded on the job', async () => {
    const eshopId = await shop();
    const { job } = await createJob({ eshopId });
    const structure = await structureOf(eshopId, job.designId);
    const [section, , benefit] = structure.widget;
    const answer = {
      widgets: [
        {
          design_widget_id: section!.design_widget_id,
          fields: { heading: 'Grip on wet rock', paragraph: '<p>Trail Runner 2 drains water fast.</p>' },
        },
        {
          design_widget_id: benefit!.design_widget_id,
          fields: { heading: 'Why runners pick it' },
          items: [{ benefit_title: 'Light', benefit_text: '280 g per shoe' }],
        },
      ],
    };
    let auth: string | undefined;
    const scope = nock(LLM)
      .post('/chat/completions')
      .reply(function () {
        auth = this.req.headers.authorization as string | undefined;
        return [200, completion(answer, USAGE)];
      });

    await runGeneration(openAiDeps(), payload(job));

    expect(scope.isDone()).toBe(true);
    expect(auth).toBe(`Bearer ${KEY}`);
    const done = await reload(job);
    expect(done).toMatchObject({ status: 'done', widgetsCreated: 2, provider: 'openai', usage: USAGE });
    expect(done.chargedCost).toBe(2 * (await widgetPrice()));
    const html = (await contentOf(job))!.html;
    for (const lang of ['default', 'cs', 'en']) expect(html[lang]).toContain('Grip on wet rock');
    expect(await settlementsOf(job.id)).toEqual([
      { eshop_id: eshopId, job_id: job.id, actual_cost: done.chargedCost },
    ]);
  });

  test('when the endpoint keeps failing with 500, then the job fails without secrets and everything is released', async () => {
    const eshopId = await shop();
    const { job, estimate } = await createJob({ eshopId });
    const scope = nock(LLM)
      .post('/chat/completions')
      .times(2)
      .reply(500, { error: { message: `upstream broke while using ${KEY}` } });
    const errorsBefore = await providerErrors('server');

    const result = await runGeneration(openAiDeps({ maxAttempts: 2 }), payload(job));

    expect(scope.isDone()).toBe(true);
    expect(result.outcome).toBe('failed');
    const failed = await reload(job);
    expect(failed).toMatchObject({ status: 'failed', widgetsCreated: 0, chargedCost: 0, provider: 'openai' });
    expect(failed.errorMessage).toContain('HTTP 500');
    expect(failed.errorMessage).not.toContain(KEY);
    expect(await contentOf(job)).toBeUndefined();
    expect(await providerErrors('server')).toBe(errorsBefore + 1);

    const [settlement] = await settlementsOf(job.id);
    expect(settlement).toEqual({ eshop_id: eshopId, job_id: job.id, actual_cost: 0 });
    expect(await settleJob(deps.db, settlement!)).toEqual({
      outcome: 'settled',
      charged: 0,
      released: estimate,
    });
    expect(await creditsRepository.getAccount(deps.db, eshopId)).toMatchObject({
      balance: TOP_UP,
      reserved: 0,
    });
  });

  async function providerErrors(kind: string): Promise<number> {
    const metric = await deps.registry.getSingleMetric('generation_provider_errors_total')!.get();
    return metric.values.find((v) => v.labels.provider === 'openai' && v.labels.kind === kind)?.value ?? 0;
  }

  test('when the configuration selects openai, then the worker builds that provider with the key', () => {
    const options = providerOptions(
      testConfig({ GENERATION_PROVIDER: 'openai', OPENAI_API_KEY: KEY, OPENAI_BASE_URL: LLM }),
    );
    expect(options).toEqual({
      provider: 'openai',
      openai: expect.objectContaining({ baseUrl: LLM, apiKey: KEY, model: 'gpt-4o-mini', maxAttempts: 4 }),
    });
    expect(providerOptions(testConfig())).toEqual({ provider: 'builtin' });
  });
});

describe('the generate queue', () => {
  let workers: Worker[];

  beforeAll(() => {
    workers = startWorkers(deps, ['generate']);
  });
  afterAll(async () => {
    await closeWorkers(workers);
  });

  test('when a generate job is queued, then a real worker runs it to done and queues the settlement', async () => {
    const eshopId = await shop();
    const { job } = await createJob({ eshopId });

    const id = await enqueue(deps.queues, 'generate', payload(job));

    await eventually(async () => expect((await reload(job)).status).toBe('done'), 15_000);
    await eventually(async () => expect(await deps.queues.generate.getJobState(id!)).toBe('completed'));
    const done = await reload(job);
    expect(await settlementsOf(job.id)).toEqual([
      { eshop_id: eshopId, job_id: job.id, actual_cost: done.chargedCost },
    ]);
  });

  test('when the job row belongs to another eshop, then the BullMQ job fails at once without retries', async () => {
    const owner = await shop();
    const other = await shop();
    const { job } = await createJob({ eshopId: owner });

    const id = await enqueue(deps.queues, 'generate', { eshop_id: other, job_id: job.id });

    await eventually(async () => expect(await deps.queues.generate.getJobState(id!)).toBe('failed'), 15_000);
    const bull = await deps.queues.generate.getJob(id!);
    expect(bull!.attemptsMade).toBe(1);
    expect((await reload(job)).status).toBe('pending');
  });
});
