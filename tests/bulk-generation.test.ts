// Bulk generation end to end (beyond the specification): the catalogue API starts a batch from
// a dry run's estimate, the real generation worker (builtin provider) runs each item as a single
// generation, the credit-service settles each; pause, resume and cancel act through both APIs;
// the budget and each item's one charge hold in the database. Attackers and faults first.
import {
  creditsRepository,
  dropDatabase,
  eshopsRepository,
  eventsRepository,
  generationBatchesRepository,
  generationJobsRepository,
  type Knex,
} from '@catalogue/db';
import { BATCH_STEP_MS, BATCH_WINDOW, startBatch, stepBatch } from '@catalogue/generation';
import type { Queues } from '@catalogue/queue';
import { eventually, makeEshop, runNodeScript, siblingDatabaseUrl } from '@catalogue/testing';
import type { ContentProvider } from '../services/generation-worker/src/providers';
import { runBatchStep } from '../services/generation-worker/src/services/batch-step.service';
import { runClaimedGenerations } from '../services/generation-worker/src/services/generate.service';
import { sweepStaleWork } from '../services/generation-worker/src/services/sweep.service';
import { settleReservation, settleReservations } from '@catalogue/credits';
import { shopCallers, useFullStack } from './full-stack';

const PREFIX = `${process.env.TEST_QUEUE_PREFIX}-bulk-generation`;
// A database of its own: the Redis-loss sweep below runs with every deadline at zero over every
// eshop of its database, and would queue (and its worker run) the unfinished work other test
// files stage in the shared one, such as a generation the white-label API is failing to queue.
const DATABASE_URL = siblingDatabaseUrl('bulk_generation');
beforeAll(async () => {
  expect(await runNodeScript('libs/content-store/dist/cli/migrate.js', [], { DATABASE_URL })).toMatchObject({
    code: 0,
  });
}, 60_000);
afterAll(() => dropDatabase(DATABASE_URL));
const ORIGIN = 'https://admin.bulk-shop.test';
/**
 * Items of the regular runs (more than a batch has under way, so a pause leaves some unstarted);
 * BULK_ITEMS=10000 runs the same journey at full size.
 */
const ITEMS = Number(process.env.BULK_ITEMS ?? BATCH_WINDOW + 16);
const LONG = Math.max(60_000, ITEMS * 40);

/** Realistic catalogue items written straight to the table (an import would render them too). */
async function seedProducts(db: Knex, eshopId: number, count: number, prefix = 'P'): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => `${prefix}-${i + 1}`);
  for (let i = 0; i < ids.length; i += 1_000) {
    await db('products').insert(
      ids.slice(i, i + 1_000).map((id, j) => ({
        eshop_id: eshopId,
        external_id: id,
        name: JSON.stringify({ cs: `Bunda ${i + j + 1}`, en: `Jacket ${i + j + 1}` }),
        description: JSON.stringify({
          cs: '<p>Husí peří 800 cuin, 320 g, voděodolný povrch.</p>',
          en: '<p>800-fill goose down, 320 g, water-repellent shell.</p>',
        }),
        categories_ids: JSON.stringify(['C-1']),
      })),
    );
  }
  return ids;
}

