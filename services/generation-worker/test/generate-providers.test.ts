// The generate job with web research and with the OpenAI-compatible provider (faked with nock).
import nock from 'nock';
import { htmlToText } from '@catalogue/content';
import { estimateGeneration } from '@catalogue/credits';
import { creditsRepository } from '@catalogue/db';
import { testConfig } from '@catalogue/testing';
import { settleJob } from '../../credit-service/src/services/settlement.service';
import { providerOptions } from '../src/deps';
import { runGeneration, type GenerationDeps } from '../src/services/generate.service';
import {
  completion,
  contentOf,
  createJob,
  deps,
  KEY,
  LLM,
  openAiDeps,
  payload,
  reload,
  settlementsOf,
  shop,
  structureOf,
  TOP_UP,
  useGenerateDeps,
  widgetPrice,
} from './generate-fixtures';

useGenerateDeps('providers');

describe('runGeneration with web research', () => {
  const PAGE = `<html><body><nav>Menu</nav><h1>Trail Runner 2</h1>
    <h3>Is the Trail Runner 2 waterproof?</h3><p>No, it drains water instead of keeping it out.</p>
    <h3>How long does the sole last?</h3><p>About 800 km of trail running.</p></body></html>`;

  test('when use_web_research is on, then allowed pages are read into the context, charged per page read, and the job says which URLs were refused and why', async () => {
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
        search_web: [
          'https://maker.generate-test.example/trail-runner-2',
          'http://127.0.0.1:9/private',
          'https://maker.generate-test.example/a\tb',
        ],
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
    // The FAQ's source is on the job (design product-story: the FAQ is its 4th widget).
    const faq = (await structureOf(eshopId, job.designId)).widget.find((w) => w.type === 'faq')!;
    expect(done.researchSources).toEqual([
      { url: 'https://maker.generate-test.example/trail-runner-2', design_widget_id: faq.design_widget_id },
    ]);
    expect(done.researchRefused).toEqual([
      { url: 'http://127.0.0.1:9/private', reason: 'loopback address 127.0.0.1 refused' },
      { url: 'https://maker.generate-test.example/a\tb', reason: 'control character in URL not allowed' },
    ]);
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

  test('when the endpoint twice answers outside the schema, then the job fails as malformed with the tokens recorded and everything is released', async () => {
    const eshopId = await shop();
    const { job } = await createJob({ eshopId });
    const scope = nock(LLM)
      .post('/chat/completions')
      .times(2)
      .reply(200, completion({ widgets: [{ design_widget_id: 'first', fields: ['Grip'] }] }, USAGE));
    const errorsBefore = await providerErrors('malformed');

    const result = await runGeneration(openAiDeps({ maxAttempts: 4 }), payload(job));

    expect(scope.isDone()).toBe(true);
    expect(result.outcome).toBe('failed');
    const failed = await reload(job);
    expect(failed).toMatchObject({ status: 'failed', widgetsCreated: 0, chargedCost: 0, provider: 'openai' });
    expect(failed.errorMessage).toContain(
      'malformed answer: answer.widgets[0].design_widget_id is not an integer',
    );
    expect(failed.usage).toEqual({ prompt_tokens: 642, completion_tokens: 246, total_tokens: 888 });
    expect(await contentOf(job)).toBeUndefined();
    expect(await providerErrors('malformed')).toBe(errorsBefore + 1);
    expect(await settlementsOf(job.id)).toEqual([{ eshop_id: eshopId, job_id: job.id, actual_cost: 0 }]);
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

  test('when the configuration names an Azure api-version, then the worker builds the provider for Azure OpenAI', () => {
    const options = providerOptions(
      testConfig({
        GENERATION_PROVIDER: 'openai',
        OPENAI_API_KEY: KEY,
        OPENAI_BASE_URL: 'https://shop.openai.azure.com/openai',
        OPENAI_MODEL: 'content-gpt',
        OPENAI_API_VERSION: '2024-10-21',
      }),
    );
    expect(options.openai).toMatchObject({ model: 'content-gpt', apiVersion: '2024-10-21' });
  });
});
