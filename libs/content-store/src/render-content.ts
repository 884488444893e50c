import {
  composeFromEntity,
  renderAll,
  type ContentWidget,
  type DesignCategory,
  type DesignStructure,
  type WidgetTemplate,
} from '@catalogue/content';
import {
  catalogueRepository,
  contentRepository,
  eshopsRepository,
  type EntityType,
  type Knex,
} from '@catalogue/db';
import { defaultDesign, structureOf } from './designs';
import { lockContentAndSources } from './entity-content';

export type RenderOutcome =
  /** Content composed from the item's data and stored. */
  | 'composed'
  /** People's content (editor) kept; only the data-driven outputs were re-rendered. */
  | 'refreshed'
  /** The item is gone or deleted: nothing to do. */
  | 'skipped';

/** Brands have no designs of their own; a brand page is composed like a category page. */
const DESIGN_CATEGORY = {
  product: 'product',
  category: 'category',
  brand: 'category',
  blog: 'blog',
} as const;

/** A design ready for composition: its structure and the templates of its widgets. */
export interface ComposableDesign {
  structure: DesignStructure;
  templates: WidgetTemplate[];
}

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

/** One item to render. */
export interface RenderTarget {
  eshop_id: number;
  entity_type: EntityType;
  external_id: string;
}

/**
 * The render-content job: compose the item's content from the eshop's default design and its
 * own data, render every active language and store it all in one transaction, then mark the
 * item loaded and ready (or review). Content that people made (origin `editor`) is never
 * recomposed: its tree is kept and only the outputs are rendered again, so the data-driven
 * parts (rich snippet, site links) follow the new data. Running it twice stores the same thing.
 */
export async function renderContent(
  db: Knex,
  target: RenderTarget,
  designs: DesignCache = createDesignCache(0),
): Promise<RenderOutcome> {
  const { eshop_id: eshopId, entity_type: type, external_id: externalId } = target;
  return db.transaction(async (trx) => {
    const eshop = await eshopsRepository.findById(trx, eshopId);
    const item = (await catalogueRepository.findForUpdate(trx, type, eshopId, [externalId])).get(externalId);
    if (!eshop || !item || item.isDelete) return 'skipped';

    const key = { eshopId, entityType: type, externalId };
    const { existing, sources } = await lockContentAndSources(trx, type, key, item);
    let tree: ContentWidget[];
    if (existing?.origin === 'editor') {
      tree = existing.tree as ContentWidget[];
    } else {
      const design = await designs.get(trx, eshopId, DESIGN_CATEGORY[type]);
      tree = design ? composeFromEntity(design.structure, design.templates, sources.compose) : [];
    }
    const outputs = renderAll(tree, sources.snippet, eshop.languages);
    await contentRepository.save(trx, key, { origin: existing?.origin ?? 'composed', tree, ...outputs });
    await catalogueRepository.markRendered(
      trx,
      type,
      eshopId,
      externalId,
      eshop.reviewRequired ? 'review' : 'ready',
    );
    return existing?.origin === 'editor' ? 'refreshed' : 'composed';
  });
}
