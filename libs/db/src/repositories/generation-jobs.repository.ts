import type { Knex } from 'knex';
import type { GenerateJobContext } from '../generate-context';
import { checkedOne, checkedRows } from '../sql-rows';
import type {
  GenerationJobRow,
  ResearchRefusalRow,
  ResearchSourceRow,
  SkippedWidgetRow,
  TimestampsOut,
} from '../tables';
import { isoOffset } from '../timestamps';
import { designOwner } from './designs.repository';
import { eventsRepository } from './events.repository';
import { INTERNAL_ID, keysFrom, type TenantKey } from './tenant-keys';

export type GenerationJobStatus = GenerationJobRow['status'];

export interface GenerationJob {
  id: number;
  eshopId: number;
  entityType: GenerationJobRow['entity_type'];
  entityId: string;
  designId: number;
  status: GenerationJobStatus;
  lang: string;
  context: GenerateJobContext;
  estimatedCost: number;
  chargedCost: number | null;
  widgetsCreated: number;
  errorMessage: string | null;
  provider: string | null;
  usage: Record<string, number> | null;
  /** Fillable widgets of the design the job left out, and why (empty until it is done). */
  widgetsSkipped: SkippedWidgetRow[];
  /** Research pages its texts came from (by widget), so the shop can check them. */
  researchSources: ResearchSourceRow[];
  /** Research URLs it did not read, and why (empty until it is done). */
  researchRefused: ResearchRefusalRow[];
  /** ISO 8601 with a numeric UTC offset, as the white-label specification shows timestamps. */
  createdAt: string;
  updatedAt: string;
}

export interface NewGenerationJob {
  entityType: GenerationJobRow['entity_type'];
  entityId: string;
  designId: number;
  lang: string;
  context: GenerateJobContext;
  estimatedCost: number;
}

type JobOut = Omit<GenerationJobRow, 'design_owner' | keyof TimestampsOut> & TimestampsOut;

const ENTITY_ID: TenantKey = { column: 'entity_id', type: 'text' };
/** The statuses of an unfinished job: those of the partial index `generation_jobs_one_running`. */
const UNFINISHED = ['pending', 'running'];

/** The job's columns, qualified: the reads by key join the jobs with their keys. */
const STORED_COLUMNS = [
  'id',
  'eshop_id',
  'entity_type',
  'entity_id',
  'design_id',
  'status',
  'lang',
  'context',
  'estimated_cost',
  'charged_cost',
  'widgets_created',
  'error_message',
  'provider',
  'usage',
  'widgets_skipped',
  'research_sources',
  'research_refused',
] as const satisfies readonly (keyof JobOut)[];
const OUT_COLUMNS = [...STORED_COLUMNS, 'created_at', 'updated_at'] as const;

function columns(db: Knex | Knex.Transaction) {
  return [
    ...STORED_COLUMNS.map((column) => `generation_jobs.${column}`),
    db.raw(`${isoOffset('generation_jobs.created_at')} as created_at`),
    db.raw(`${isoOffset('generation_jobs.updated_at')} as updated_at`),
  ];
}

function select(db: Knex | Knex.Transaction) {
  return db('generation_jobs').select(columns(db));
}

