// The bare worker of the worker benchmark, run as its own process like the generation worker:
// a BullMQ Worker with the settings of createWorkers and the same concurrency, one pg Pool of
// the service's default size, and, per render-content job, one transaction of the set-based
// statements of worker-baseline-sql.ts with raw pg: read the eshop's settings, lock the job's
// items and their content rows, read their brands, parameters and variants, render each item
// with the real renderItem (the eshop's default design cached as the worker caches it), upsert
// their content rows in one statement, mark them ready in one and append their
// item.content_ready events in one. No knex on the way (only for the cached design read), no
// logging, no metrics, no job bookkeeping beyond BullMQ's.
//
//   GET /readyz   200 once the worker is connected and Postgres answers
//   POST /pipeline  the bare pipeline of worker-bare-pipeline.ts (JSON BarePipelineRun), 200 when done
import { createServer } from 'node:http';
import { Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { FallbackPolicy } from '@catalogue/content';
import { createDesignCache, renderItem, type DesignCache } from '@catalogue/content-store';
import {
  CONTENT_WRITE_ROWS,
  contentColumns,
  createKnex,
  type Knex,
  type LangMap,
  type ProductRelations,
  type StoredEntity,
} from '@catalogue/db';
import type { JobPayloads } from '@catalogue/queue';
import {
  APPEND_EVENTS_SQL,
  appendEventsBindings,
  ESHOP_SQL,
  LOCK_ITEMS_SQL,
  LOCK_TREES_SQL,
  MARK_RENDERED_SQL,
  markRenderedBindings,
  PRODUCT_FIELDS,
  RELATIONS_SQL,
  relationsBindings,
  upsertContentsBindings,
  upsertContentsSql,
  type ContentColumns,
  type EshopRow,
} from './worker-baseline-sql';
import { barePipeline, type BarePipelineRun } from './worker-bare-pipeline';

// As createKnex does for the service: bigint ids as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export const BARE_QUEUE = 'render-content-bare';

type Payload = JobPayloads['render-content'];

/** What the bare worker needs of a pg client (a pool's client; the SQL check records it). */
export interface Queryable {
  query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

type ProductRow = Record<(typeof PRODUCT_FIELDS)[number], unknown> & {
  id: number;
  external_id: string;
  status: StoredEntity['status'];
  is_visible: boolean;
  is_delete: boolean;
};

interface RelationsRow {
  variants: Record<string, ProductRelations['variants']> | null;
  brands: Record<string, LangMap> | null;
  parameters: Record<string, (ProductRelations['parameters'][number] & { names?: LangMap | null })[]> | null;
}

/**
 * A render-content job's items in one transaction (on a client that is not in one), as
 * renderContents stores them: the same reads, renderItem per item, the same writes.
 */
export async function renderJob(
  client: Queryable,
  designs: DesignCache,
  designDb: Knex,
  eshopId: number,
  externalIds: readonly string[],
): Promise<Record<string, number>> {
  const ids = [...new Set(externalIds)];
  await client.query('BEGIN');
  try {
    const eshop = (await client.query<EshopRow>(ESHOP_SQL, [eshopId])).rows[0];
    const items = eshop
      ? (await client.query<ProductRow>(LOCK_ITEMS_SQL, [eshopId, ids])).rows.filter((row) => !row.is_delete)
      : [];
    if (!eshop || !items.length) {
      await client.query('COMMIT');
      return { skipped: ids.length };
    }
    const live = items.map((item) => item.external_id);
    const trees = new Map(
      (
        await client.query<{ external_id: string; origin: 'composed' | 'editor'; tree: unknown }>(
          LOCK_TREES_SQL,
          [eshopId, live, 'product'],
        )
      ).rows.map((row) => [row.external_id, row]),
    );
    const refs = items.map((item) => ({ id: item.id, brandId: (item.brand_id as string | null) ?? null }));
    const relations = (await client.query<RelationsRow>(RELATIONS_SQL, relationsBindings(eshopId, refs)))
      .rows[0]!;
    const design = await designs.get(designDb, eshopId, 'product');
    const policy: FallbackPolicy = {
      mode: eshop.content_fallback,
      defaultLanguage: eshop.default_language,
    } as FallbackPolicy;
    const rows: { externalId: string; columns: ContentColumns }[] = [];
    let refreshed = 0;
    for (const row of items) {
      const fields: Record<string, unknown> = {};
      for (const c of PRODUCT_FIELDS) fields[c] = row[c];
      const item: StoredEntity = {
        id: row.id,
        externalId: row.external_id,
        status: row.status,
        isVisible: row.is_visible,
        isDelete: row.is_delete,
        fields,
      };
      const brandId = fields.brand_id as string | null;
      const own: ProductRelations = {
        brand: (brandId !== null && relations.brands?.[brandId]) || null,
        parameters: (relations.parameters?.[String(row.id)] ?? []).map(({ names, ...parameter }) =>
          names && Object.keys(names).length ? { ...parameter, names } : parameter,
        ),
        variants: relations.variants?.[String(row.id)] ?? [],
      };
      const stored = trees.get(row.external_id);
      const { outcome, content } = renderItem(
        'product',
        item,
        stored as Parameters<typeof renderItem>[2],
        own,
        design,
        eshop.languages,
        policy,
      );
      if (outcome === 'refreshed') refreshed++;
      rows.push({ externalId: row.external_id, columns: contentColumns(content) as ContentColumns });
    }
    // As contentRepository.saveMany writes them: CONTENT_WRITE_ROWS a statement.
    for (let start = 0; start < rows.length; start += CONTENT_WRITE_ROWS) {
      const chunk = rows.slice(start, start + CONTENT_WRITE_ROWS);
      await client.query(upsertContentsSql(chunk.length), upsertContentsBindings(eshopId, chunk));
    }
    const status = eshop.review_required ? 'review' : 'ready';
    const marked = new Set(
      (
        await client.query<{ external_id: string }>(
          MARK_RENDERED_SQL,
          markRenderedBindings(status, eshopId, live),
        )
      ).rows.map((row) => row.external_id),
    );
    const ready = live.filter((id) => marked.has(id));
    if (ready.length) await client.query(APPEND_EVENTS_SQL, appendEventsBindings(status, eshopId, ready));
    await client.query('COMMIT');
    return { composed: live.length - refreshed, refreshed, skipped: ids.length - live.length };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

async function main(): Promise<void> {
  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL,
    max: 10,
    application_name: 'bare-worker',
    ...(process.env.DATABASE_CONNECT_TIMEOUT_MS && {
      connectionTimeoutMillis: Number(process.env.DATABASE_CONNECT_TIMEOUT_MS),
    }),
  });
  // Only for the default design, read through the same cache as the worker's (30 s).
  const designDb = createKnex({
    url: process.env.DATABASE_URL!,
    poolMin: 0,
    poolMax: 1,
    statementTimeoutMs: 30_000,
    applicationName: 'bare-worker',
    // As the generation worker's (DATABASE_CONNECT_TIMEOUT_MS, passed on a loaded machine).
    ...(process.env.DATABASE_CONNECT_TIMEOUT_MS && {
      connectTimeoutMs: Number(process.env.DATABASE_CONNECT_TIMEOUT_MS),
    }),
  });
  const designs = createDesignCache();
  const connection = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
  const worker = new Worker<Payload>(
    BARE_QUEUE,
    async (job: Job<Payload>) => {
      const client = await pool.connect();
      try {
        return await renderJob(client, designs, designDb, job.data.eshop_id, job.data.external_ids);
      } finally {
        client.release();
      }
    },
    {
      connection,
      prefix: process.env.QUEUE_PREFIX!,
      concurrency: Number(process.env.WORKER_CONCURRENCY),
      // As createWorkers.
      lockDuration: 60_000,
      stalledInterval: 30_000,
      maxStalledCount: 2,
    },
  );
  worker.on('error', (err) => process.stderr.write(`bare worker error: ${err.message}\n`));
  worker.on('failed', (job, err) =>
    process.stderr.write(`bare worker job ${job?.id} failed: ${err.message}\n`),
  );
  await worker.waitUntilReady();

  const server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/pipeline') {
      // The bare pipeline (worker-bare-pipeline.ts): answers when every item is rendered.
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        barePipeline(pool, designs, designDb, JSON.parse(body) as BarePipelineRun).then(
          () => res.writeHead(200).end(),
          (err: Error) => res.writeHead(500).end(err.stack ?? err.message),
        );
      });
      return;
    }
    if (req.url !== '/readyz') {
      res.writeHead(404).end();
      return;
    }
    pool.query('select 1').then(
      () => res.writeHead(worker.isRunning() ? 200 : 503).end(),
      () => res.writeHead(503).end(),
    );
  }).listen(Number(process.env.PORT), '127.0.0.1');

  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    server.close();
    void worker
      .close()
      .then(() => pool.end())
      .then(() => designDb.destroy())
      .then(() => connection.quit())
      .finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (require.main === module) {
  main().catch((err: Error) => {
    process.stderr.write(`bare worker failed to start: ${err.stack ?? err.message}\n`);
    process.exit(1);
  });
}
