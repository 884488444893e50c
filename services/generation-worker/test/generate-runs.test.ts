// The generate job's run with the builtin provider: stored content, settlement exactly once,
// redeliveries, tenancy, appending and replacing widgets, languages, prompts.
import type { ContentWidget } from '@catalogue/content';
import { catalogueRepository, creditsRepository } from '@catalogue/db';
import { settleJob } from '../../credit-service/src/services/settlement.service';
import { runGeneration, type GenerationDeps } from '../src/services/generate.service';
import {
  allIds,
  contentOf,
  createJob,
  deps,
  nextEntity,
  payload,
  reload,
  settlementsOf,
  shop,
  TOP_UP,
  unique,
  useGenerateDeps,
  widgetPrice,
} from './generate-fixtures';

useGenerateDeps('runs');

describe('runGeneration with the builtin provider', () => {
  test('when a job runs, then content is stored for every language, the job is done and a settlement is queued', async () => {
    const eshopId = await shop();
    // The shop writes its main language in English: a `default` job's benefit sentences are English.
    await deps.db('eshops').where({ id: eshopId }).update({ default_language: 'en' });
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
      (await deps.db('products').where({ eshop_id: eshopId, external_id: entityId }).first('updated_at'))!
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
    expect(row!.status).toBe('ready');
  });

  test("when the catalogue item has images and a page, then they fill the design's image and call to action, and the job says what it left out", async () => {
    const eshopId = await shop();
    const entityId = nextEntity();
    await deps.db.transaction((trx) =>
      catalogueRepository.upsert(trx, 'product', eshopId, [
        {
          externalId: entityId,
          isVisible: true,
          status: 'ready',
          fields: {
            name: { default: 'Catalogue name' },
            url: { default: 'https://shop.test/p', cs: 'https://shop.test/cs/p' },
            images: ['https://cdn.test/p1.jpg'],
          },
        },
      ]),
    );
    const { job } = await createJob({ eshopId, entityId, lang: 'cs', design: 'product-story' });

    await runGeneration(deps, payload(job));

    const done = await reload(job);
    expect(done.status).toBe('done');
    const html = (await contentOf(job))!.html.cs;
    expect(html).toContain('src="https://cdn.test/p1.jpg"');
    expect(html).toContain('href="https://shop.test/cs/p"');
    expect(done.widgetsSkipped.map((s) => [s.type, s.reason])).toEqual([
      ['testimonial', 'no_quotes'],
      ['faq', 'no_questions'],
    ]);
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

  test('when the research URLs were all refused and nothing could be written, then the failed job says which were refused and why', async () => {
    const eshopId = await shop();
    const { job } = await createJob({
      eshopId,
      context: {
        name: '',
        short_description: '',
        old_description: '',
        parameter: '',
        use_web_research: true,
        search_web: ['http://10.0.0.1/specs'],
      },
    });

    await runGeneration(deps, payload(job));

    const failed = await reload(job);
    expect(failed.status).toBe('failed');
    expect(failed.researchRefused).toEqual([
      { url: 'http://10.0.0.1/specs', reason: 'private address 10.0.0.1 refused' },
    ]);
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
