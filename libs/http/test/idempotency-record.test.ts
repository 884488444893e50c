// The Idempotency-Key outcome recorded inside the handler's own transaction: it commits with the
// write, and an attempt whose key was taken over (its lock expired while it ran) cannot record:
// 409 idempotency_conflict, and its write rolls back with the refused outcome.
import { createKnex, type Knex } from '@catalogue/db';
import { createLogger } from '@catalogue/logger';
import { idempotent, Router, type AppContext, type AppState } from '@catalogue/http';
import { makeEshop, testConfig } from '@catalogue/testing';
import { serve, type TestServer } from './helpers';

describe('idempotent(): recording the outcome in the write transaction', () => {
  let db: Knex;
  let server: TestServer;
  let eshopId: number;
  /** Run inside the handler's transaction before it records: simulates a takeover. */
  let beforeRecord: (trx: Knex, key: string) => Promise<void> = async () => undefined;

  beforeAll(async () => {
    db = createKnex(testConfig().database);
    eshopId = (await makeEshop(db)).eshop.id;
    await db.schema.dropTableIfExists('idempotency_record_probe');
    await db.schema.createTable('idempotency_record_probe', (t) => {
      t.increments('id');
      t.integer('eshop_id').notNullable();
    });
    const logger = createLogger({ service: 'test', level: 'silent' });
    const router = new Router<AppState, AppContext>();
    router.post(
      '/things',
      async (ctx, next) => {
        ctx.state.eshop = { id: eshopId } as AppState['eshop'];
        await next();
      },
      idempotent({ db, logger }),
      async (ctx) => {
        const key = ctx.get('Idempotency-Key');
        ctx.body = await db.transaction(async (trx) => {
          const [row] = await trx('idempotency_record_probe').insert({ eshop_id: eshopId }).returning('id');
          const answer = { data: { id: (row as { id: number }).id } };
          await beforeRecord(trx, key);
          await ctx.state.idempotency!.record(trx, 201, answer);
          return answer;
        });
        ctx.status = 201;
      },
    );
    server = await serve([router]);
  });
  afterAll(async () => {
    await server.stop();
    await db.schema.dropTableIfExists('idempotency_record_probe');
    await db.destroy();
  });

  const post = (key: string) =>
    fetch(`${server.url}/things`, { method: 'POST', headers: { 'Idempotency-Key': key } });
  const probes = () =>
    db('idempotency_record_probe').where({ eshop_id: eshopId }).count<{ count: string }[]>('id as count');

  test('when the handler records its outcome, then it is stored with the write and replayed', async () => {
    beforeRecord = async () => undefined;
    const before = Number((await probes())[0]!.count);
    const first = await post(`rec-${process.pid}-a`);
    const retry = await post(`rec-${process.pid}-a`);

    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual(await first.json());
    expect(Number((await probes())[0]!.count)).toBe(before + 1);
  });

  test('when another attempt took the key over while the handler ran, then 409 and the handler write is rolled back', async () => {
    const key = `rec-${process.pid}-b`;
    beforeRecord = async (_trx, k) => {
      // Outside the handler's transaction, as the other process would: it claimed the key.
      await db('idempotency_keys').where({ eshop_id: eshopId, key: k }).update({
        lock_id: '00000000-0000-4000-8000-000000000000',
      });
    };
    const before = Number((await probes())[0]!.count);

    const res = await post(key);

    expect(res.status).toBe(409);
    expect((await res.json()) as { code: string }).toMatchObject({ code: 'idempotency_conflict' });
    expect(Number((await probes())[0]!.count)).toBe(before);
    // The other attempt's claim is untouched: still running, no outcome.
    expect(
      await db('idempotency_keys').where({ eshop_id: eshopId, key }).select('response_status', 'lock_id'),
    ).toEqual([{ response_status: null, lock_id: '00000000-0000-4000-8000-000000000000' }]);
  });
});