describe('bulk generation', () => {
  const stack = useFullStack(PREFIX, { overrides: { DATABASE_URL } });
  const { wl, catalogue } = stack;
  const db = () => wl.deps.db;

  async function shop(credits = 1_000_000, count = ITEMS) {
    const made = await makeEshop(db(), { origins: [ORIGIN], languages: ['default', 'cs', 'en'], credits });
    const callers = shopCallers({ wl: wl.url, catalogue: catalogue.url }, made, ORIGIN);
    const ids = await seedProducts(db(), made.eshop.id, count);
    const designs = (await callers.host('GET', '/design?type=product')).body.data;
    const design = designs.find((d) => d.name === 'Classic product')!.id;
    /** A batch over every product of the shop with its Classic design, started through the catalogue API. */
    const startAll = (budget: number, languages = ['cs']) =>
      callers.backOffice('POST', '/api/v2/rest/generation-batches', {
        entity_type: 'product',
        ids,
        design_id: design,
        languages,
        budget,
      });
    return { ...callers, eshopId: made.eshop.id, ids, design, apiToken: made.apiToken, startAll };
  }

  const batchRows = (eshopId: number) => db()('generation_batches').where({ eshop_id: eshopId });
  const ledger = (eshopId: number) =>
    db()('credit_ledger')
      .where({ eshop_id: eshopId })
      .whereNotNull('job_id')
      .select('job_id', 'kind', 'amount');

  /** Every item charged at most once, the batch's charge = the ledger's, the account's holds released. */
  async function expectExactlyOnce(eshopId: number, batchId: number) {
    const rows = await ledger(eshopId);
    const charges = rows.filter((r) => r.kind === 'charge');
    expect(new Set(charges.map((r) => r.job_id)).size).toBe(charges.length);
    const batch = (await batchRows(eshopId).where({ id: batchId }).first())!;
    const charged = charges.reduce((sum: number, r) => sum - Number(r.amount), 0);
    expect(Number(batch.charged)).toBe(charged);
    expect(Number(batch.reserved) + Number(batch.charged)).toBeLessThanOrEqual(Number(batch.budget));
    const items = await db()('generation_batch_items').where({ eshop_id: eshopId, batch_id: batchId });
    expect(items.reduce((s: number, i) => s + i.charged, 0)).toBe(charged);
    return { batch, charged };
  }

  async function waitEnded<V extends { finished_at: string | null }>(
    get: () => Promise<V>,
    timeout = LONG,
  ): Promise<V> {
    let view: V | undefined;
    await eventually(async () => {
      view = await get();
      expect(view.finished_at).not.toBeNull();
    }, timeout);
    if (!view) throw new Error('the batch was never read');
    return view;
  }

  /** Waits until the batch ends: finished with `done` items, nothing held, each item charged once. */
  async function expectFinished(s: Awaited<ReturnType<typeof shop>>, id: number, done: number) {
    const ended = await waitEnded(
      async () => (await s.backOffice('GET', `/api/v2/rest/generation-batches/${id}`)).body,
    );
    expect([ended.status, ended.counts.done, ended.credits.reserved]).toEqual(['finished', done, 0]);
    return expectExactlyOnce(s.eshopId, id);
  }

  describe('attackers and wrong shapes (nothing written)', () => {
    test('when the body is of the wrong shape or the budget is 0, negative, a string or huge, then 422 and no batch', async () => {
      const s = await shop(1_000, 3);
      const good = {
        entity_type: 'product',
        ids: s.ids,
        design_id: s.design,
        languages: ['cs'],
        budget: 100,
      };
      const bad: [Record<string, unknown>, string][] = [
        [{ ...good, budget: 0 }, 'budget'],
        [{ ...good, budget: -5 }, 'budget'],
        [{ ...good, budget: '100' }, 'budget'],
        [{ ...good, budget: 1e15 }, 'budget'],
        [{ ...good, budget: 1.5 }, 'budget'],
        [{ ...good, languages: [] }, 'languages'],
        [{ ...good, languages: ['cs', 'cs'] }, 'languages'],
        [{ ...good, languages: ['xx'] }, 'languages'],
        [{ ...good, entity_type: 'page' }, 'entity_type'],
        [{ ...good, ids: undefined }, ''],
        [{ ...good, filter: { without_content: true } }, 'ids'],
        [{ ...good, ids: [] }, 'ids'],
        [{ ...good, ids: ['a\u0000b'] }, 'ids'],
        [{ ...good, ids: Array.from({ length: 10_001 }, (_, i) => `X${i}`) }, 'ids'],
        [{ ...good, ids: undefined, filter: {} }, 'filter'],
        [{ ...good, ids: undefined, filter: { changed_since: 'yesterday' } }, 'filter.changed_since'],
        [{ ...good, design_id: 'x' }, 'design_id'],
        [{ ...good, surprise: 1 }, 'surprise'],
      ];
      for (const [body, field] of bad) {
        const res = await s.backOffice('POST', '/api/v2/rest/generation-batches', body);
        expect([res.status, res.body.code]).toEqual([422, 'validation_failed']);
        if (field) expect(Object.keys(res.body.errors ?? {}).join(' ')).toContain(field);
      }
      // Another eshop's items are not this eshop's: named, refused.
      const other = await shop(1_000, 2);
      const theirs = await s.backOffice('POST', '/api/v2/rest/generation-batches', {
        ...good,
        ids: [...s.ids, other.ids[0]!.replace('P-', 'Q-')],
      });
      expect([theirs.status, theirs.body.code]).toEqual([422, 'validation_failed']);
      const tooSmall = await s.backOffice('POST', '/api/v2/rest/generation-batches', { ...good, budget: 1 });
      expect([tooSmall.status, tooSmall.body.code]).toEqual([422, 'budget_below_estimate']);
      const empty = await s.backOffice('POST', '/api/v2/rest/generation-batches', {
        ...good,
        ids: undefined,
        filter: { category_id: 'nothing-here' },
      });
      expect([empty.status, empty.body.code]).toEqual([422, 'selection_empty']);
      expect(await batchRows(s.eshopId)).toHaveLength(0);
      expect(await ledger(s.eshopId)).toHaveLength(0);
    });

    test("when another eshop's batch id is read, paused, resumed or cancelled through either API, then 404 and it is unchanged", async () => {
      const owner = await shop(10_000, 2);
      const started = await owner.startAll(1_000);
      expect(started.status).toBe(201);
      const id = started.body.id as number;
      await waitEnded(
        async () => (await owner.backOffice('GET', `/api/v2/rest/generation-batches/${id}`)).body,
      );
      const before = await batchRows(owner.eshopId).where({ id }).first();
      const attacker = await shop(10_000, 1);
      for (const path of ['', '/pause', '/resume', '/cancel']) {
        const method = path ? 'POST' : 'GET';
        const viaApi = await attacker.backOffice(method, `/api/v2/rest/generation-batches/${id}${path}`);
        expect([viaApi.status, viaApi.body.code]).toEqual([404, 'not_found']);
        const viaHost = await attacker.host(method, `/generation-batch/${id}${path}`);
        expect([viaHost.status, viaHost.body.code]).toEqual([404, 'not_found']);
      }
      expect((await attacker.backOffice('GET', '/api/v2/rest/generation-batches')).body.batches).toEqual([]);
      expect(await batchRows(owner.eshopId).where({ id }).first()).toEqual(before);
    });

    test('when a dry run is asked, then it answers the size and the exact estimate and writes nothing', async () => {
      const s = await shop(1_000_000, 5);
      const body = {
        entity_type: 'product',
        ids: s.ids,
        design_id: s.design,
        languages: ['cs', 'en'],
        budget: 50,
      };
      const dry = await s.backOffice('POST', '/api/v2/rest/generation-batches', { ...body, dry_run: true });
      expect(dry.status).toBe(200);
      expect(await batchRows(s.eshopId)).toHaveLength(0);
      expect(await db()('wl_entities').where({ eshop_id: s.eshopId })).toHaveLength(0);
      // The single generation's own pre-check prices one item the same.
      const registered = await s.host('POST', '/register-entity', { entity_id: s.ids[0], type: 'product' });
      expect(registered.status).toBe(201);
      const single = await s.host('POST', `/content/${s.ids[0]}/type/product/generate/check`, {
        design_id: s.design,
        lang: 'cs',
      });
      expect(single.status).toBe(200);
      expect(dry.body).toEqual({
        dry_run: true,
        items: 10,
        estimate: {
          credits: 10 * single.body.data.estimated_cost,
          per_item: single.body.data.estimated_cost,
        },
        within_budget: 10 * single.body.data.estimated_cost <= 50,
      });
    });

    test('when a start is sent twice with one Idempotency-Key, then one batch is made and both answers name it', async () => {
      const s = await shop(1_000_000, 3);
      const body = {
        entity_type: 'product',
        ids: s.ids,
        design_id: s.design,
        languages: ['cs'],
        budget: 500,
      };
      const send = async () => {
        const res = await s.backOffice('POST', '/api/v2/rest/generation-batches', body, {
          headers: { 'Idempotency-Key': `bulk-${s.eshopId}` },
        });
        return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: res.body };
      };
      const first = await send();
      const second = await send();
      expect(first.status).toBe(201);
      expect([second.status, second.body.id]).toEqual([201, first.body.id]);
      expect(second.replayed).toBe('true');
      expect(await batchRows(s.eshopId)).toHaveLength(1);
      await waitEnded(
        async () => (await s.backOffice('GET', `/api/v2/rest/generation-batches/${first.body.id}`)).body,
      );
      await expectExactlyOnce(s.eshopId, first.body.id!);
    });
  });

  test("a batch is read as of one moment: an item started between the view's reads shows with its reservation or not at all", async () => {
    const s = await shop(1_000_000, 3);
    const started = await s.startAll(10_000);
    const id = started.body.id as number;
    await s.host('POST', `/generation-batch/${id}/pause`);
    const read = async () => (await s.host('GET', `/generation-batch/${id}`)).body;
    await eventually(async () => expect((await read()).counts.running).toBe(0));
    const before = await read();

    // Another transaction adds an item under way, as a step starts one (the item and the
    // batch's hold together), and holds the items' table until the view's batch row was read.
    const trx = await db().transaction();
    try {
      await trx.raw('lock table generation_batch_items in access exclusive mode');
      await trx('generation_batch_items').insert({
        eshop_id: s.eshopId,
        batch_id: id,
        entity_id: 'P-added',
        lang: 'cs',
        status: 'running',
        reserved: 5,
      });
      await trx('generation_batches')
        .where({ eshop_id: s.eshopId, id })
        .update({ reserved: trx.raw('reserved + 5') });
      const viewed = read();
      await eventually(async () => {
        // The view's count of items by status, waiting for the table (another reader of a
        // batch's counts may be waiting beside it).
        const waiting = await db()('pg_stat_activity')
          .where({ wait_event_type: 'Lock' })
          .whereRaw('datname = current_database()')
          .whereLike('query', '%from "generation_batch_items"%group by "batch_id", "status"%')
          .count({ n: '*' });
        expect(Number(waiting[0]!.n)).toBeGreaterThanOrEqual(1);
      });
      await trx.commit();

      const view = await viewed;
      const seen = [view.counts.running, view.credits.reserved];
      const after = [before.counts.running + 1, before.credits.reserved + 5];
      expect([[before.counts.running, before.credits.reserved], after]).toContainEqual(seen);
    } finally {
      if (!trx.isCompleted()) await trx.rollback();
    }
  });

  test(
    'a batch started from a dry run is paused, resumed and finishes: every item charged once, within budget, one event',
    async () => {
      const s = await shop();
      const body = {
        entity_type: 'product',
        filter: { category_id: 'C-1' },
        design_id: s.design,
        languages: ['cs'],
      };
      const dry = await s.backOffice('POST', '/api/v2/rest/generation-batches', {
        ...body,
        budget: 1,
        dry_run: true,
      });
      expect(dry.body.items).toBe(ITEMS);
      const budget = dry.body.estimate?.credits as number;
      const started = await s.backOffice('POST', '/api/v2/rest/generation-batches', { ...body, budget });
      expect(started.status).toBe(201);
      const id = started.body.id as number;
      expect(started.body.counts).toMatchObject({ total: ITEMS, queued: ITEMS });
      expect(started.body.credits).toEqual({ budget, estimate: budget, reserved: 0, charged: 0 });

      // Paused from the host page: items under way end, nothing else starts.
      const paused = await s.host('POST', `/generation-batch/${id}/pause`);
      expect([paused.status, paused.body.status]).toEqual([200, 'paused']);
      // Pausing a paused batch again (here through the catalogue API) answers it as it is.
      const again = await s.backOffice('POST', `/api/v2/rest/generation-batches/${id}/pause`);
      expect([again.status, again.body.status]).toEqual([200, 'paused']);
      const read = async () => (await s.host('GET', `/generation-batch/${id}`)).body;
      let view: Awaited<ReturnType<typeof read>> | undefined;
      await eventually(async () => {
        view = await read();
        expect(view.counts.running).toBe(0);
      }, LONG);
      // A step of a paused batch starts nothing, however it arrives.
      expect(await stepBatch({ ...stack.worker, maxResearchUrls: 0 }, s.eshopId, id)).toBe(0);
      expect((await s.host('GET', `/generation-batch/${id}`)).body.counts).toEqual(view!.counts);
      expect(view!.credits.reserved).toBe(0);

      // Resumed from the host page too (the journey resumes through the catalogue API).
      const resumed = await s.host('POST', `/generation-batch/${id}/resume`);
      expect([resumed.status, resumed.body.status]).toEqual([200, 'running']);
      const ended = await waitEnded(
        async () => (await s.backOffice('GET', `/api/v2/rest/generation-batches/${id}`)).body,
      );
      expect(ended.status).toBe('finished');
      expect(ended.counts).toEqual({
        total: ITEMS,
        queued: 0,
        running: 0,
        done: ITEMS,
        failed: 0,
        left_out: 0,
      });
      expect(ended.credits.reserved).toBe(0);
      const { charged } = await expectExactlyOnce(s.eshopId, id);
      expect(ended.credits.charged).toBe(charged);
      expect(charged).toBeLessThanOrEqual(budget);
      const account = await creditsRepository.getAccount(db(), s.eshopId);
      expect([account.balance, account.reserved]).toEqual([1_000_000 - charged, 0]);
      const events = (await eventsRepository.listAfter(db(), s.eshopId, 0, 100_000)).filter(
        (e) => e.type === 'generation.batch_finished',
      );
      expect(events.map((e) => e.data)).toEqual([
        { batch_id: id, status: 'finished', counts: ended.counts, credits: { budget, reserved: 0, charged } },
      ]);
      // Over: no further change.
      for (const action of ['pause', 'resume', 'cancel'] as const) {
        const res = await s.host('POST', `/generation-batch/${id}/${action}`);
        expect([res.status, res.body.code]).toEqual([409, 'batch_finished']);
      }
      // The list shows it, newest first, the same from both APIs.
      const fromApi = (await s.backOffice('GET', '/api/v2/rest/generation-batches')).body;
      const fromHost = (await s.host('GET', '/generation-batch')).body;
      expect(fromApi).toEqual(fromHost);
      expect(fromApi.batches[0]).toEqual(ended);
    },
    LONG * 3,
  );

  test(
    'when a batch is cancelled (concurrently with pauses), then nothing more starts, its reservations are released and it ends cancelled',
    async () => {
      const s = await shop();
      const started = await s.startAll(1_000_000, ['cs', 'en']);
      const id = started.body.id as number;
      const answers = await Promise.all([
        s.host('POST', `/generation-batch/${id}/pause`),
        s.backOffice('POST', `/api/v2/rest/generation-batches/${id}/cancel`),
        s.host('POST', `/generation-batch/${id}/cancel`),
        s.backOffice('POST', `/api/v2/rest/generation-batches/${id}/pause`),
      ]);
      for (const a of answers) expect([200, 409]).toContain(a.status);
      expect(answers.filter((a) => a.status === 200 && a.body.status === 'cancelled')).toHaveLength(1);
      const ended = await waitEnded(async () => (await s.host('GET', `/generation-batch/${id}`)).body);
      expect(ended.status).toBe('cancelled');
      expect(ended.counts.queued + ended.counts.running).toBe(0);
      expect(ended.counts.left_out).toBeGreaterThan(0);
      expect(ended.credits.reserved).toBe(0);
      expect(ended.errors[0]).toMatchObject({ code: 'cancelled' });
      await expectExactlyOnce(s.eshopId, id);
      expect((await creditsRepository.getAccount(db(), s.eshopId)).reserved).toBe(0);
    },
    LONG * 2,
  );

  test(
    'when the budget covers only some items, then the rest are left out uncharged and reserved + charged never exceeds it',
    async () => {
      const s = await shop(1_000_000, 12);
      const body = { entity_type: 'product', ids: s.ids, design_id: s.design, languages: ['cs'] };
      const dry = await s.backOffice('POST', '/api/v2/rest/generation-batches', {
        ...body,
        budget: 1,
        dry_run: true,
      });
      const perItem = dry.body.estimate?.per_item as number;
      const budget = perItem * 5 + perItem - 1;
      const started = await s.backOffice('POST', '/api/v2/rest/generation-batches', { ...body, budget });
      const ended = await waitEnded(
        async () => (await s.backOffice('GET', `/api/v2/rest/generation-batches/${started.body.id}`)).body,
      );
      expect(ended.status).toBe('finished');
      expect(ended.counts.done).toBeGreaterThanOrEqual(5);
      expect(ended.counts.left_out).toBe(12 - ended.counts.done);
      expect(ended.errors.every((e) => e.code === 'budget_exceeded')).toBe(true);
      const { charged } = await expectExactlyOnce(s.eshopId, started.body.id!);
      expect(charged).toBeLessThanOrEqual(budget);
    },
    LONG,
  );

  /**
   * A batch whose start committed and whose first step was never queued (Redis refused it), as
   * the sweeper finds one: the test delivers its steps by hand.
   */
  async function unqueuedBatch(s: Awaited<ReturnType<typeof shop>>, budget = 1_000_000): Promise<number> {
    const eshop = (await eshopsRepository.findById(db(), s.eshopId))!;
    const refusing = {} as Queues; // every enqueue throws: the step is left to the sweeper
    const view = await startBatch(
      { db: db(), queues: refusing, logger: stack.worker.logger, maxResearchUrls: 0 },
      eshop,
      { entity_type: 'product', ids: s.ids, design_id: s.design, languages: ['cs'], budget },
    );
    return view.id;
  }

  /** Waits until `waiters` backends of this database wait for a lock in a statement naming `table`. */
  async function waitsForLockOn(table: string, waiters: number) {
    await eventually(async () => {
      const { rows } = await db().raw(
        `select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock' and query ilike ?`,
        [`%${table}%`],
      );
      expect(rows[0].n).toBeGreaterThanOrEqual(waiters);
    }, 30_000);
  }

  test(
    "when a step's worker dies after the step's commit and before its ack, then the step delivered again runs the items it started, each charged once",
    async () => {
      const s = await shop(1_000_000, 8);
      const id = await unqueuedBatch(s);
      // The step's transaction commits: items under way, their jobs pending, reservations held.
      expect(await stepBatch({ ...stack.worker, maxResearchUrls: 0 }, s.eshopId, id)).toBe(8);
      const held = (await batchRows(s.eshopId).where({ id }).first())!;
      expect(Number(held.reserved)).toBeGreaterThan(0);
      expect(await db()('generation_jobs').where({ eshop_id: s.eshopId, status: 'pending' })).toHaveLength(8);
      expect((await creditsRepository.getAccount(db(), s.eshopId)).reserved).toBe(Number(held.reserved));
      // …and the worker dies there. BullMQ delivers the step again: it starts nothing more (the
      // window holds the items it started), runs the pending jobs and settles them.
      const again = await runBatchStep(stack.worker, s.eshopId, id);
      expect(again.started).toBe(0);
      expect(again.ran).toBeGreaterThan(0);
      expect(again.settled).toBe(again.ran);
      // The steps it queued (bounded in time) run the rest; one delivered once more, after the
      // end, finds nothing to do and charges nothing.
      const ended = await waitEnded(
        async () => (await s.backOffice('GET', `/api/v2/rest/generation-batches/${id}`)).body,
      );
      expect(await runBatchStep(stack.worker, s.eshopId, id)).toEqual({
        outcome: 'batch_step',
        started: 0,
        ran: 0,
        settled: 0,
      });
      expect([ended.status, ended.counts.done, ended.credits.reserved]).toEqual(['finished', 8, 0]);
      const { charged } = await expectExactlyOnce(s.eshopId, id);
      const account = await creditsRepository.getAccount(db(), s.eshopId);
      expect([account.balance, account.reserved]).toEqual([1_000_000 - charged, 0]);
      // Each item's content was written once, by its one job.
      const revisions = await db()('content_revisions')
        .where({ eshop_id: s.eshopId, source: 'generation' })
        .select('generation_job_id');
      expect(revisions).toHaveLength(8);
      expect(new Set(revisions.map((r) => r.generation_job_id)).size).toBe(8);
    },
    LONG,
  );

  /** A model answering after `delayMs` (the builtin provider's widgets), counting its requests in flight. */
  function slowModel(delayMs: number) {
    const seen = { inFlight: 0, peak: 0, calls: 0 };
    const provider: ContentProvider = {
      name: 'openai',
      async generate(req) {
        seen.calls += 1;
        seen.inFlight += 1;
        seen.peak = Math.max(seen.peak, seen.inFlight);
        try {
          await new Promise((resolve) => setTimeout(resolve, delayMs));
          return await stack.worker.provider.generate(req);
        } finally {
          seen.inFlight -= 1;
        }
      },
    };
    return { seen, deps: (lanes: number) => ({ ...stack.worker, provider, batchInFlight: lanes }) };
  }

  test(
    'when two steps of one batch run in one worker process, then they share its lanes: never more of its items at once than the lanes',
    async () => {
      const s = await shop(1_000_000, 12);
      const id = await unqueuedBatch(s);
      const model = slowModel(400);
      // A step delivered twice (or a sweeper's nudge beside the line of steps) in one process.
      const steps = await Promise.all([
        runBatchStep(model.deps(3), s.eshopId, id),
        runBatchStep(model.deps(3), s.eshopId, id),
      ]);
      expect(model.seen.peak).toBe(3);
      expect(steps[0]!.ran + steps[1]!.ran).toBe(model.seen.calls);
      // The steps they queued (the worker's, builtin) finish the batch: each item charged once.
      await expectFinished(s, id, 12);
    },
    LONG,
  );

  test(
    'when the model answers slower than a step lasts, then the step hands its lanes over at its deadline and the batch finishes without the sweeper, each item charged once',
    async () => {
      const s = await shop(1_000_000, 2);
      const id = await unqueuedBatch(s);
      const model = slowModel(BATCH_STEP_MS + 3_000);
      const began = Date.now();
      const step = runBatchStep(model.deps(2), s.eshopId, id);
      // At its deadline, its two items still waiting for the model, the step queues the next one.
      await eventually(async () => {
        const queued = await stack.worker.queues.generate.getJobs([
          'waiting',
          'prioritized',
          'active',
          'completed',
        ]);
        expect(queued.some((job) => 'batch_id' in job.data && job.data.batch_id === id)).toBe(true);
      }, BATCH_STEP_MS * 2);
      // (Without the hand-over it is queued after the answers, 3 s later.)
      expect(Date.now() - began).toBeLessThan(BATCH_STEP_MS + 2_000);
      expect(await step).toMatchObject({ ran: 2 });
      await expectFinished(s, id, 2);
      expect(model.seen.calls).toBe(2);
    },
    LONG,
  );

  test(
    'a step and a settlement lock the account before the batch: each waits for the account while nothing holds the batch',
    async () => {
      const s = await shop(1_000_000, 3);
      const id = await unqueuedBatch(s);
      expect(await stepBatch({ ...stack.worker, maxResearchUrls: 0 }, s.eshopId, id)).toBe(3);
      const job = Number(
        (await db()('generation_batch_items')
          .where({ eshop_id: s.eshopId, batch_id: id })
          .orderBy('id')
          .first('job_id'))!.job_id,
      );
      await db()('generation_jobs').where({ eshop_id: s.eshopId, id: job }).update({ status: 'failed' });

      // Another holder of the account lock (as a settlement or a step holds it first).
      const holder = await db().transaction();
      try {
        await creditsRepository.lockAccount(holder, s.eshopId);
        const step = stepBatch({ ...stack.worker, maxResearchUrls: 0 }, s.eshopId, id);
        const settlement = db().transaction((trx) =>
          settleReservations(trx, s.eshopId, [{ jobId: job, actualCost: 0 }]),
        );
        await waitsForLockOn('credit_accounts', 2);
        // Both wait for the account and hold nothing of the batch: the holder takes the batch and
        // its items at once (in the other order one of them would hold the batch, and a
        // settlement waiting for it while holding the account deadlocks).
        await holder.raw(
          'select id from generation_batches where eshop_id = ? and id = ? for update nowait',
          [s.eshopId, id],
        );
        await holder.raw(
          'select id from generation_batch_items where eshop_id = ? and batch_id = ? for update nowait',
          [s.eshopId, id],
        );
        await holder.commit();
        expect(await step).toBe(0);
        expect((await settlement).settled).toBe(1);
      } finally {
        if (!holder.isCompleted()) await holder.rollback();
      }
      const item = (await db()('generation_batch_items')
        .where({ eshop_id: s.eshopId, job_id: job })
        .first())!;
      expect([item.status, item.charged]).toEqual(['failed', 0]);
    },
    LONG,
  );

  test(
    "when a cancel meets a worker claiming the batch's pending jobs, then it leaves out only what no worker took: the claimed items run, are written and charged once",
    async () => {
      const s = await shop(1_000_000, 3);
      const id = await unqueuedBatch(s);
      expect(await stepBatch({ ...stack.worker, maxResearchUrls: 0 }, s.eshopId, id)).toBe(3);
      // A step's claim of the three pending jobs, not committed yet when the cancel arrives.
      const claim = await db().transaction();
      let claimed: number[];
      try {
        claimed = await generationBatchesRepository.claimPending(claim, s.eshopId, id, 3);
        expect(claimed).toHaveLength(3);
        // The shop owner cancels from the host page meanwhile.
        const cancel = s.host('POST', `/generation-batch/${id}/cancel`);
        await waitsForLockOn('generation_jobs', 1);
        await claim.commit();
        const { status, body: view } = await cancel;
        expect(status).toBe(200);
        expect([view.status, view.counts.running, view.counts.left_out]).toEqual(['cancelled', 3, 0]);
      } finally {
        if (!claim.isCompleted()) await claim.rollback();
      }
      const jobs = await db()('generation_jobs').where({ eshop_id: s.eshopId }).whereIn('id', claimed);
      expect(jobs.map((j) => j.status)).toEqual(['running', 'running', 'running']);

      // The worker that took them writes them; the next step settles them and the batch ends.
      await runClaimedGenerations(
        stack.worker,
        await generationJobsRepository.findMany(db(), s.eshopId, claimed),
      );
      await runBatchStep(stack.worker, s.eshopId, id);
      const ended = (await batchRows(s.eshopId).where({ id }).first())!;
      expect([ended.status, ended.finished_at === null, Number(ended.reserved)]).toEqual([
        'cancelled',
        false,
        0,
      ]);
      const items = await db()('generation_batch_items').where({ eshop_id: s.eshopId, batch_id: id });
      expect(items.map((i) => i.status)).toEqual(['done', 'done', 'done']);
      const { charged } = await expectExactlyOnce(s.eshopId, id);
      expect(charged).toBeGreaterThan(0);
    },
    LONG,
  );

  test('the database refuses a batch holding more than its budget, and a second item of one job', async () => {
    const s = await shop(1_000, 1);
    const [batch] = await db()('generation_batches')
      .insert({ eshop_id: s.eshopId, entity_type: 'product', languages: ['cs'], budget: 10, estimate: 10 })
      .returning('id');
    await expect(
      db()('generation_batches').where({ id: batch!.id }).update({ reserved: 6, charged: 5 }),
    ).rejects.toMatchObject({ constraint: 'generation_batches_within_budget' });
    await expect(
      db()('generation_batches').where({ id: batch!.id }).update({ reserved: -1 }),
    ).rejects.toMatchObject({ constraint: 'generation_batches_within_budget' });
    await expect(
      db()('generation_batches').insert({
        eshop_id: s.eshopId,
        entity_type: 'product',
        languages: ['cs'],
        budget: 0,
        estimate: 0,
      }),
    ).rejects.toMatchObject({ constraint: 'generation_batches_budget_positive' });
  });

  test(
    'when Redis lost the steps and jobs mid-batch and a worker died holding an item, then the sweep finishes it, each item charged once',
    async () => {
      const s = await shop(1_000_000, 6);
      const started = await s.startAll(1_000_000);
      const id = started.body.id as number;
      await eventually(async () => {
        const v = (await s.backOffice('GET', `/api/v2/rest/generation-batches/${id}`)).body;
        expect(v.counts.done).toBeGreaterThan(0);
      }, LONG);
      // A settlement delivered again after its commit (a crash before the ack) charges nothing more.
      const [doneItem] = await db()('generation_batch_items')
        .where({ eshop_id: s.eshopId, batch_id: id, status: 'done' })
        .select('job_id');
      const again = await db().transaction((trx) =>
        settleReservation(trx, s.eshopId, Number(doneItem!.job_id), 999),
      );
      expect(again.outcome).toBe('duplicate');
      // Everything queued is lost, as when Redis restarts empty; a job a dead worker held is running.
      await stack.worker.queues.generate.obliterate({ force: true });
      await stack.worker.queues['credit-settlement'].obliterate({ force: true });
      await db()('generation_jobs')
        .where({ eshop_id: s.eshopId, status: 'pending' })
        .limit(1)
        .update({ status: 'running' });
      await eventually(async () => {
        await sweepStaleWork(stack.worker, { afterRedisLoss: true });
        const v = (await s.backOffice('GET', `/api/v2/rest/generation-batches/${id}`)).body;
        expect(v.finished_at).not.toBeNull();
      }, LONG);
      const ended = (await s.backOffice('GET', `/api/v2/rest/generation-batches/${id}`)).body;
      expect(ended.counts.queued + ended.counts.running).toBe(0);
      expect(ended.credits.reserved).toBe(0);
      await expectExactlyOnce(s.eshopId, id);
      expect((await creditsRepository.getAccount(db(), s.eshopId)).reserved).toBe(0);
    },
    LONG * 2,
  );
});
