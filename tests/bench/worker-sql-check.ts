// bench:worker SQL check: the bare worker must write exactly what renderContents writes — the
// same content upsert (text and bindings, so the same rendered bytes), status update and event
// append — and take the same locks (the items and their content rows).
import pg from 'pg';
import type { Knex } from '@catalogue/db';
import { createDesignCache, renderContents } from '@catalogue/content-store';
import type { BenchItem } from './worker-seed';
import { renderJob, type Queryable } from './worker-baseline';
import { LOCK_ITEMS_SQL, LOCK_TREES_SQL } from './worker-baseline-sql';

interface Statement {
  sql: string;
  bindings: unknown[];
}

const isStatement = (q: Statement) => /^\s*(select|insert|update|with)/i.test(q.sql);

async function resetItems(db: Knex, eshopId: number, ids: readonly string[]): Promise<void> {
  await db('content')
    .where({ eshop_id: eshopId, entity_type: 'product' })
    .whereIn('external_id', ids)
    .delete();
  await db('products')
    .where({ eshop_id: eshopId })
    .whereIn('external_id', ids)
    .update({ status: 'generate', is_loaded: false });
}

/**
 * Renders two seeded products of one eshop in one job with the real renderContents, then again
 * with the bare worker's renderJob (from the same state), and compares what each wrote: the last
 * three statements, text and bindings. Returns how many statements each ran per job (design
 * cached).
 */
export async function checkBareSql(
  db: Knex,
  databaseUrl: string,
  pair: readonly [BenchItem, BenchItem],
): Promise<{ worker: number; bare: number }> {
  const eshopId = pair[0].eshopId;
  const ids = pair.map((p) => p.externalId);
  const designs = createDesignCache();
  await designs.get(db, eshopId, 'product');

  const worker: Statement[] = [];
  const listen = (query: { sql: string; bindings?: unknown[] }) =>
    worker.push({ sql: query.sql, bindings: query.bindings ?? [] });
  db.on('query', listen);
  let outcome;
  try {
    outcome = await renderContents(
      db,
      { eshop_id: eshopId, entity_type: 'product', external_ids: ids },
      designs,
    );
  } finally {
    db.off('query', listen);
  }
  if ([...outcome.values()].some((o) => o !== 'composed')) {
    throw new Error(`rendering ${ids.join(', ')} for the SQL check: ${JSON.stringify([...outcome])}`);
  }
  await resetItems(db, eshopId, ids);

  const bare: Statement[] = [];
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const recording: Queryable = {
    query: (text: string, values?: unknown[]) => {
      bare.push({ sql: text, bindings: values ?? [] });
      return client.query(text, values);
    },
  } as Queryable;
  try {
    await renderJob(recording, designs, db, eshopId, ids);
  } finally {
    await client.end();
  }
  await resetItems(db, eshopId, ids);

  const workerStatements = worker.filter(isStatement);
  const bareStatements = bare.filter(isStatement);
  for (let back = 1; back <= 3; back++) {
    const want = workerStatements.at(-back);
    const got = bareStatements.at(-back);
    if (got?.sql !== want?.sql || JSON.stringify(got?.bindings) !== JSON.stringify(want?.bindings)) {
      throw new Error(
        `tests/bench/worker-baseline-sql.ts is out of date with renderContents: its write ${4 - back} of 3 is\n` +
          `${got?.sql}\nwith bindings ${JSON.stringify(got?.bindings).slice(0, 300)}\nbut renderContents ran\n` +
          `${want?.sql}\nwith bindings ${JSON.stringify(want?.bindings).slice(0, 300)}`,
      );
    }
  }
  for (const lock of [LOCK_ITEMS_SQL, LOCK_TREES_SQL]) {
    if (!bareStatements.some((s) => s.sql === lock)) throw new Error(`bare worker did not run ${lock}`);
  }
  return { worker: workerStatements.length, bare: bareStatements.length };
}
