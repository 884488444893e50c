import type {
  CatalogueEntityType,
  GenerationBatchItemStatus,
  GenerationBatchStatus,
  WhiteLabelEntityType,
} from '@catalogue/config';
import type { Knex } from 'knex';
import { checkedOne, checkedRows, countOf, rawRows } from '../sql-rows';
import type { Row } from '../tables';
import { isoOffset } from '../timestamps';
import { ENTITY_TABLES } from './catalogue-tables';
import { eventsRepository } from './events.repository';

/** A bulk generation as stored (beyond the specification). */
export interface GenerationBatch {
  id: number;
  eshopId: number;
  status: GenerationBatchStatus;
  entityType: WhiteLabelEntityType;
  languages: string[];
  designId: number | null;
  promptId: number | null;
  budget: number;
  estimate: number;
  reserved: number;
  charged: number;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

export type BatchCounts = Record<GenerationBatchItemStatus, number> & { total: number };

export interface BatchItem {
  id: number;
  entityId: string;
  lang: string;
}

export interface BatchItemError {
  entity_id: string;
  code: string;
  message: string;
}

/** Which catalogue items a batch covers (at least one of the filters, or the ids). */
export interface BatchSelection {
  ids?: string[];
  withoutContent?: boolean;
  categoryId?: string;
  changedSince?: string;
}

export interface NewGenerationBatch {
  entityType: WhiteLabelEntityType;
  languages: string[];
  designId: number | null;
  promptId: number | null;
  budget: number;
  estimate: number;
}

/** Ended items are charged (done) or not (failed, left out); the sweeper and the counts read these. */
const UNFINISHED_ITEMS = ['queued', 'running'];
const INSERT_CHUNK = 1_000;

/** A batch as select() reads it: the stored columns, the times as text with an offset. */
type BatchOut = Omit<Row<'generation_batches'>, 'created_at' | 'updated_at' | 'finished_at'> & {
  created_at: string;
  updated_at: string;
  finished_at: string | null;
};
const PLAIN_COLUMNS = [
  'id',
  'eshop_id',
  'status',
  'entity_type',
  'languages',
  'design_id',
  'prompt_id',
  'budget',
  'estimate',
  'reserved',
  'charged',
] as const satisfies readonly (keyof BatchOut)[];
const TIME_COLUMNS = [
  'created_at',
  'updated_at',
  'finished_at',
] as const satisfies readonly (keyof BatchOut)[];
const BATCH_COLUMNS = [...PLAIN_COLUMNS, ...TIME_COLUMNS];

/** A row read with select() (checked: its timestamps are computed). */
function toBatch(raw: unknown): GenerationBatch {
  const row = checkedOne<BatchOut>(raw, BATCH_COLUMNS);
  return {
    id: Number(row.id),
    eshopId: Number(row.eshop_id),
    status: row.status,
    entityType: row.entity_type,
    languages: row.languages,
    designId: row.design_id === null ? null : Number(row.design_id),
    promptId: row.prompt_id === null ? null : Number(row.prompt_id),
    budget: Number(row.budget),
    estimate: Number(row.estimate),
    reserved: Number(row.reserved),
    charged: Number(row.charged),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
    finishedAt: row.finished_at === null ? null : String(row.finished_at),
  };
}

function select(db: Knex | Knex.Transaction) {
  return db('generation_batches').select(
    ...PLAIN_COLUMNS,
    ...TIME_COLUMNS.map((column) => db.raw(`${isoOffset(column)} as ${column}`)),
  );
}

/**
 * Bulk generations: a batch row with its budget and credits, and one item per entity and
 * language. Every statement names the eshop; another eshop's batch id finds nothing.
 */
export const generationBatchesRepository = {
  /**
   * The external ids of the eshop's catalogue items of `type` (not deleted) the selection
   * covers, in id order, at most `limit`: those named (`ids`) and those the filters keep.
   */
  async select(
    db: Knex | Knex.Transaction,
    eshopId: number,
    type: CatalogueEntityType,
    selection: BatchSelection,
    limit: number,
  ): Promise<string[]> {
    const { table } = ENTITY_TABLES[type];
    const query = db(`${table} as i`)
      .where('i.eshop_id', eshopId)
      .where('i.is_delete', false)
      .select('i.external_id')
      .orderBy('i.id')
      .limit(limit);
    if (selection.ids) query.whereIn('i.external_id', selection.ids);
    if (selection.categoryId !== undefined) {
      query.whereRaw('i.categories_ids @> jsonb_build_array(?::text)', [selection.categoryId]);
    }
    if (selection.changedSince !== undefined) query.where('i.updated_at', '>=', selection.changedSince);
    if (selection.withoutContent) {
      // Without generated content: no generation job of the item ever ended done.
      query.whereNotExists(
        db('generation_jobs as j')
          .select(db.raw('1'))
          .where('j.eshop_id', eshopId)
          .where('j.entity_type', type)
          .whereRaw('j.entity_id = i.external_id')
          .where('j.status', 'done'),
      );
    }
    const rows = await query;
    return rows.map((row: { external_id: string }) => row.external_id);
  },

  async create(trx: Knex.Transaction, eshopId: number, batch: NewGenerationBatch): Promise<number> {
    const [row] = await trx('generation_batches')
      .insert({
        eshop_id: eshopId,
        entity_type: batch.entityType,
        languages: batch.languages,
        design_id: batch.designId,
        prompt_id: batch.promptId,
        budget: batch.budget,
        estimate: batch.estimate,
      })
      .returning('id');
    return Number(row!.id);
  },

  /** The batch's items, entity by entity in each language, in that order (the dispatch order). */
  async addItems(
    trx: Knex.Transaction,
    eshopId: number,
    batchId: number,
    entityIds: readonly string[],
    languages: readonly string[],
  ): Promise<void> {
    const rows = languages.flatMap((lang) =>
      entityIds.map((entityId) => ({ eshop_id: eshopId, batch_id: batchId, entity_id: entityId, lang })),
    );
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      await trx('generation_batch_items').insert(rows.slice(i, i + INSERT_CHUNK));
    }
  },

