/**
 * One catalogue item's content, rendered without the database: the pure part of a render-content
 * job (render-content.ts), and what bench:worker times alone.
 */
import type { CatalogueEntityType } from '@catalogue/config';
import {
  composeFromEntity,
  renderAll,
  renderComposed,
  type ContentWidget,
  type DesignStructure,
  type FallbackPolicy,
  type WidgetTemplate,
} from '@catalogue/content';
import type { ProductRelations, StoredContent, StoredEntity } from '@catalogue/db';
import { sourcesOf } from './entity-content';

export type RenderOutcome =
  /** Content composed from the item's data and stored. */
  | 'composed'
  /** People's content (editor) kept; only the data-driven outputs were re-rendered. */
  | 'refreshed'
  /** The item is gone or deleted: nothing to do. */
  | 'skipped';

/** A design ready for composition: its structure and the templates of its widgets. */
export interface ComposableDesign {
  structure: DesignStructure;
  templates: WidgetTemplate[];
}

/**
 * One item's content, rendered without touching the database (the pure part of a render-content
 * job): people's content (origin `editor`) keeps its tree and only its outputs are rendered
 * again; anything else is composed from the item's data with the default design (nothing
 * without one). A composed tree's widgets get their own `html` while the page renders.
 */
export function renderItem(
  type: CatalogueEntityType,
  item: StoredEntity,
  kept: Pick<StoredContent, 'origin' | 'tree'> | undefined,
  relations: ProductRelations | undefined,
  design: ComposableDesign | undefined,
  languages: readonly string[],
  policy: FallbackPolicy,
): { outcome: Exclude<RenderOutcome, 'skipped'>; content: StoredContent } {
  const sources = sourcesOf(type, item, relations);
  if (kept?.origin === 'editor') {
    const tree = kept.tree as ContentWidget[];
    const outputs = renderAll(tree, sources.snippet, languages, policy);
    return { outcome: 'refreshed', content: { origin: 'editor', tree, ...outputs } };
  }
  const tree = design
    ? composeFromEntity(design.structure, design.templates, sources.compose, { htmlLanguage: null })
    : [];
  const outputs = renderComposed(tree, sources.snippet, languages, 'default', policy);
  return { outcome: 'composed', content: { origin: 'composed', tree, ...outputs } };
}
