// bench:worker SQL check: the bare worker must run exactly the statements renderContent runs
// around composing and rendering, and write what renderContent stored.
import type { Knex } from '@catalogue/db';
import { renderContent } from '@catalogue/content-store';
import type { BenchItem } from './worker-seed';
import {
  contentFromBindings,
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

/**
 * Renders one seeded product with the real renderContent and checks that the statements the
 * bare worker runs are exactly the ones renderContent runs to read the eshop, lock the item,
 * store the content and mark the item (same text, same bindings, same order). Returns the
 * content it stored, which the bare worker writes for every item.
 */
export async function checkBareSql(
  db: Knex,
  item: BenchItem,
): Promise<{ content: ContentColumns; others: number }> {
  const seen: { sql: string; bindings: unknown[] }[] = [];
  const listen = (query: { sql: string; bindings?: unknown[] }) =>
    seen.push({ sql: query.sql, bindings: query.bindings ?? [] });
  db.on('query', listen);
  let outcome;
  try {
    outcome = await renderContent(db, {
      eshop_id: item.eshopId,
      entity_type: 'product',
      external_id: item.externalId,
    });
  } finally {
    db.off('query', listen);
  }
  if (outcome !== 'composed') throw new Error(`rendering ${item.externalId} for the SQL check: ${outcome}`);
  const statements = seen.filter((q) => /^\s*(select|insert|update|with)/i.test(q.sql));
  const upsert = statements.at(-2);
  const content = contentFromBindings(upsert?.bindings ?? []);
  const expected = [
    { at: 0, sql: ESHOP_SQL, bindings: eshopBindings(item.eshopId) },
    { at: 1, sql: LOCK_ITEM_SQL, bindings: lockItemBindings(item.eshopId, item.externalId) },
    {
      at: statements.length - 2,
      sql: UPSERT_CONTENT_SQL,
      bindings: upsertContentBindings(item.eshopId, item.externalId, content),
    },
    {
      at: statements.length - 1,
      sql: MARK_RENDERED_SQL,
      bindings: markRenderedBindings('ready', item.eshopId, item.externalId),
    },
  ];
  for (const want of expected) {
    const got = statements[want.at];
    if (got?.sql !== want.sql || JSON.stringify(got.bindings) !== JSON.stringify(want.bindings)) {
      throw new Error(
        `tests/bench/worker-baseline-sql.ts is out of date with renderContent; statement ${want.at + 1} ` +
          `of ${statements.length} is now:\n${got?.sql}\nwith bindings ${JSON.stringify(got?.bindings).slice(0, 500)}`,
      );
    }
  }
  return { content, others: statements.length - expected.length };
}