  async find(
    db: Knex | Knex.Transaction,
    eshopId: number,
    id: number,
    opts: { lock?: boolean } = {},
  ): Promise<GenerationBatch | undefined> {
    const query = select(db).where({ eshop_id: eshopId, id }).first();
    if (opts.lock) query.forUpdate();
    const row = await query;
    return row ? toBatch(row) : undefined;
  },

  /** The eshop's batches, newest first. */
  async list(db: Knex | Knex.Transaction, eshopId: number, limit: number): Promise<GenerationBatch[]> {
    const rows = await select(db).where({ eshop_id: eshopId }).orderBy('id', 'desc').limit(limit);
    return rows.map(toBatch);
  },

  /** Items by status for each batch named. */
  async counts(
    db: Knex | Knex.Transaction,
    eshopId: number,
    batchIds: readonly number[],
  ): Promise<Map<number, BatchCounts>> {
    const out = new Map<number, BatchCounts>();
    for (const id of batchIds) {
      out.set(id, { total: 0, queued: 0, running: 0, done: 0, failed: 0, left_out: 0 });
    }
    if (batchIds.length === 0) return out;
    const rows = await db('generation_batch_items')
      .where('eshop_id', eshopId)
      .whereIn('batch_id', batchIds)
      .groupBy('batch_id', 'status')
      .select('batch_id', 'status', db.raw('count(*)::int as n'));
    for (const row of checkedRows<Pick<Row<'generation_batch_items'>, 'batch_id' | 'status'> & { n: number }>(
      rows,
      ['batch_id', 'status', 'n'],
    )) {
      const counts = out.get(Number(row.batch_id))!;
      counts[row.status] = row.n;
      counts.total += row.n;
    }
    return out;
  },

