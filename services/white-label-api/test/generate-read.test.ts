// Resuming and polling generation jobs (GET …/generate, GET generate/{id}), tenancy with
// guessed ids, and a start whose job cannot be queued.
import { generationJobsRepository } from '@catalogue/db';
import { designId, generateService } from './generate-helpers';

const svc = generateService('wl-generate-read');

let counter = 0;
const nextEntity = () => `READ-${process.pid}-${++counter}`;

describe('white-label-api: GET …/generate and GET generate/{id}', () => {
  let classic: number;
  beforeAll(async () => {
    classic = await designId(svc.deps.db, 'product-classic');
  });

  const path = (entityId: string, type = 'product') => `/content/${entityId}/type/${type}/generate` as const;

  async function started() {
    const s = await svc.shop({ topUp: 100 });
    const entity = nextEntity();
    await s.register(entity);
    const res = await s.call('POST', path(entity), { design_id: classic, lang: 'en' });
    expect(res.status).toBe(200);
    return { s, entity, job: res.body.data };
  }

  test('when a job of the entity is pending, then GET …/generate returns it', async () => {
    const { s, entity, job } = await started();

    const res = await s.call('GET', path(entity));

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: job });
  });

  test('when the job runs, then GET …/generate and GET generate/{id} show it running', async () => {
    const { s, entity, job } = await started();
    await generationJobsRepository.markRunning(svc.deps.db, s.id, job.id);

    const running = await s.call('GET', path(entity));
    const polled = await s.call('GET', `/generate/${job.id}`);

    expect(running.body.data).toMatchObject({ id: job.id, status: 'running' });
    expect(polled.body).toEqual(running.body);
  });

  test('when the job has finished, then GET …/generate is 404 and GET generate/{id} shows the outcome', async () => {
    const { s, entity, job } = await started();
    await svc.deps.db.transaction((trx) =>
      generationJobsRepository.finish(trx, s.id, job.id, {
        status: 'done',
        widgetsCreated: 3,
        chargedCost: 6,
        provider: 'builtin',
        usage: null,
      }),
    );

    const resume = await s.call('GET', path(entity));
    const polled = await s.call('GET', `/generate/${job.id}`);

    expect(resume.status).toBe(404);
    expect(resume.body).toEqual({
      error: `No generation is running for product "${entity}"`,
      code: 'not_found',
    });
    expect(polled.status).toBe(200);
    expect(polled.body.data).toMatchObject({
      id: job.id,
      status: 'done',
      widgets_created: 3,
      error_message: null,
    });
  });

  test('when a job failed, then GET generate/{id} carries its error message', async () => {
    const { s, job } = await started();
    await svc.deps.db.transaction((trx) =>
      generationJobsRepository.finish(trx, s.id, job.id, {
        status: 'failed',
        errorMessage: 'Content generation failed: timeout',
        provider: 'openai',
        usage: null,
      }),
    );

    const polled = await s.call('GET', `/generate/${job.id}`);

    expect(polled.body.data).toMatchObject({
      status: 'failed',
      error_message: 'Content generation failed: timeout',
    });
  });

  test('when nothing was ever started, or the entity is not registered, then GET …/generate is 404', async () => {
    const s = await svc.shop();
    const entity = nextEntity();
    await s.register(entity);

    expect(await s.call('GET', path(entity))).toEqual({
      status: 404,
      body: { error: `No generation is running for product "${entity}"`, code: 'not_found' },
    });
    expect(await s.call('GET', path('never-registered', 'blog'))).toEqual({
      status: 404,
      body: { error: 'Entity blog "never-registered" is not registered', code: 'not_found' },
    });
  });

  test('when another eshop asks for a job by id or by entity, even guessing ids, then 404 and the job is unchanged', async () => {
    const { s: owner, entity, job } = await started();
    const intruder = await svc.shop({ topUp: 100 });
    await intruder.register(entity);

    for (const id of [job.id, job.id - 1, job.id + 1]) {
      const res = await intruder.call('GET', `/generate/${id}`);
      expect(res).toEqual({ status: 404, body: { error: 'Generation job not found', code: 'not_found' } });
    }
    expect(await intruder.call('GET', path(entity))).toMatchObject({ status: 404 });
    expect((await owner.call('GET', `/generate/${job.id}`)).body).toEqual({ data: job });
  });

  test('when the id is not a positive integer, then 422', async () => {
    const s = await svc.shop();

    for (const id of ['abc', '0', '1.5', '99999999999']) {
      const res = await s.call('GET', `/generate/${id}`);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors ?? {})).toEqual(['generate_id']);
    }
  });

  test('when the licence is not valid, then reading jobs is 403', async () => {
    const s = await svc.shop({ licenceValidUntil: null });

    expect(await s.call('GET', '/generate/1')).toMatchObject({ status: 403 });
  });
});
