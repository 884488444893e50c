// The bulk generation journey at catalogue size, end to end with the real services (both APIs,
// the generation worker with the builtin provider, the credit-service settlement): a batch of
// BULK_JOURNEY_ITEMS items is started from its dry run's estimate, moves, is paused (nothing more
// starts), a second batch is started and cancelled (its reservations released), and the first
// is resumed and finishes. Every item is checked in the database: one job, one charge for what
// it wrote, its reservation fully charged or released, and the batch's charge the ledger's.
import { creditsRepository, eventsRepository, type Knex } from '@catalogue/db';
import { BATCH_MAX_ENTITIES, stepBatch } from '@catalogue/generation';
import { eventually, makeEshop } from '@catalogue/testing';
import { shopCallers, useFullStack } from './full-stack';

const PREFIX = `${process.env.TEST_QUEUE_PREFIX}-bulk-journey`;
const ORIGIN = 'https://admin.bulk-journey.test';
/**
 * Catalogue items (one language: one item each). The journey holds up to BATCH_MAX_ENTITIES
 * (BULK_JOURNEY_ITEMS=10000). The default leaves items queued when the batch is paused and when
 * the other is cancelled: 100 ran through in about 4 s on a fast machine, before either.
 */
const ITEMS = Number(process.env.BULK_JOURNEY_ITEMS ?? 1_000);
/** An upper bound only (a loaded machine is slow); nothing here measures time. */
const LONG = Math.max(120_000, ITEMS * 3_000);
const CREDITS = 100_000_000;

/** A batch item with its job's ledger, as itemsOf() reads it. */
interface BatchItemRow {
  entity_id: string;
  status: string;
  charged: number;
  job_id: number | null;
  charges: number;
  ledger_charged: number;
  still_held: number;
}

/** Products written straight to the table, 1,000 a statement (an import would render them too). */
async function seedProducts(db: Knex, eshopId: number, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1_000) {
    const rows = [];
    for (let k = i; k < Math.min(count, i + 1_000); k++) {
      rows.push({
        eshop_id: eshopId,
        external_id: `J-${k + 1}`,
        name: JSON.stringify({ cs: `Péřová bunda ${k + 1}`, en: `Down jacket ${k + 1}` }),
        description: JSON.stringify({
          cs: `<p>Husí peří 800 cuin, ${300 + (k % 50)} g, voděodolný povrch.</p>`,
          en: `<p>800-fill goose down, ${300 + (k % 50)} g, water-repellent shell.</p>`,
        }),
        categories_ids: JSON.stringify(['JACKETS']),
      });
    }
    await db('products').insert(rows);
  }
}