  /** The first `limit` items that failed or were left out, with why. */
  async errors(
    db: Knex | Knex.Transaction,
    eshopId: number,
    batchId: number,
    limit: number,
  ): Promise<BatchItemError[]> {
    const rows = await db('generation_batch_items')
      .where({ eshop_id: eshopId, batch_id: batchId })
      .whereIn('status', ['failed', 'left_out'])
      .whereNotNull('error_code')
      .orderBy('updated_at')
      .orderBy('id')
      .limit(limit)
      .select('entity_id', 'error_code', 'error_message');
    return rows.map((r) => ({
      entity_id: r.entity_id,
      code: r.error_code ?? '',
      message: r.error_message ?? '',
    }));
  },

  async setStatus(
    trx: Knex.Transaction,
    eshopId: number,
    id: number,
    status: GenerationBatchStatus,
  ): Promise<void> {
    await trx('generation_batches')
      .where({ eshop_id: eshopId, id })
      .update({ status, updated_at: trx.fn.now(6) });
  },

  /** Items under way, and the next queued items whose entity has no item under way, locked. */
  async dispatchable(
    trx: Knex.Transaction,
    eshopId: number,
    batchId: number,
    window: number,
  ): Promise<{ running: number; next: BatchItem[] }> {
    const [counted] = await trx('generation_batch_items')
      .where({ eshop_id: eshopId, batch_id: batchId, status: 'running' })
      .count({ count: '*' });
    const running = countOf(counted);
    if (running >= window) return { running, next: [] };
    const rows = await trx('generation_batch_items as q')
      .where({ 'q.eshop_id': eshopId, 'q.batch_id': batchId, 'q.status': 'queued' })
      .whereNotExists(
        trx('generation_batch_items as r')
          .select(trx.raw('1'))
          .where({ 'r.eshop_id': eshopId, 'r.batch_id': batchId, 'r.status': 'running' })
          .whereRaw('r.entity_id = q.entity_id'),
      )
      .orderBy('q.id')
      .limit((window - running) * 2)
      .select('q.id', 'q.entity_id', 'q.lang')
      .forUpdate()
      .skipLocked();
    const seen = new Set<string>();
    const next: BatchItem[] = [];
    for (const row of checkedRows<Pick<Row<'generation_batch_items'>, 'id' | 'entity_id' | 'lang'>>(rows, [
      'id',
      'entity_id',
      'lang',
    ])) {
      if (seen.has(row.entity_id) || next.length >= window - running) continue;
      seen.add(row.entity_id);
      next.push({ id: Number(row.id), entityId: row.entity_id, lang: row.lang });
    }
    return { running, next };
  },

  /**
   * Holds `amount` more of the budget for the batch: one conditional UPDATE, so concurrent
   * dispatches never hold more than the budget (the table's CHECK refuses it in any case).
   * False when the budget does not cover it.
   */
  async holdBudget(trx: Knex.Transaction, eshopId: number, id: number, amount: number): Promise<boolean> {
    const updated = await trx('generation_batches')
      .where({ eshop_id: eshopId, id })
      .whereRaw('reserved + charged + ? <= budget', [amount])
      .update({ reserved: trx.raw('reserved + ?', [amount]), updated_at: trx.fn.now(6) });
    return updated === 1;
  },

  /** The item is under way as generation job `jobId`, holding `reserved`. */
  async markRunning(
    trx: Knex.Transaction,
    eshopId: number,
    itemId: number,
    jobId: number,
    reserved: number,
  ): Promise<void> {
    await trx('generation_batch_items')
      .where({ eshop_id: eshopId, id: itemId, status: 'queued' })
      .update({ status: 'running', job_id: jobId, reserved, updated_at: trx.fn.now(6) });
  },

