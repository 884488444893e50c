// The bare worker of the worker benchmark, run as its own process like the generation worker:
// a BullMQ Worker with the settings of createWorkers and the same concurrency, one pg Pool of
// the service's default size, and, per item of a render-content job, one transaction with the
// statements of worker-baseline-sql.ts: read the eshop, lock the item, upsert a content row with
// precomputed outputs (read once from CONTENT_FILE), mark the item ready. No composition, no
// rendering, no logging, no metrics.
//
//   GET /readyz   200 once the worker is connected and Postgres answers
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { JobPayloads } from '@catalogue/queue';
import {
  ESHOP_SQL,
  eshopBindings,
  LOCK_ITEM_SQL,
  lockItemBindings,
  MARK_RENDERED_SQL,
  markRenderedBindings,
  UPSERT_CONTENT_SQL,
  upsertContentBindings,
  type ContentColumns,
} from './worker-baseline-sql';

// As createKnex does for the service: bigint ids as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export const BARE_QUEUE = 'render-content-bare';

type Payload = JobPayloads['render-content'];

/** One item in one transaction, as renderContent stores it, minus composition and rendering. */
async function storeItem(
  pool: pg.Pool,
  content: ContentColumns,
  eshopId: number,
  externalId: string,
): Promise<'composed' | 'skipped'> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN;');
    const eshop = (await client.query<{ review_required: boolean }>(ESHOP_SQL, eshopBindings(eshopId)))
      .rows[0];
    const item = (
      await client.query<{ is_delete: boolean }>(LOCK_ITEM_SQL, lockItemBindings(eshopId, externalId))
    ).rows[0];
    if (!eshop || !item || item.is_delete) {
      await client.query('COMMIT;');
      return 'skipped';
    }
    await client.query(UPSERT_CONTENT_SQL, upsertContentBindings(eshopId, externalId, content));
    await client.query(
      MARK_RENDERED_SQL,
      markRenderedBindings(eshop.review_required ? 'review' : 'ready', eshopId, externalId),
    );
    await client.query('COMMIT;');
    return 'composed';
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
      const { eshop_id, external_ids } = job.data;
      const outcomes: Record<string, number> = {};
      for (const externalId of external_ids) {
        const outcome = await storeItem(pool, content, eshop_id, externalId);
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      }
      return outcomes;
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