describe('bulk generation journey', () => {
  const stack = useFullStack(PREFIX);
  const { wl, catalogue } = stack;
  const db = () => wl.deps.db;

  test(
    `when ${ITEMS} items are started from the dry run's estimate, paused, resumed and finished while another batch is cancelled, then every item is charged once (none when the cancelled batch wrote it first: nothing new) within the budget and every reservation is released`,
    async () => {
      expect(ITEMS).toBeLessThanOrEqual(BATCH_MAX_ENTITIES);
      const made = await makeEshop(db(), {
        origins: [ORIGIN],
        languages: ['default', 'cs', 'en'],
        credits: CREDITS,
      });
      const eshopId = made.eshop.id;
      const s = shopCallers({ wl: wl.url, catalogue: catalogue.url }, made, ORIGIN);
      await seedProducts(db(), eshopId, ITEMS);
      const designs = (await s.host('GET', '/design?type=product')).body.data;
      const design = designs.find((d) => d.name === 'Classic product')!.id as number;
      const selection = {
        entity_type: 'product',
        filter: { category_id: 'JACKETS' },
        design_id: design,
        languages: ['cs'],
      };

      /** Every view read is within its budget (the table's CHECK holds it; the answers must agree). */
      let views = 0;
      const read = async (id: number, via: 'host' | 'backOffice' = 'backOffice') => {
        const res =
          via === 'host'
            ? await s.host('GET', `/generation-batch/${id}`)
            : await s.backOffice('GET', `/api/v2/rest/generation-batches/${id}`);
        expect(res.status).toBe(200);
        const v = res.body;
        expect(v.credits.reserved + v.credits.charged).toBeLessThanOrEqual(v.credits.budget);
        expect(v.counts.queued + v.counts.running + v.counts.done + v.counts.failed + v.counts.left_out).toBe(
          v.counts.total,
        );
        views++;
        return v;
      };
      type View = Awaited<ReturnType<typeof read>>;
      const until = async (id: number, check: (v: View) => void): Promise<View> => {
        let v: View | undefined;
        await eventually(async () => {
          v = await read(id);
          check(v);
        }, LONG);
        if (!v) throw new Error('the batch was never read');
        return v;
      };
      /** Start from a dry run: the estimate is the budget. */
      const startFromEstimate = async (): Promise<{ id: number; budget: number }> => {
        const dry = await s.backOffice('POST', '/api/v2/rest/generation-batches', {
          ...selection,
          budget: 1,
          dry_run: true,
        });
        expect([dry.status, dry.body.items, dry.body.within_budget]).toEqual([200, ITEMS, false]);
        const estimate = dry.body.estimate;
        if (!estimate) throw new Error('the dry run answered no estimate');
        const budget = estimate.credits;
        expect(budget).toBe(estimate.per_item * ITEMS);
        const started = await s.backOffice('POST', '/api/v2/rest/generation-batches', {
          ...selection,
          budget,
        });
        expect(started.status).toBe(201);
        expect(started.body.counts).toMatchObject({ total: ITEMS, queued: ITEMS });
        expect(started.body.credits).toEqual({ budget, estimate: budget, reserved: 0, charged: 0 });
        return { id: started.body.id!, budget };
      };

      /** Each item of the batch with its job's ledger: charges, what they took, what stays held. */
      const itemsOf = async (batchId: number): Promise<BatchItemRow[]> =>
        (
          await db().raw(
            `select i.entity_id, i.status, i.charged, i.job_id,
                    (select count(*)::int from credit_ledger l
                      where l.eshop_id = i.eshop_id and l.job_id = i.job_id and l.kind = 'charge') as charges,
                    (select coalesce(-sum(l.amount), 0)::int from credit_ledger l
                      where l.eshop_id = i.eshop_id and l.job_id = i.job_id and l.kind = 'charge') as ledger_charged,
                    (select coalesce(sum(l.reserved_delta), 0)::int from credit_ledger l
                      where l.eshop_id = i.eshop_id and l.job_id = i.job_id) as still_held
               from generation_batch_items i
              where i.eshop_id = ? and i.batch_id = ?`,
            [eshopId, batchId],
          )
        ).rows;
      const storedCharge = async (batchId: number): Promise<number> =>
        Number((await db()('generation_batches').where({ eshop_id: eshopId, id: batchId }).first())!.charged);

      // 1. Started from the estimate; it moves.
      const a = await startFromEstimate();
      await until(a.id, (v) => expect(v.counts.done).toBeGreaterThan(0));

      // 2. Paused from the host page: the items under way end, then nothing moves.
      const paused = await s.host('POST', `/generation-batch/${a.id}/pause`);
      expect([paused.status, paused.body.status]).toEqual([200, 'paused']);
      const still = await until(a.id, (v) => expect(v.counts.running).toBe(0));
      expect(still.credits.reserved).toBe(0);
      // A step however it arrives (a late settlement's, the sweeper's) starts nothing.
      expect(await stepBatch({ ...stack.worker, maxResearchUrls: 0 }, eshopId, a.id)).toBe(0);
      expect((await read(a.id, 'host')).counts).toEqual(still.counts);
      expect(
        await db()('generation_batch_items').where({ eshop_id: eshopId, batch_id: a.id, status: 'running' }),
      ).toHaveLength(0);

      // 3. Another batch of the same items, cancelled once it moves: its reservations come back.
      const b = await startFromEstimate();
      await until(b.id, (v) => expect(v.counts.done).toBeGreaterThan(0));
      const cancelled = await s.backOffice('POST', `/api/v2/rest/generation-batches/${b.id}/cancel`);
      expect([cancelled.status, cancelled.body.status, cancelled.body.counts.queued]).toEqual([
        200,
        'cancelled',
        0,
      ]);
      const bEnded = await until(b.id, (v) => expect(v.finished_at).not.toBeNull());
      expect(bEnded.status).toBe('cancelled');
      expect(bEnded.counts.running).toBe(0);
      expect(bEnded.counts.left_out).toBeGreaterThan(0);
      expect(bEnded.credits.reserved).toBe(0);
      expect(bEnded.errors[0]).toMatchObject({ code: 'cancelled' });
      const bItems = await itemsOf(b.id);
      for (const item of bItems) {
        expect(item.charges).toBeLessThanOrEqual(1);
        expect(item.still_held).toBe(0);
        expect(item.ledger_charged).toBe(item.charged);
        if (item.status === 'left_out') expect(item.charged).toBe(0);
      }
      expect(bItems.reduce((sum, i) => sum + i.charged, 0)).toBe(bEnded.credits.charged);
      expect(await storedCharge(b.id)).toBe(bEnded.credits.charged);
      // Nothing of the shop is held: the cancelled batch's credits are released, the paused one holds none.
      expect((await creditsRepository.getAccount(db(), eshopId)).reserved).toBe(0);

      // 4. Resumed, the first batch finishes: every item done and charged once, within the budget.
      const resumed = await s.backOffice('POST', `/api/v2/rest/generation-batches/${a.id}/resume`);
      expect([resumed.status, resumed.body.status]).toEqual([200, 'running']);
      const aEnded = await until(a.id, (v) => expect(v.finished_at).not.toBeNull());
      expect(aEnded.status).toBe('finished');
      expect(aEnded.counts).toEqual({
        total: ITEMS,
        queued: 0,
        running: 0,
        done: ITEMS,
        failed: 0,
        left_out: 0,
      });
      expect(aEnded.credits.reserved).toBe(0);
      expect(aEnded.credits.charged).toBeGreaterThan(0);
      expect(aEnded.credits.charged).toBeLessThanOrEqual(a.budget);
      const aItems = await itemsOf(a.id);
      expect(aItems).toHaveLength(ITEMS);
      expect(new Set(aItems.map((i) => i.job_id)).size).toBe(ITEMS);
      // An item the cancelled batch wrote first (charged) has nothing new left for this one: it
      // is done uncharged, as a single generation that adds nothing is; every other is charged once.
      const writtenByB = new Set(bItems.filter((i) => i.charged > 0).map((i) => i.entity_id));
      for (const item of aItems) {
        expect([item.status, item.charges, item.still_held]).toEqual([
          'done',
          writtenByB.has(item.entity_id) ? 0 : 1,
          0,
        ]);
        expect(item.ledger_charged).toBe(item.charged);
      }
      expect(aItems.reduce((sum, i) => sum + i.charged, 0)).toBe(aEnded.credits.charged);
      expect(await storedCharge(a.id)).toBe(aEnded.credits.charged);

      // The account: charged both batches' charges, nothing held; one end event per batch.
      const account = await creditsRepository.getAccount(db(), eshopId);
      expect([account.balance, account.reserved]).toEqual([
        CREDITS - aEnded.credits.charged - bEnded.credits.charged,
        0,
      ]);
      const ends = (await eventsRepository.listAfter(db(), eshopId, 0, 1_000_000))
        .filter((e) => e.type === 'generation.batch_finished')
        .map((e) => [e.data.batch_id, e.data.status]);
      expect(ends).toEqual([
        [b.id, 'cancelled'],
        [a.id, 'finished'],
      ]);
      expect(views).toBeGreaterThan(4);
    },
    LONG * 4,
  );
});
