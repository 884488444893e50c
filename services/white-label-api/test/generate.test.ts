// POST /content/{entity_id}/type/{entity_type}/generate against the real Postgres and Redis:
// what is stored (job, snapshot, reservation), what is queued, and what is refused.
import { generationJobsRepository } from '@catalogue/db';
import { designId, fillableWidgets, generateService, MAX_URLS, PRICE } from './generate-helpers';

const svc = generateService('wl-generate');
const widgets = fillableWidgets('product-classic');

let counter = 0;
const nextEntity = () => `GEN-${process.pid}-${++counter}`;

describe('white-label-api: POST …/generate', () => {
  let classic: number;
  beforeAll(async () => {
    classic = await designId(svc.deps.db, 'product-classic');
  });

  const path = (entityId: string, type = 'product') => `/content/${entityId}/type/${type}/generate` as const;
  const reservedMetric = async () => (await svc.deps.creditMetrics.reserved.get()).values[0]?.value ?? 0;

  test('when the body is valid and credits suffice, then the job is pending, its context stored, its credits reserved and it is queued', async () => {
    const s = await svc.shop({ topUp: 100 });
    const entity = nextEntity();
    await s.register(entity);
    const metricBefore = await reservedMetric();

    const res = await s.call('POST', path(entity), {
      design_id: classic,
      lang: 'cs',
      name: 'Trail Runner 2',
      short_description: 'A light trail shoe.',
      old_description: '<p>Made for wet paths.</p>',
      parameter: 'Weight: 280 g',
      ean: '8590000000427',
      remove_exist_widget: true,
      paragraph_length: 300,
      search_model: ['google'],
      use_ai_profile: false,
    });

    expect(res.status).toBe(200);
    const job = res.body.data;
    expect(job).toEqual({
      id: expect.any(Number),
      status: 'pending',
      design_id: classic,
      lang: 'cs',
      widgets_created: 0,
      widgets_skipped: [],
      research_sources: [],
      research_refused: [],
      error_message: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const stored = await generationJobsRepository.find(svc.deps.db, s.id, job.id);
    expect(stored).toMatchObject({
      entityType: 'product',
      entityId: entity,
      status: 'pending',
      estimatedCost: widgets * PRICE.widget,
    });
    expect(stored!.context).toEqual({
      name: 'Trail Runner 2',
      images: [],
      short_description: 'A light trail shoe.',
      old_description: '<p>Made for wet paths.</p>',
      parameter: 'Weight: 280 g',
      ean: '8590000000427',
      paragraph_length: 300,
      remove_exist_widget: true,
      use_serp_context: false,
      use_web_research: false,
      search_web: [],
      search_model: ['google'],
      use_ai_profile: false,
    });
    expect(await s.ledger()).toEqual([
      { kind: 'topup', amount: 100, reserved_delta: 0, job_id: null },
      { kind: 'reservation', amount: 0, reserved_delta: widgets * PRICE.widget, job_id: job.id },
    ]);
    expect(await s.account()).toMatchObject({ balance: 100, reserved: widgets * PRICE.widget });
    const queued = await svc.deps.queues.generate.getJob(`generate-${job.id}`);
    expect(queued?.name).toBe('generate');
    expect(queued?.data).toEqual({ eshop_id: s.id, job_id: job.id });
    expect((await reservedMetric()) - metricBefore).toBe(widgets * PRICE.widget);
  });

  test('when research and search context are asked for, then the estimate adds each distinct URL and the context once', async () => {
    const s = await svc.shop({ topUp: 100 });
    const entity = nextEntity();
    await s.register(entity);

    const res = await s.call('POST', path(entity), {
      design_id: classic,
      use_web_research: true,
      use_serp_context: true,
      search_web: ['https://maker.test/a', 'https://maker.test/b', 'https://maker.test/a'],
    });

    expect(res.status).toBe(200);
    const expected = widgets * PRICE.widget + 2 * PRICE.url + PRICE.serp;
    const [reservation] = (await s.ledger()).filter((r) => r.kind === 'reservation');
    expect(reservation).toEqual({
      kind: 'reservation',
      amount: 0,
      reserved_delta: expected,
      job_id: res.body.data.id,
    });
    const [job] = await s.jobs();
    expect(job!.estimated_cost).toBe(expected);
    expect(job!.context.search_web).toEqual(['https://maker.test/a', 'https://maker.test/b']);
  });

  test('when fields are left out, then the entity title, the entity design, the prompt settings and the default language are used', async () => {
    const s = await svc.shop({ topUp: 100 });
    const entity = nextEntity();
    const registered = await s.register(entity, 'product', { default: 'Registered title', cs: 'Název' });
    const custom = await svc.deps.db('designs').where({ key: 'product-story' }).first<{ id: number }>('id');
    await svc.deps.db('wl_entities').where({ id: registered.entity.id }).update({ design_id: custom.id });
    const [prompt] = await svc.deps
      .db('prompts')
      .insert({
        eshop_id: s.id,
        name: 'Own',
        prompt: 'Be brief.',
        remove_exist_widget: true,
        use_web_research: true,
        search_web: JSON.stringify(['https://maker.test/p']),
      })
      .returning<{ id: number }[]>('id');

    const res = await s.call('POST', path(entity), { prompt_id: prompt!.id });

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ design_id: custom.id, lang: 'default' });
    const [job] = await s.jobs();
    expect(job!.context).toMatchObject({
      name: 'Registered title',
      prompt_id: prompt!.id,
      remove_exist_widget: true,
      use_web_research: true,
      search_web: ['https://maker.test/p'],
    });
    expect(job!.estimated_cost).toBe(fillableWidgets('product-story') * PRICE.widget + PRICE.url);
  });

  test('when the estimate exceeds the remaining credits, then 422 says what is required and what remains, and nothing is written or queued', async () => {
    const cost = widgets * PRICE.widget;
    // Covers one job and half of a second.
    const s = await svc.shop({ topUp: cost + cost / 2 });
    const first = nextEntity();
    const second = nextEntity();
    await s.register(first);
    await s.register(second);
    // The first job holds part of the balance: remaining = balance − reserved.
    expect((await s.call('POST', path(first), { design_id: classic })).status).toBe(200);
    const before = { jobs: await s.jobs(), ledger: await s.ledger(), account: await s.account() };
    const waiting = await svc.deps.queues.generate.getJobCounts('waiting', 'prioritized');

    const res = await s.call('POST', path(second), { design_id: classic });

    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: `This generation needs ${cost} credits; ${cost / 2} remain.`,
      required: cost,
      remaining: cost / 2,
      error: `This generation needs ${cost} credits; ${cost / 2} remain.`,
      code: 'credits_insufficient',
    });
    expect(await s.jobs()).toEqual(before.jobs);
    expect(await s.ledger()).toEqual(before.ledger);
    expect(await s.account()).toEqual(before.account);
    expect(await svc.deps.queues.generate.getJobCounts('waiting', 'prioritized')).toEqual(waiting);
  });

  test('when a job of the entity is still unfinished, then a second start answers 409 with that job', async () => {
    const s = await svc.shop({ topUp: 100 });
    const entity = nextEntity();
    await s.register(entity);
    const first = await s.call('POST', path(entity), { design_id: classic });

    const second = await s.call('POST', path(entity), { design_id: classic, lang: 'en' });

    expect(second.status).toBe(409);
    expect(second.body).toEqual({
      error: 'A generation is already running for this entity',
      code: 'generation_running',
      data: first.body.data,
    });
    expect(await s.jobs()).toHaveLength(1);
    expect((await s.ledger()).filter((r) => r.kind === 'reservation')).toHaveLength(1);
  });

  test('when the previous job of the entity has finished, then a new one can start', async () => {
    const s = await svc.shop({ topUp: 100 });
    const entity = nextEntity();
    await s.register(entity);
    const first = await s.call('POST', path(entity), { design_id: classic });
    await svc.deps.db.transaction((trx) =>
      generationJobsRepository.finish(trx, s.id, first.body.data.id, {
        status: 'failed',
        errorMessage: 'test',
        provider: null,
        usage: null,
      }),
    );

    const again = await s.call('POST', path(entity), { design_id: classic });

    expect(again.status).toBe(200);
    expect(again.body.data.id).not.toBe(first.body.data.id);
  });

  test('when two starts for one entity race, then exactly one job is created and reserved and the other gets 409', async () => {
    const s = await svc.shop({ topUp: 100 });
    const entity = nextEntity();
    await s.register(entity);

    const replies = await Promise.all(
      Array.from({ length: 6 }, () => s.call('POST', path(entity), { design_id: classic })),
    );

    expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const winner = replies.find((r) => r.status === 200)!.body.data;
    for (const loser of replies.filter((r) => r.status === 409)) expect(loser.body.data.id).toBe(winner.id);
    expect(await s.jobs()).toHaveLength(1);
    expect((await s.ledger()).filter((r) => r.kind === 'reservation')).toEqual([
      { kind: 'reservation', amount: 0, reserved_delta: widgets * PRICE.widget, job_id: winner.id },
    ]);
  });

  test('when jobs of different entities race for credits that cover one, then one is reserved and the rest get 422', async () => {
    const s = await svc.shop({ topUp: widgets * PRICE.widget });
    const entities = Array.from({ length: 5 }, nextEntity);
    for (const e of entities) await s.register(e);

    const replies = await Promise.all(entities.map((e) => s.call('POST', path(e), { design_id: classic })));

    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 422)).toHaveLength(4);
    expect(await s.jobs()).toHaveLength(1);
    expect(await s.account()).toMatchObject({ balance: widgets * PRICE.widget, remaining: 0 });
  });

  test('when the entity is not registered (or only for another eshop), then 404 and nothing is written', async () => {
    const a = await svc.shop({ topUp: 100 });
    const b = await svc.shop({ topUp: 100 });
    const entity = nextEntity();
    await a.register(entity);

    for (const [s, id] of [
      [a, nextEntity()],
      [b, entity],
    ] as const) {
      const res = await s.call('POST', path(id), { design_id: classic });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: `Entity product "${id}" is not registered`, code: 'not_found' });
    }
    expect(await a.call('POST', path(entity, 'category'), { design_id: classic })).toMatchObject({
      status: 404,
    });
    expect(await a.jobs()).toEqual([]);
    expect(await b.jobs()).toEqual([]);
    expect((await b.ledger()).map((r) => r.kind)).toEqual(['topup']);
  });

  test('when the eshop licence is not valid, then 403 and nothing is written', async () => {
    const s = await svc.shop({ topUp: 100, licenceValidUntil: '2020-01-01' });
    const entity = nextEntity();
    await s.register(entity);

    const res = await s.call('POST', path(entity), { design_id: classic });

    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: 'The white-label licence of this eshop is not valid',
      code: 'licence_invalid',
    });
    expect(await s.jobs()).toEqual([]);
  });

  test('when research URLs are over WEB_RESEARCH_MAX_URLS but research is off, then they are only stored', async () => {
    const s = await svc.shop({ topUp: 100 });
    const entity = nextEntity();
    await s.register(entity);
    const urls = Array.from({ length: MAX_URLS + 2 }, (_, i) => `https://maker.test/${i}`);

    const res = await s.call('POST', path(entity), { design_id: classic, search_web: urls });

    expect(res.status).toBe(200);
    const [job] = await s.jobs();
    expect(job!.estimated_cost).toBe(widgets * PRICE.widget);
    expect(job!.context.search_web).toEqual(urls);
  });
});