  /** Items under way as generation jobs, each holding its reservation: one multi-row UPDATE. */
  async startItems(
    trx: Knex.Transaction,
    eshopId: number,
    started: readonly { itemId: number; jobId: number; reserved: number }[],
  ): Promise<void> {
    if (started.length === 0) return;
    await trx.raw(
      `update generation_batch_items i
          set status = 'running', job_id = s.job_id, reserved = s.reserved, updated_at = now()
         from unnest(?::bigint[], ?::bigint[], ?::integer[]) as s(item_id, job_id, reserved)
        where i.eshop_id = ? and i.id = s.item_id and i.status = 'queued'`,
      [started.map((s) => s.itemId), started.map((s) => s.jobId), started.map((s) => s.reserved), eshopId],
    );
  },

  /**
   * Takes up to `limit` jobs of the batch's items under way that no worker has started
   * (`pending` → `running`) for the caller to run, in item order; a job another step or worker
   * took meanwhile is skipped. Returns their ids.
   */
  async claimPending(
    trx: Knex | Knex.Transaction,
    eshopId: number,
    batchId: number,
    limit: number,
  ): Promise<number[]> {
    const rows = await rawRows<{ id: string }>(
      trx,
      `update generation_jobs j set status = 'running', updated_at = now()
         from (select p.eshop_id, p.id
                 from generation_batch_items i
                 join generation_jobs p on p.eshop_id = i.eshop_id and p.id = i.job_id
                where i.eshop_id = ? and i.batch_id = ? and i.status = 'running' and p.status = 'pending'
                order by i.id
                limit ?
                  for update of p skip locked) c
        where j.eshop_id = c.eshop_id and j.id = c.id and j.status = 'pending'
        returning j.id`,
      [eshopId, batchId, limit],
      ['id'],
    );
    return rows.map((row) => Number(row.id)).sort((a, b) => a - b);
  },

  /**
   * The jobs of the batch's items under way that have ended (`done` or `failed`) and whose
   * reservation no settlement has settled yet, with what each is charged: what a step settles.
   */
  async endedUnsettled(
    db: Knex | Knex.Transaction,
    eshopId: number,
    batchId: number,
  ): Promise<{ jobId: number; actualCost: number }[]> {
    const rows = await rawRows<{ id: string; cost: number }>(
      db,
      `select j.id, case when j.status = 'done' then coalesce(j.charged_cost, 0) else 0 end as cost
         from generation_batch_items i
         join generation_jobs j on j.eshop_id = i.eshop_id and j.id = i.job_id
        where i.eshop_id = ? and i.batch_id = ? and i.status = 'running'
          and j.status in ('done', 'failed') and not j.reservation_settled
        order by j.id`,
      [eshopId, batchId],
      ['id', 'cost'],
    );
    return rows.map((row) => ({ jobId: Number(row.id), actualCost: Number(row.cost) }));
  },

  /**
   * `settleJob` of many jobs in one statement per table: their items end with what the ledger
   * charged, each batch gives back what its items held and counts what they were charged.
   * Returns the batches told.
   */
  async settleJobs(
    trx: Knex.Transaction,
    eshopId: number,
    charges: readonly { jobId: number; charged: number }[],
  ): Promise<number[]> {
    if (charges.length === 0) return [];
    const rows = await rawRows<{ id: string }>(
      trx,
      `with ended as (
         update generation_batch_items i
            set status = case when j.status = 'done' or c.charged > 0 then 'done' else 'failed' end,
                charged = c.charged,
                error_code = case when j.status = 'done' or c.charged > 0 then null else 'generation_failed' end,
                error_message = case when j.status = 'done' or c.charged > 0 then null else j.error_message end,
                updated_at = now()
           from unnest(?::bigint[], ?::integer[]) as c(job_id, charged), generation_jobs j
          where i.eshop_id = ? and i.job_id = c.job_id and i.status = 'running'
            and j.eshop_id = i.eshop_id and j.id = i.job_id
         returning i.batch_id, i.reserved, i.charged)
       update generation_batches b
          set reserved = b.reserved - e.reserved, charged = b.charged + e.charged, updated_at = now()
         from (select batch_id, sum(reserved)::bigint as reserved, sum(charged)::bigint as charged
                 from ended group by batch_id) e
        where b.eshop_id = ? and b.id = e.batch_id
       returning b.id`,
      [charges.map((c) => c.jobId), charges.map((c) => c.charged), eshopId, eshopId],
      ['id'],
    );
    return rows.map((row) => Number(row.id));
  },

