// bench:worker's bare pipeline: what the pipeline does (imports of new products, 100 a request,
// one at a time per eshop, and their rendering) driven by a plain loop in one process — the
// import's statements of the equal-work handler (import-equal-work.ts: the service's, once each)
// and the bare worker's render transaction (worker-baseline.ts renderJob: renderContents'
// statements, renderItem), with `concurrency` render loops taking the imported batches as they
// come. No HTTP, no queue, no Redis. Runs inside the bare worker's process (POST /pipeline).
import type pg from 'pg';
import type { DesignCache } from '@catalogue/content-store';
import type { Knex } from '@catalogue/db';
import { productId } from './fixtures';
import { importEqualWork, type EqualWorkItem } from './import-equal-work';
import { importItem } from './import-fixtures';
import { renderJob } from './worker-baseline';

const BATCH = 100;

export interface BarePipelineRun {
  eshops: number[];
  /** External ids are `${prefix}${eshop index}-nnnnnn`, as the service's pipeline names them. */
  prefix: string;
  items: number;
  concurrency: number;
}

/** Imports and renders `run.items` new products; resolves when the last one is rendered. */
export async function barePipeline(
  pool: pg.Pool,
  designs: DesignCache,
  designDb: Knex,
  run: BarePipelineRun,
): Promise<void> {
  const perEshop = Math.ceil(run.items / run.eshops.length);
  const pending: { eshopId: number; ids: string[] }[] = [];
  let importing = run.eshops.length;
  let wake: (() => void) | undefined;
  const signal = () => {
    wake?.();
    wake = undefined;
  };
  const withClient = async <T>(f: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      return await f(client);
    } finally {
      client.release();
    }
  };
  const imports = run.eshops.map(async (eshopId, e) => {
    try {
      for (let from = 0; from < perEshop; from += BATCH) {
        const items = Array.from({ length: Math.min(BATCH, perEshop - from) }, (_, i) =>
          importItem(productId(`${run.prefix}${e}-`, from + i), from + i),
        ) as EqualWorkItem[];
        const { toRender } = await withClient((client) => importEqualWork(client, eshopId, items));
        pending.push({ eshopId, ids: toRender });
        signal();
      }
    } finally {
      importing--;
      signal();
    }
  });
  const renders = Array.from({ length: run.concurrency }, async () => {
    for (;;) {
      const job = pending.shift();
      if (job) {
        await withClient((client) => renderJob(client, designs, designDb, job.eshopId, job.ids));
        continue;
      }
      if (!importing) return;
      await new Promise<void>((resolve) => {
        const previous = wake;
        wake = () => {
          previous?.();
          resolve();
        };
      });
    }
  });
  await Promise.all([...imports, ...renders]);
}