/** A row read with columns() (checked: its timestamps are computed). */
function toJob(raw: unknown): GenerationJob {
  const row = checkedOne<JobOut>(raw, OUT_COLUMNS);
  return {
    id: row.id,
    eshopId: row.eshop_id,
    entityType: row.entity_type,
    entityId: row.entity_id,
    designId: row.design_id,
    status: row.status,
    lang: row.lang,
    context: row.context,
    estimatedCost: row.estimated_cost,
    chargedCost: row.charged_cost,
    widgetsCreated: row.widgets_created,
    errorMessage: row.error_message,
    provider: row.provider,
    usage: row.usage,
    widgetsSkipped: row.widgets_skipped,
    researchSources: row.research_sources,
    researchRefused: row.research_refused,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The row a new job is inserted as: `pending`, its design's owner looked up in the statement. */
function jobRow(trx: Knex | Knex.Transaction, eshopId: number, job: NewGenerationJob) {
  return {
    eshop_id: eshopId,
    entity_type: job.entityType,
    entity_id: job.entityId,
    design_id: job.designId,
    design_owner: designOwner(trx, job.designId),
    lang: job.lang,
    context: JSON.stringify(job.context),
    estimated_cost: job.estimatedCost,
  };
}

/** How a job ends (`finish`). */
export type JobOutcome =
  | {
      status: 'done';
      widgetsCreated: number;
      chargedCost: number;
      provider: string;
      usage: object | null;
      widgetsSkipped?: SkippedWidgetRow[];
      researchSources?: ResearchSourceRow[];
      researchRefused?: ResearchRefusalRow[];
    }
  | {
      status: 'failed';
      errorMessage: string;
      provider: string | null;
      usage: object | null;
      researchRefused?: ResearchRefusalRow[];
    };

export const generationJobsRepository = {
  async create(trx: Knex | Knex.Transaction, eshopId: number, job: NewGenerationJob): Promise<GenerationJob> {
    const [row] = await trx('generation_jobs')
      .insert(jobRow(trx, eshopId, job))
      .returning('id');
    return (await this.find(trx, eshopId, row!.id))!;
  },

  /**
   * New jobs of one eshop in one statement (a bulk generation's step), each `pending`. An entity
   * that has an unfinished job already gets none (the one-running index decides under
   * concurrency; nothing fails): returns the new job id of each entity that got one.
   */
  async createMany(
    trx: Knex.Transaction,
    eshopId: number,
    jobs: readonly NewGenerationJob[],
  ): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (jobs.length === 0) return out;
    const inserted: unknown[] = await trx('generation_jobs')
      .insert(jobs.map((job) => jobRow(trx, eshopId, job)))
      .onConflict()
      .ignore()
      .returning(['id', 'entity_type', 'entity_id']);
    const rows = checkedRows<Pick<GenerationJobRow, 'id' | 'entity_type' | 'entity_id'>>(inserted, [
      'id',
      'entity_type',
      'entity_id',
    ]);
    for (const row of rows) out.set(`${row.entity_type}:${row.entity_id}`, Number(row.id));
    return out;
  },

  /** Jobs of the eshop by id, in id order (ids of another eshop find nothing); `lock`: locked in that order. */
  async findMany(
    db: Knex | Knex.Transaction,
    eshopId: number,
    ids: readonly number[],
    opts: { lock?: boolean } = {},
  ): Promise<GenerationJob[]> {
    if (ids.length === 0) return [];
    const query = db
      .from(keysFrom(db, eshopId, ids, INTERNAL_ID))
      .join('generation_jobs', (join) =>
        join.on('generation_jobs.eshop_id', 'k.eshop_id').andOn('generation_jobs.id', 'x.id'),
      )
      .select(columns(db))
      .orderBy('generation_jobs.id');
    if (opts.lock) query.forUpdate('generation_jobs');
    const rows = await query;
    return rows.map((row) => toJob(row));
  },

  /** `markSettled` of many jobs in one statement (a bulk generation's settlement). */
  async markSettledMany(trx: Knex.Transaction, eshopId: number, ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await trx('generation_jobs')
      .where('generation_jobs.eshop_id', trx.ref('k.eshop_id'))
      .andWhere('generation_jobs.id', trx.ref('x.id'))
      .andWhere('generation_jobs.reservation_settled', false)
      .update({ reservation_settled: true })
      .updateFrom(keysFrom(trx, eshopId, ids, INTERNAL_ID));
  },

  /** `running` → `pending` again: jobs a step claimed and did not start before its time ran out. */
  async unclaim(trx: Knex | Knex.Transaction, eshopId: number, ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await trx('generation_jobs')
      .where('generation_jobs.eshop_id', trx.ref('k.eshop_id'))
      .andWhere('generation_jobs.id', trx.ref('x.id'))
      .andWhere('generation_jobs.status', trx.ref('status_in.status'))
      .update({ status: 'pending', updated_at: trx.fn.now(6) })
      .updateFrom(keysFrom(trx, eshopId, ids, INTERNAL_ID, { status: ['running'] }));
  },

  /** A job of the eshop (another eshop's job id finds nothing). */
  async find(
    db: Knex | Knex.Transaction,
    eshopId: number,
    id: number,
    opts: { lock?: boolean } = {},
  ): Promise<GenerationJob | undefined> {
    // Joined on the keys (keysFrom), like every statement here that names a job of an eshop: by
    // stale statistics a walk of the eshop's jobs through (eshop_id, entity_type, entity_id)
    // costs the same as the probe of (eshop_id, id), and the newer index of the two wins.
    const query = db
      .from(keysFrom(db, eshopId, [id], INTERNAL_ID))
      .join('generation_jobs', (join) =>
        join.on('generation_jobs.eshop_id', 'k.eshop_id').andOn('generation_jobs.id', 'x.id'),
      )
      .select(columns(db))
      .first();
    if (opts.lock) query.forUpdate('generation_jobs');
    const row = await query;
    return row ? toJob(row) : undefined;
  },

  /** The unfinished job of an entity, if any. */
  async running(
    db: Knex | Knex.Transaction,
    eshopId: number,
    entityType: string,
    entityId: string,
  ): Promise<GenerationJob | undefined> {
    // The statuses joined too: as constants they imply the partial index of unfinished jobs, which
    // an ANALYZE that saw none believes empty, and the planner reads every unfinished job of every
    // eshop through it (keysFrom).
    const row = await db
      .from(keysFrom(db, eshopId, [entityId], ENTITY_ID, { entity_type: [entityType], status: UNFINISHED }))
      .join('generation_jobs', (join) =>
        join
          .on('generation_jobs.eshop_id', 'k.eshop_id')
          .andOn('generation_jobs.entity_type', 'entity_type_in.entity_type')
          .andOn('generation_jobs.entity_id', 'x.entity_id')
          .andOn('generation_jobs.status', 'status_in.status'),
      )
      .select(columns(db))
      .first();
    return row ? toJob(row) : undefined;
  },

  /**
   * Unfinished jobs of every eshop whose row has not changed for `idleSeconds`, in id order
   * after `afterId` (a sweep pages through all of them): the candidates the stale-work sweeper
   * checks against the queue (the partial index of unfinished jobs keeps this cheap however
   * many finished jobs there are).
   */
  async staleUnfinished(
    db: Knex | Knex.Transaction,
    idleSeconds: number,
    limit: number,
    afterId = 0,
  ): Promise<GenerationJob[]> {
    const rows = await select(db)
      .whereIn('status', ['pending', 'running'])
      .where('updated_at', '<', db.raw('now() - make_interval(secs => ?)', [idleSeconds]))
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit);
    return rows.map((row) => toJob(row));
  },

  /**
   * Finished (`done`/`failed`) jobs whose reservation no settlement has charged or released,
   * idle for `idleSeconds`, in id order after `afterId`, at most `limit`: the settlements Redis
   * lost (their `settle-<id>` job gone). Through the partial index of unsettled finished jobs,
   * so the sweep reads only them however many jobs have ever finished.
   */
  async finishedUnsettled(
    db: Knex | Knex.Transaction,
    idleSeconds: number,
    limit: number,
    afterId = 0,
  ): Promise<GenerationJob[]> {
    const rows = await select(db)
      .whereIn('status', ['done', 'failed'])
      .where('reservation_settled', false)
      .where('updated_at', '<', db.raw('now() - make_interval(secs => ?)', [idleSeconds]))
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit);
    return rows.map((row) => toJob(row));
  },

  /**
   * The job's reservation is settled (charged, released, or there was none): the sweeper's
   * search for lost settlements no longer finds it. By key joined (see running). Called by the
   * settlement under the eshop's account lock.
   */
  async markSettled(trx: Knex | Knex.Transaction, eshopId: number, id: number): Promise<void> {
    await trx('generation_jobs')
      .where('generation_jobs.eshop_id', trx.ref('k.eshop_id'))
      .andWhere('generation_jobs.id', trx.ref('x.id'))
      .andWhere('generation_jobs.reservation_settled', false)
      .update({ reservation_settled: true })
      // After update(): knex checks the values against the table's row type only before updateFrom.
      .updateFrom(keysFrom(trx, eshopId, [id], INTERNAL_ID));
  },

  /** `pending` → `running`, by key and status joined (see running). */
  async markRunning(trx: Knex | Knex.Transaction, eshopId: number, id: number): Promise<void> {
    await trx('generation_jobs')
      .where('generation_jobs.eshop_id', trx.ref('k.eshop_id'))
      .andWhere('generation_jobs.id', trx.ref('x.id'))
      .andWhere('generation_jobs.status', trx.ref('status_in.status'))
      .update({ status: 'running', updated_at: trx.fn.now(6) })
      // After update(): knex checks the values against the table's row type only before updateFrom.
      .updateFrom(keysFrom(trx, eshopId, [id], INTERNAL_ID, { status: ['pending'] }));
  },

  /**
   * Ends the job `done` or `failed` and appends its `generation.succeeded` or
   * `generation.failed` event, in the caller's transaction: every way a job ends (the worker,
   * the sweeper, a job the API could not queue) tells the change feed here (the event is
   * numbered as the transaction commits).
   */
  async finish(trx: Knex.Transaction, eshopId: number, id: number, outcome: JobOutcome): Promise<void> {
    await this.finishMany(trx, eshopId, [{ id, outcome }]);
  },

  /** `finish` of several jobs of the eshop in one statement, and their events in one append. */
  async finishMany(
    trx: Knex.Transaction,
    eshopId: number,
    jobs: ReadonlyArray<{ id: number; outcome: JobOutcome }>,
  ): Promise<void> {
    if (jobs.length === 0) return;
    // A failed job keeps what it had of widgets and sources (null: left as it is). Joined on the
    // keys, the eshop id included, like find: a probe of (eshop_id, id) per job whatever the statistics.
    const values = jobs.map(({ id, outcome }) => ({
      id,
      status: outcome.status,
      ...(outcome.status === 'done'
        ? {
            widgets_created: outcome.widgetsCreated,
            widgets_skipped: outcome.widgetsSkipped ?? [],
            research_sources: outcome.researchSources ?? [],
            charged_cost: outcome.chargedCost,
            error_message: null,
          }
        : { error_message: outcome.errorMessage, charged_cost: 0 }),
      research_refused: outcome.researchRefused ?? [],
      provider: outcome.provider,
      usage: outcome.usage,
    }));
    const { rows } = await trx.raw<{ rows: unknown[] }>(
      `update generation_jobs j
          set status = w.status,
              widgets_created = coalesce(w.widgets_created, j.widgets_created),
              widgets_skipped = coalesce(w.widgets_skipped, j.widgets_skipped),
              research_sources = coalesce(w.research_sources, j.research_sources),
              research_refused = w.research_refused,
              charged_cost = w.charged_cost,
              error_message = w.error_message,
              provider = w.provider,
              usage = w.usage,
              updated_at = current_timestamp(6)
         from unnest(array[?::integer]) as k(eshop_id)
              cross join jsonb_to_recordset(?::jsonb) as w(
                id bigint, status text, widgets_created integer, widgets_skipped jsonb,
                research_sources jsonb, research_refused jsonb, charged_cost integer,
                error_message text, provider text, usage jsonb)
        where j.eshop_id = k.eshop_id and j.id = w.id
        returning j.id, j.status, j.widgets_created, j.entity_type, j.entity_id`,
      [eshopId, JSON.stringify(values)],
    );
    const ended = checkedRows<
      Pick<GenerationJobRow, 'id' | 'status' | 'widgets_created' | 'entity_type' | 'entity_id'>
    >(rows, ['id', 'status', 'widgets_created', 'entity_type', 'entity_id']).sort(
      (a, b) => Number(a.id) - Number(b.id),
    );
    await eventsRepository.append(
      trx,
      eshopId,
      ended.map((job) => ({
        type: job.status === 'done' ? 'generation.succeeded' : 'generation.failed',
        entityType: job.entity_type,
        externalId: job.entity_id,
        // The job's own details (error, cost) are read from GET /generate/{id}.
        data:
          job.status === 'done'
            ? { job_id: Number(job.id), widgets_created: job.widgets_created }
            : { job_id: Number(job.id) },
      })),
    );
  },
};