  /** Items left out without charge, and why. */
  async leaveOut(
    trx: Knex.Transaction,
    eshopId: number,
    itemIds: readonly number[],
    code: string,
    message: string,
  ): Promise<void> {
    if (itemIds.length === 0) return;
    await trx('generation_batch_items')
      .where({ eshop_id: eshopId, status: 'queued' })
      .whereIn('id', itemIds)
      .update({ status: 'left_out', error_code: code, error_message: message, updated_at: trx.fn.now(6) });
  },

  /** Every queued item of the batch left out (a cancel). */
  async leaveOutQueued(
    trx: Knex.Transaction,
    eshopId: number,
    batchId: number,
    code: string,
    message: string,
  ): Promise<number> {
    return trx('generation_batch_items')
      .where({ eshop_id: eshopId, batch_id: batchId, status: 'queued' })
      .update({ status: 'left_out', error_code: code, error_message: message, updated_at: trx.fn.now(6) });
  },

  /** Generation jobs of the batch's running items that no worker has started yet. */
  async pendingJobs(trx: Knex.Transaction, eshopId: number, batchId: number): Promise<number[]> {
    // Locked, so that a worker's claim (`claimPending`, which skips locked jobs) either took a
    // job before (this waits for its commit and then no longer finds it pending) or does not
    // take it at all: a job is never both run and cancelled.
    const rows = await trx('generation_batch_items as i')
      .join('generation_jobs as j', (join) => join.on('j.eshop_id', 'i.eshop_id').andOn('j.id', 'i.job_id'))
      .where({ 'i.eshop_id': eshopId, 'i.batch_id': batchId, 'i.status': 'running', 'j.status': 'pending' })
      .select('j.id')
      .forUpdate('j');
    return rows.map((row: { id: string }) => Number(row.id));
  },

  /**
   * The started item of job `jobId` left out by a cancel before any worker took it: the batch
   * gives back what it held. Returns whether it was under way.
   */
  async cancelItemOf(
    trx: Knex.Transaction,
    eshopId: number,
    jobId: number,
    message: string,
  ): Promise<boolean> {
    const [item] = await trx('generation_batch_items')
      .where({ eshop_id: eshopId, job_id: jobId, status: 'running' })
      .update({
        status: 'left_out',
        error_code: 'cancelled',
        error_message: message,
        updated_at: trx.fn.now(6),
      })
      .returning(['batch_id', 'reserved']);
    if (!item) return false;
    await trx('generation_batches')
      .where({ eshop_id: eshopId, id: Number(item.batch_id) })
      .update({ reserved: trx.raw('reserved - ?', [item.reserved]), updated_at: trx.fn.now(6) });
    return true;
  },

