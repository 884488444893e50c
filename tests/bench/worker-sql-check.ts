// bench:worker SQL check: the bare worker must run exactly the statements renderContent runs
// around composing and rendering (its event append included), and write what renderContent stored.
import type { Knex } from '@catalogue/db';
import { renderContents } from '@catalogue/content-store';
import type { BenchItem } from './worker-seed';
import {
  APPEND_EVENTS_SQL,
  appendEventsBindings,
  CONTENT_COLUMNS,
  contentFromBindings,
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

/**
 * Renders two seeded products of one eshop in one job with the real renderContents and checks
 * that the statements the bare worker runs are exactly the ones renderContents runs to read the
 * eshop, lock the items, store the content and mark the items (same text, same bindings, same
 * order). Returns the content it stored for the first, which the bare worker writes for every item.
 */
export async function checkBareSql(
  db: Knex,
  pair: readonly [BenchItem, BenchItem],
): Promise<{ content: ContentColumns; others: number }> {
  const [item] = pair;
  const ids = pair.map((p) => p.externalId);
  const seen: { sql: string; bindings: unknown[] }[] = [];
  const listen = (query: { sql: string; bindings?: unknown[] }) =>
    seen.push({ sql: query.sql, bindings: query.bindings ?? [] });
  db.on('query', listen);
  let outcome;
  try {
    outcome = await renderContents(db, { eshop_id: item.eshopId, entity_type: 'product', external_ids: ids });
  } finally {
    db.off('query', listen);
  }
  if ([...outcome.values()].some((o) => o !== 'composed')) {
    throw new Error(`rendering ${ids.join(', ')} for the SQL check: ${JSON.stringify([...outcome])}`);
  }
  const statements = seen.filter((q) => /^\s*(select|insert|update|with)/i.test(q.sql));
  const upsert = statements.at(-3);
  const content = contentFromBindings(upsert?.bindings ?? []);
  const second = contentFromBindings((upsert?.bindings ?? []).slice(CONTENT_COLUMNS));
  const expected = [
    { at: 0, sql: ESHOP_SQL, bindings: eshopBindings(item.eshopId) },
    { at: 1, sql: lockItemsSql(), bindings: lockItemsBindings(item.eshopId, ids) },
    {
      at: statements.length - 3,
      sql: upsertContentsSql(2),
      // Each item's own content (their names differ), in the order of the ids.
      bindings: [
        ...upsertContentsBindings(item.eshopId, [ids[0]!], content),
        ...upsertContentsBindings(item.eshopId, [ids[1]!], second),
      ],
    },
    {
      at: statements.length - 2,
      sql: MARK_RENDERED_SQL,
      bindings: markRenderedBindings('ready', item.eshopId, ids),
    },
    {
      at: statements.length - 1,
      sql: APPEND_EVENTS_SQL,
      bindings: appendEventsBindings('ready', item.eshopId, ids),
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
