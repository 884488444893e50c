import { type CatalogueEntityType, isRecord } from '@catalogue/config';
import type { DesignCategory } from '@catalogue/content';
import {
  catalogueRepository,
  contentRepository,
  contentRevisionsRepository,
  eshopsRepository,
  eventsRepository,
  type ImportRevision,
  type Knex,
  productRelationsRepository,
} from '@catalogue/db';
import { defaultDesign, structureOf } from './designs';
import { renderItem, type ComposableDesign, type RenderOutcome } from './render-item';
import { fallbackPolicyOf, productRef } from './entity-content';

/** Brands have no designs of their own; a brand page is composed like a category page. */
const DESIGN_CATEGORY = {
  product: 'product',
  category: 'category',
  brand: 'category',
  blog: 'blog',
} as const;

/**
 * The default designs of eshops, kept for a short while: a job renders up to 100 items of one
 * eshop and type, and reading the same design (three queries and a structure build) for each
 * would cost more than the composition. A design edited by an operator is used after `ttlMs`.
 */
export function createDesignCache(ttlMs = 30_000) {
  const entries = new Map<string, { at: number; design: ComposableDesign | undefined }>();
  return {
    async get(db: Knex | Knex.Transaction, eshopId: number, category: DesignCategory) {
      const key = `${eshopId}:${category}`;
      const hit = entries.get(key);
      if (hit && Date.now() - hit.at < ttlMs) return hit.design;
      const loaded = await defaultDesign(db, eshopId, category);
      const design = loaded && { structure: structureOf(loaded), templates: loaded.templates };
      entries.set(key, { at: Date.now(), design });
      return design;
    },
  };
}

export type DesignCache = ReturnType<typeof createDesignCache>;

/**
 * Whether two JSON values are equal as stored: a tree read back from jsonb has its keys in
 * another order than a freshly composed one, and a key whose value is undefined is not stored.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  // Plain loops, no arrays built: this runs on every re-rendered item of a render job.
  const left = a;
  const right = b;
  let count = 0;
  for (const key in left) {
    const value = left[key];
    if (value === undefined) continue;
    count++;
    if (!sameJson(value, right[key])) return false;
  }
  for (const key in right) if (right[key] !== undefined) count--;
  return count === 0;
}

/** One item to render. */
export interface RenderTarget {
  eshop_id: number;
  entity_type: CatalogueEntityType;
  external_id: string;
}

/** Items of one eshop and type to render together (a render-content job). */
export interface RenderBatch {
  eshop_id: number;
  entity_type: CatalogueEntityType;
  external_ids: readonly string[];
}

/**
 * The render-content job: compose each item's content from the eshop's default design and its
 * own data, render every active language and store it all in one transaction, then mark the
 * items loaded and ready (or review). Content that people made (origin `editor`) is never
 * recomposed: its tree is kept and only the outputs are rendered again, so the data-driven
 * parts (rich snippet, site links) follow the new data. Running it twice stores the same thing.
 *
 * Set-based: one locking read of the items (id order, as imports lock them), one of their
 * content rows, for products one read of their brands, parameters and variants (each brand and
 * parameter once for the batch), one multi-row content write, one status update and one event
 * append for the whole batch, whatever its size; only composing and rendering run per item
 * (renderItem). Items whose recomposed tree differs from the stored one get an `import`
 * revision, all in one statement before the write (none when nothing changed).
 * Returns each item's outcome.
 */
export async function renderContents(
  db: Knex,
  batch: RenderBatch,
  designs: DesignCache = createDesignCache(0),
): Promise<Map<string, RenderOutcome>> {
  const { eshop_id: eshopId, entity_type: type } = batch;
  const ids = [...new Set(batch.external_ids)];
  return db.transaction(async (trx) => {
    const outcomes = new Map<string, RenderOutcome>(ids.map((id) => [id, 'skipped']));
    const eshop = await eshopsRepository.findById(trx, eshopId);
    if (!eshop) return outcomes;
    const items = [...(await catalogueRepository.findForUpdate(trx, type, eshopId, ids)).values()].filter(
      (item) => !item.isDelete,
    );
    if (!items.length) return outcomes;
    const externalIds = items.map((item) => item.externalId);
    // One locking read of the items' content rows, and (for products) one of their relations.
    const trees = await contentRepository.lockTrees(trx, eshopId, type, externalIds);
    const relations =
      type === 'product'
        ? await productRelationsRepository.forProducts(trx, eshopId, items.map(productRef))
        : undefined;
    const design = await designs.get(trx, eshopId, DESIGN_CATEGORY[type]);
    const policy = fallbackPolicyOf(eshop);

    const changed: ImportRevision[] = [];
    const contents = items.map((item) => {
      const stored = trees.get(item.externalId);
      const { outcome, content } = renderItem(
        type,
        item,
        stored,
        relations?.get(item.id),
        design,
        eshop.languages,
        policy,
      );
      outcomes.set(item.externalId, outcome);
      // A recomposed tree that differs from the stored one is a revision (people's content is
      // kept as it is, and a first composition replaces nothing).
      if (outcome === 'composed' && stored !== undefined && !sameJson(stored.tree, content.tree)) {
        changed.push({ externalId: item.externalId, tree: content.tree, html: content.html });
      }
      return { externalId: item.externalId, content };
    });
    // One statement for the job's revisions (none when no stored tree changed), before the write.
    await contentRevisionsRepository.recordImports(trx, eshopId, type, changed);
    await contentRepository.saveMany(trx, eshopId, type, contents);
    const status = eshop.reviewRequired ? 'review' : 'ready';
    const marked = new Set(
      await catalogueRepository.markRenderedMany(trx, type, eshopId, externalIds, status),
    );
    // One `item.content_ready` per item this job made ready (a repeated job marks nothing and
    // tells nobody twice), in the job's transaction (numbered as it commits).
    await eventsRepository.append(
      trx,
      eshopId,
      externalIds
        .filter((id) => marked.has(id))
        .map((externalId) => ({
          type: 'item.content_ready',
          entityType: type,
          externalId,
          data: { status },
        })),
    );
    return outcomes;
  });
}

/** One item's render-content (renderContents of a batch of one). */
export async function renderContent(
  db: Knex,
  target: RenderTarget,
  designs: DesignCache = createDesignCache(0),
): Promise<RenderOutcome> {
  const outcomes = await renderContents(
    db,
    { eshop_id: target.eshop_id, entity_type: target.entity_type, external_ids: [target.external_id] },
    designs,
  );
  return outcomes.get(target.external_id)!;
}
