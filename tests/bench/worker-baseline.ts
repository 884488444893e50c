// The bare worker of the worker benchmark, run as its own process like the generation worker:
// a BullMQ Worker with the settings of createWorkers and the same concurrency, one pg Pool of
// the service's default size, and, per render-content job, one transaction with the set-based
// statements of worker-baseline-sql.ts: read the eshop, lock the job's items, upsert their content
// rows with precomputed outputs (read once from CONTENT_FILE) in one statement, mark them ready in
// one and append their item.content_ready events in one. No composition, no rendering, no
// logging, no metrics.
//
//   GET /readyz   200 once the worker is connected and Postgres answers
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { JobPayloads } from '@catalogue/queue';
import {
  APPEND_EVENTS_SQL,
  appendEventsBindings,
  ESHOP_SQL,
  eshopBindings,
  lockItemsBindings,
  lockItemsSql,
  MARK_RENDERED_SQL,
  markRenderedBindings,
  upsertContentsBindings,
  upsertContentsSql,
  type ContentColumns,
} from './worker-baseline-sql';

// As createKnex does for the service: bigint ids as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export const BARE_QUEUE = 'render-content-bare';

type Payload = JobPayloads['render-content'];

/** A job's items in one transaction, as renderContents stores them, minus composing and rendering. */
async function storeItems(
  pool: pg.Pool,
  content: ContentColumns,
  eshopId: number,
  externalIds: readonly string[],
): Promise<Record<string, number>> {
  const ids = [...new Set(externalIds)];
  const client = await pool.connect();
  try {
    await client.query('BEGIN;');
    const eshop = (await client.query<{ review_required: boolean }>(ESHOP_SQL, eshopBindings(eshopId)))
      .rows[0];
    const items = eshop
      ? (
          await client.query<{ external_id: string; is_delete: boolean }>(
            lockItemsSql(),
            lockItemsBindings(eshopId, ids),
          )
        ).rows.filter((item) => !item.is_delete)
      : [];
    const live = items.map((item) => item.external_id);
    if (eshop && live.length) {
      await client.query(upsertContentsSql(live.length), upsertContentsBindings(eshopId, live, content));
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
    }
    await client.query('COMMIT;');
    return { composed: live.length, skipped: ids.length - live.length };
  } catch (err) {
    await client.query('ROLLBACK;').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

async function main(): Promise<void> {
  const content = JSON.parse(readFileSync(process.env.CONTENT_FILE!, 'utf8')) as ContentColumns;
  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL,
    max: 10,
    application_name: 'bare-worker',
  });
  const connection = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
  const worker = new Worker<Payload>(
    BARE_QUEUE,
    async (job: Job<Payload>) => {
      return storeItems(pool, content, job.data.eshop_id, job.data.external_ids);
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
