// Idempotency-Key on the generation start, against the real Postgres and Redis: a client that
// retries after a timeout is charged once (the credit ledger says so), a duplicate sent while
// the first request still runs gets 409, another body with the key gets 422.
import { creditsRepository, generationJobsRepository, idempotencyRepository } from '@catalogue/db';
import { eventually } from '@catalogue/testing';
import { designId, fillableWidgets, generateService, PRICE } from './generate-helpers';

const svc = generateService('wl-idempotency');
const widgets = fillableWidgets('product-classic');

let counter = 0;
const nextEntity = () => `IDEM-${process.pid}-${++counter}`;
const nextKey = () => `key-${process.pid}-${Date.now()}-${++counter}`;
const path = (entityId: string) => `/content/${entityId}/type/product/generate` as const;

describe('white-label-api: Idempotency-Key on POST …/generate', () => {
  let classic: number;
  beforeAll(async () => {
    classic = await designId(svc.deps.db, 'product-classic');
  });

  /** What the worker does when a job ends: the job done and its reservation charged. */
  async function finishAsTheWorkerWould(eshopId: number, jobId: number, cost: number) {
    await svc.deps.db.transaction(async (trx) => {
      await generationJobsRepository.finish(trx, eshopId, jobId, {
        status: 'done',
        widgetsCreated: widgets,
        chargedCost: cost,
        provider: 'builtin',
        usage: null,
      });
      await creditsRepository.lockAccount(trx, eshopId);
      await creditsRepository.settle(trx, eshopId, jobId, cost, cost);
    });
  }

  test('when a client retries a start after a timeout with the same key, then the first job is replayed and credits are charged once', async () => {
    // Arrange: the first start succeeded and its job finished (the builtin provider is quick),
    // but the client never saw the answer.
    const s = await svc.shop({ topUp: 100 });
    const entity = nextEntity();
    await s.register(entity);
    const key = nextKey();
    const body = { design_id: classic, lang: 'cs', name: 'Trail Runner' };
    const first = await s.send('POST', path(entity), body, { 'Idempotency-Key': key });
    expect(first.status).toBe(200);
    const cost = widgets * PRICE.widget;
    await finishAsTheWorkerWould(s.id, first.body.data.id, cost);

    // Act: the retry, as a careful client sends it (quoted sf-string this time).
    const retry = await s.send('POST', path(entity), body, { 'Idempotency-Key': `"${key}"` });

    // Assert: the first answer again, one job, one reservation, one charge.
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await s.jobs()).toHaveLength(1);
    expect(await s.ledger()).toEqual([
      { kind: 'topup', amount: 100, reserved_delta: 0, job_id: null },
      { kind: 'reservation', amount: 0, reserved_delta: cost, job_id: first.body.data.id },
      { kind: 'charge', amount: -cost, reserved_delta: -cost, job_id: first.body.data.id },
    ]);
    expect((await s.account()).remaining).toBe(100 - cost);

    // Without the key the same retry is a new generation, charged again: what the key prevents.
    const unkeyed = await s.call('POST', path(entity), body);
    expect(unkeyed.status).toBe(200);
    expect(unkeyed.body.data.id).not.toBe(first.body.data.id);
  });

  test('when a duplicate arrives while the first request is still running, then 409 idempotency_conflict and one job', async () => {
    // Arrange: hold the first request inside its reservation by locking the eshop's credit
    // account, so it has claimed the key but not finished.
    const s = await svc.shop({ topUp: 100 });
    const entity = nextEntity();
    await s.register(entity);
    const key = nextKey();
    const body = { design_id: classic, lang: 'cs' };
    const release = await new Promise<() => Promise<void>>((resolveHold) => {
      void svc.deps.db.transaction(async (trx) => {
        await trx('credit_accounts').where({ eshop_id: s.id }).forUpdate().select('eshop_id');
        await new Promise<void>((done) => resolveHold(async () => done()));
      });
    });
    const firstPending = s.send('POST', path(entity), body, { 'Idempotency-Key': key });
    await eventually(async () => {
      expect(await svc.deps.db('idempotency_keys').where({ eshop_id: s.id, key })).toHaveLength(1);
    });

    // Act
    const duplicate = await s.send('POST', path(entity), body, { 'Idempotency-Key': key });
    await release();
    const first = await firstPending;

    // Assert
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({
      error: 'A request with this Idempotency-Key is still being processed; retry later.',
      code: 'idempotency_conflict',
    });
    expect(duplicate.headers.get('retry-after')).toBe('1');
    expect(first.status).toBe(200);
    expect(await s.jobs()).toHaveLength(1);
    const reservations = (await s.ledger()).filter((row) => row.kind === 'reservation');
    expect(reservations).toHaveLength(1);
  });

  test('when the key is reused with another body, then 422 idempotency_key_reused and nothing is started', async () => {
    const s = await svc.shop({ topUp: 100 });
    const entity = nextEntity();
    await s.register(entity);
    const key = nextKey();
    const first = await s.send(
      'POST',
      path(entity),
      { design_id: classic, lang: 'cs' },
      { 'Idempotency-Key': key },
    );
    expect(first.status).toBe(200);

    const other = await s.send(
      'POST',
      path(entity),
      { design_id: classic, lang: 'en' },
      { 'Idempotency-Key': key },
    );

    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_key_reused');
    expect(await s.jobs()).toHaveLength(1);
  });

  test('when the first attempt was refused (no credits), then the key is free: the retry after a top-up runs', async () => {
    const s = await svc.shop({ topUp: 1 });
    const entity = nextEntity();
    await s.register(entity);
    const key = nextKey();
    const body = { design_id: classic, lang: 'cs' };
    const refused = await s.send('POST', path(entity), body, { 'Idempotency-Key': key });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('credits_insufficient');
    expect(refused.body.error).toBe(refused.body.message);

    await svc.deps.db.transaction((trx) => creditsRepository.topUp(trx, s.id, 100, 'top-up'));
    const retry = await s.send('POST', path(entity), body, { 'Idempotency-Key': key });

    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await s.jobs()).toHaveLength(1);
  });

  test('when another eshop uses the same key, then its request is its own', async () => {
    const a = await svc.shop({ topUp: 100 });
    const b = await svc.shop({ topUp: 100 });
    const entity = nextEntity();
    await a.register(entity);
    await b.register(entity);
    const key = nextKey();
    const body = { design_id: classic, lang: 'cs' };

    const asA = await a.send('POST', path(entity), body, { 'Idempotency-Key': key });
    const asB = await b.send('POST', path(entity), body, { 'Idempotency-Key': key });

    expect(asA.status).toBe(200);
    expect(asB.status).toBe(200);
    expect(asB.headers.get('idempotent-replayed')).toBeNull();
    expect(asB.body.data.id).not.toBe(asA.body.data.id);
    expect(await b.jobs()).toHaveLength(1);
  });

  test('when the process dies between the commit and the answer and a retry takes the key over, then the first job is answered and charged once', async () => {
    // Arrange: a crash after the job and its reservation committed: every write the request
    // would make after its handler fails (the process is gone), and the client sees no answer.
    const s = await svc.shop({ topUp: 100 });
    const entity = nextEntity();
    await s.register(entity);
    const key = nextKey();
    const body = { design_id: classic, lang: 'cs' };
    const dead = new Error('process killed');
    const completeInTransaction = idempotencyRepository.complete.bind(idempotencyRepository);
    const complete = jest.spyOn(idempotencyRepository, 'complete');
    const release = jest.spyOn(idempotencyRepository, 'release').mockRejectedValue(dead);
    complete.mockImplementation(async (db, ...rest) => {
      // Outside a transaction is "after the handler": the process no longer exists.
      if (!db.isTransaction) throw dead;
      return completeInTransaction(db, ...rest);
    });
    try {
      await s.send('POST', path(entity), body, { 'Idempotency-Key': key });
    } finally {
      complete.mockRestore();
      release.mockRestore();
    }
    const [job] = await s.jobs();
    const cost = widgets * PRICE.widget;
    await finishAsTheWorkerWould(s.id, job!.id, cost);
    // The lock's takeover time has passed (IDEMPOTENCY_LOCK_SECONDS).
    await svc.deps
      .db('idempotency_keys')
      .where({ eshop_id: s.id, key })
      .update({ locked_until: svc.deps.db.raw("now() - interval '1 second'") });

    // Act: the client's retry with the same key and body.
    const retry = await s.send('POST', path(entity), body, { 'Idempotency-Key': key });

    // Assert: the first job, replayed; one job, one reservation, one charge.
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.data.id).toBe(job!.id);
    expect(await s.jobs()).toHaveLength(1);
    expect(await s.ledger()).toEqual([
      { kind: 'topup', amount: 100, reserved_delta: 0, job_id: null },
      { kind: 'reservation', amount: 0, reserved_delta: cost, job_id: job!.id },
      { kind: 'charge', amount: -cost, reserved_delta: -cost, job_id: job!.id },
    ]);
  });
});