  /**
   * The settlement of generation job `jobId`, told to its batch item in the settlement's
   * transaction: the item ends (`done` when its job is done or was charged, else `failed` with
   * the job's error) and keeps what the ledger charged, and the batch gives back what the item held and counts what it was charged.
   * Once per item: only a running item of that job changes. Returns the batch id, or undefined
   * when the job is no batch's item (or its settlement was told before).
   */
  async settleJob(
    trx: Knex.Transaction,
    eshopId: number,
    jobId: number,
    charged: number,
  ): Promise<number | undefined> {
    const [item] = checkedRows<Pick<Row<'generation_batch_items'>, 'batch_id' | 'reserved' | 'charged'>>(
      await trx('generation_batch_items as i')
        .where({ 'i.eshop_id': eshopId, 'i.job_id': jobId, 'i.status': 'running' })
        .update({
          // What the ledger charged, always: the batch's charge is the sum of its items' charges.
          status: trx.raw(`case when j.status = 'done' or ? > 0 then 'done' else 'failed' end`, [charged]),
          charged,
          error_code: trx.raw(`case when j.status = 'done' or ? > 0 then null else 'generation_failed' end`, [
            charged,
          ]),
          error_message: trx.raw(`case when j.status = 'done' or ? > 0 then null else j.error_message end`, [
            charged,
          ]),
          updated_at: trx.fn.now(6),
        })
        .updateFrom('generation_jobs as j')
        .whereRaw('j.eshop_id = i.eshop_id and j.id = i.job_id')
        .returning(['i.batch_id', 'i.reserved', 'i.charged']),
      ['batch_id', 'reserved', 'charged'],
    );
    if (!item) return undefined;
    const batchId = Number(item.batch_id);
    await trx('generation_batches')
      .where({ eshop_id: eshopId, id: batchId })
      .update({
        reserved: trx.raw('reserved - ?', [item.reserved]),
        charged: trx.raw('charged + ?', [item.charged]),
        updated_at: trx.fn.now(6),
      });
    return batchId;
  },

  /**
   * Ends the batch when none of its items is queued or under way (`cancelled` stays so, any
   * other status becomes `finished`) and appends its `generation.batch_finished` event, once.
   * Returns whether it ended now.
   */
  async finishIfComplete(trx: Knex.Transaction, eshopId: number, id: number): Promise<boolean> {
    const [ended] = checkedRows<
      Pick<Row<'generation_batches'>, 'status' | 'reserved' | 'charged' | 'budget'>
    >(
      await trx('generation_batches as b')
        .where({ 'b.eshop_id': eshopId, 'b.id': id })
        .whereNull('b.finished_at')
        .whereNotExists(
          trx('generation_batch_items as i')
            .select(trx.raw('1'))
            .where({ 'i.eshop_id': eshopId, 'i.batch_id': id })
            .whereIn('i.status', UNFINISHED_ITEMS),
        )
        .update({
          status: trx.raw(`case when b.status = 'cancelled' then 'cancelled' else 'finished' end`),
          finished_at: trx.fn.now(6),
          updated_at: trx.fn.now(6),
        })
        .returning(['b.status', 'b.reserved', 'b.charged', 'b.budget']),
      ['status', 'reserved', 'charged', 'budget'],
    );
    if (!ended) return false;
    const counts = (await this.counts(trx, eshopId, [id])).get(id)!;
    await eventsRepository.append(trx, eshopId, [
      {
        type: 'generation.batch_finished',
        entityType: 'generation_batch',
        externalId: String(id),
        data: {
          batch_id: id,
          status: ended.status,
          counts,
          credits: {
            budget: Number(ended.budget),
            reserved: Number(ended.reserved),
            charged: Number(ended.charged),
          },
        },
      },
    ]);
    return true;
  },

  /** Batches still moving (queued or running) whose row has not changed for `idleSeconds`. */
  async idleMoving(
    db: Knex | Knex.Transaction,
    idleSeconds: number,
    limit: number,
  ): Promise<{ eshopId: number; id: number }[]> {
    const rows = await db('generation_batches')
      .whereIn('status', ['queued', 'running'])
      .where('updated_at', '<', db.raw('now() - make_interval(secs => ?)', [idleSeconds]))
      .orderBy('id')
      .limit(limit)
      .select('eshop_id', 'id');
    return rows.map((row) => ({ eshopId: Number(row.eshop_id), id: Number(row.id) }));
  },
};
