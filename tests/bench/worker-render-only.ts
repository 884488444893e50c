// bench:worker's render-only figure: the CPU the generation worker spends per item beyond the
// bare worker's writes, measured in the benchmark process on the seeded items: composing and
// rendering them (renderItem, what renderContents runs per item) and serialising the columns
// its one content write sends. No database work is timed.
import { DEFAULT_FALLBACK_POLICY } from '@catalogue/content';
import { createDesignCache, productRef, renderItem } from '@catalogue/content-store';
import {
  catalogueRepository,
  contentColumns,
  eshopsRepository,
  productRelationsRepository,
  type Knex,
  type ProductRelations,
  type StoredEntity,
} from '@catalogue/db';
import type { BenchItem } from './worker-seed';

interface Prepared {
  item: StoredEntity;
  relations: ProductRelations | undefined;
  design: Awaited<ReturnType<ReturnType<typeof createDesignCache>['get']>>;
  languages: readonly string[];
}

async function prepare(db: Knex, items: readonly BenchItem[]): Promise<Prepared[]> {
  const designs = createDesignCache();
  const out: Prepared[] = [];
  for (const eshopId of new Set(items.map((i) => i.eshopId))) {
    const eshop = (await eshopsRepository.findById(db, eshopId))!;
    const design = await designs.get(db, eshopId, 'product');
    const ids = items.filter((i) => i.eshopId === eshopId).map((i) => i.externalId);
    const stored = await db.transaction(async (trx) =>
      catalogueRepository.findForUpdate(trx, 'product', eshopId, ids),
    );
    const relations = await productRelationsRepository.forProducts(
      db,
      eshopId,
      [...stored.values()].map(productRef),
    );
    for (const item of stored.values()) {
      out.push({ item, relations: relations.get(item.id), design, languages: eshop.languages });
    }
  }
  return out;
}

/** CPU ms per item of each round over all items (the first round warms the code up too). */
export async function renderOnlyCpu(
  db: Knex,
  items: readonly BenchItem[],
  rounds: number,
): Promise<number[]> {
  const prepared = await prepare(db, items);
  const perItem: number[] = [];
  let bytes = 0;
  for (let round = 0; round < rounds; round++) {
    const started = process.cpuUsage();
    for (const p of prepared) {
      const { content } = renderItem(
        'product',
        p.item,
        undefined,
        p.relations,
        p.design,
        p.languages,
        DEFAULT_FALLBACK_POLICY,
      );
      // What the content write sends for the item's row.
      const columns = contentColumns(content);
      bytes += columns.tree.length + columns.html.length;
    }
    const used = process.cpuUsage(started);
    perItem.push((used.user + used.system) / 1000 / prepared.length);
  }
  if (bytes === 0) throw new Error('render-only: nothing was rendered');
  return perItem;
}
