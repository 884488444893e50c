/**
 * The editor's content operations on one registered entity: read, add, reorder, delete, the DOM
 * and copying widgets between entities. Every write goes through `saveEditorContent` in one
 * transaction, so each edit re-renders every language of the eshop and the catalogue lists
 * serve it at once. Decisions: docs/decisions/0008-white-label-api-content-operations.md, "White-label API: content operations".
 */
import {
  copyWidgets,
  idsAfter,
  insertWidget,
  isPermutation,
  maxElementId,
  maxWidgetId,
  publicTree,
  removeWidget,
  renderHtml,
  reorderWidgets,
  starterWidget,
  withWidgetHtml,
  sampleIn,
  type ContentWidget,
  type Language,
} from '@catalogue/content';
import {
  contentDraftsRepository,
  contentRepository,
  type Knex,
  type WlEntity,
  type WlEntityType,
} from '@catalogue/db';
import {
  fallbackPolicyOf,
  saveEditorContent,
  widgetTemplates,
  type EditorRevisionSource,
  type EntitySources,
  type RenderingEshop,
} from '@catalogue/content-store';
import { NotFoundError, ValidationError } from '@catalogue/http';
import type { ContentPostInput, CopyWidgetInput } from '../schemas/content.schema';
import { newWidgetFromElements } from './content-elements';
import { requireEntity, requireEntityOrItem } from './entities.service';
import { refuseStaleVersion } from './content-version';

export interface ContentTarget {
  eshop: RenderingEshop;
  type: WlEntityType;
  entityId: string;
  /** The content versions the client accepts (If-Match); absent: written whatever it is now. */
  ifMatch?: readonly number[];
  /**
   * Called in the edit's transaction with the content as answered (its widgets in the answer's
   * language): an Idempotency-Key's outcome commits with the edit (docs/decisions/0044-idempotency-outcomes-in-the-write.md).
   */
  recordOutcome?: (trx: Knex, content: VersionedContent) => Promise<void>;
}

/** Content widgets and the content version they are (the ETag of the answer). */
export interface VersionedContent {
  widgets: ContentWidget[];
  version: number;
}

/** A stored tree as an array (stored trees come from JSON; anything else counts as empty). */
function treeOf(stored: unknown): ContentWidget[] {
  return Array.isArray(stored)
    ? stored.filter((w: unknown): w is ContentWidget => typeof w === 'object' && w !== null)
    : [];
}

const keyOf = (target: ContentTarget) => ({
  eshopId: target.eshop.id,
  entityType: target.type,
  externalId: target.entityId,
});

/** The rich snippet's name when no catalogue item has one: the title the host registered. */
function fallbackName(entity: WlEntity) {
  return Object.keys(entity.title).length > 0 ? entity.title : null;
}

async function storedTree(db: Knex | Knex.Transaction, target: ContentTarget): Promise<ContentWidget[]> {
  return treeOf((await contentRepository.find(db, keyOf(target)))?.tree);
}

/**
 * The content widgets of an entity as the editor shows them (its draft when it has one, else the
 * published content), each widget's `html` rendered (sanitised) in `lang`, and the version they
 * are (read together).
 */
export async function listContent(
  db: Knex,
  target: ContentTarget,
  lang: Language,
): Promise<VersionedContent> {
  await requireEntity(db, target.eshop.id, target.type, target.entityId);
  const { tree, version } = await contentDraftsRepository.editorView(db, keyOf(target));
  return { widgets: sampleIn(withWidgetHtml(treeOf(tree), lang), lang), version };
}

/**
 * One edit in one transaction: the registered entity (404), the If-Match version under the
 * content lock (412), then `build` derives the new tree from the stored one (or throws a typed
 * error: nothing is written). Widget `html` is stored in `default` and answered in `lang`. The
 * write is a revision of `source` (people in the editor unless told).
 */
export async function editContent(
  db: Knex,
  target: ContentTarget,
  lang: Language,
  build: (
    tree: ContentWidget[],
    trx: Knex.Transaction,
    sources: EntitySources | undefined,
  ) => ContentWidget[] | Promise<ContentWidget[]>,
  /** The target entity, read in the edit's transaction (404 unless registered, by default). */
  entityOf: (
    trx: Knex.Transaction,
    eshopId: number,
    type: WlEntityType,
    entityId: string,
  ) => Promise<WlEntity> = requireEntity,
  source: EditorRevisionSource = { kind: 'editor' },
): Promise<VersionedContent> {
  const saved = await refuseStaleVersion(
    db.transaction(async (trx) => {
      const entity = await entityOf(trx, target.eshop.id, target.type, target.entityId);
      const result = await saveEditorContent(
        trx,
        {
          eshop: target.eshop,
          entityType: target.type,
          externalId: target.entityId,
          fallbackName: fallbackName(entity),
          source,
          ifMatch: target.ifMatch,
        },
        async (current, sources) => withWidgetHtml(await build(treeOf(current), trx, sources), 'default'),
      );
      await target.recordOutcome?.(trx, {
        widgets: sampleIn(withWidgetHtml(result.tree, lang), lang),
        version: result.version,
      });
      return result;
    }),
  );
  return { widgets: sampleIn(withWidgetHtml(saved.tree, lang), lang), version: saved.version };
}

/**
 * Adds a catalogue widget. Without `json` it starts from the item's own data where its type has
 * a source and from the catalogue's samples, marked as such, elsewhere (libs/content
 * `starterWidget`): the person sees what to fill, a storefront never receives the samples.
 */
async function addWidget(
  trx: Knex.Transaction,
  tree: ContentWidget[],
  input: ContentPostInput & { widget_id: number },
  sources: EntitySources | undefined,
): Promise<ContentWidget[]> {
  const position = input.position ?? tree.length;
  if (position > tree.length) {
    throw new ValidationError({
      position: [`The position field must not be greater than ${tree.length} (the number of widgets).`],
    });
  }
  const template = (await widgetTemplates(trx)).find((w) => w.id === input.widget_id);
  if (template === undefined)
    throw new ValidationError({ widget_id: ['The selected widget_id is invalid.'] });
  const id = maxWidgetId(tree) + 1;
  const nextElementId = idsAfter(maxElementId(tree));
  const widget =
    input.json !== undefined && input.json.length > 0
      ? newWidgetFromElements(template, input.json, id, nextElementId)
      : starterWidget(
          template,
          { item: sources?.compose ?? null, url: sources?.snippet.url ?? null },
          id,
          nextElementId,
        );
  return insertWidget(tree, widget, position);
}

/**
 * Content POST. `widget_id` (+ `position`, `json`) adds a widget; `ord` reorders. `added`, when
 * sent, must agree: true for an add, false for a reorder.
 */
export function addOrReorder(
  db: Knex,
  target: ContentTarget,
  input: ContentPostInput,
  lang: Language,
): Promise<VersionedContent> {
  const adding = input.widget_id !== undefined;
  if (adding === (input.ord !== undefined)) {
    throw new ValidationError({
      widget_id: ['Send either widget_id (to add a widget) or ord (to reorder the widgets).'],
    });
  }
  if (input.added !== undefined && input.added !== adding) {
    throw new ValidationError({
      added: [
        adding
          ? 'The added field must be true when widget_id is sent.'
          : 'The added field must be false when ord is sent.',
      ],
    });
  }
  if (!adding && (input.position !== undefined || input.json !== undefined)) {
    throw new ValidationError({
      ord: ['The position and json fields belong to adding a widget, not to ord.'],
    });
  }
  return editContent(db, target, lang, (tree, trx, sources) => {
    if (input.widget_id !== undefined) {
      return addWidget(trx, tree, { ...input, widget_id: input.widget_id }, sources);
    }
    const order = input.ord ?? [];
    if (!isPermutation(tree, order)) {
      throw new ValidationError({
        ord: [
          `The ord field must list every content widget id of the entity exactly once (${tree.map((w) => w.id).join(', ') || 'none'}).`,
        ],
      });
    }
    return reorderWidgets(tree, order);
  });
}

/** DELETE of one content widget; 404 when the entity has no widget with that id. */
export function deleteWidget(
  db: Knex,
  target: ContentTarget,
  widgetId: number,
  lang: Language,
): Promise<VersionedContent> {
  return editContent(db, target, lang, (tree) => {
    const rest = removeWidget(tree, widgetId);
    if (rest === undefined) throw new NotFoundError(`Content widget ${widgetId} not found`);
    return rest;
  });
}

/**
 * The entity's whole content rendered in one language, as the lists serve it (the same renderer,
 * without sample content: a host page may show it); the published content, never a draft.
 */
export async function contentDom(db: Knex, target: ContentTarget, lang: Language) {
  await requireEntity(db, target.eshop.id, target.type, target.entityId);
  const html = renderHtml(publicTree(await storedTree(db, target)), lang, fallbackPolicyOf(target.eshop));
  return { entity_id: target.entityId, entity_type: target.type, html };
}

/**
 * Appends copies of the source entity's widgets (fresh ids) to the target's content; the
 * target's own widgets stay. The source must be registered; the target too, or be a catalogue
 * item of the eshop never opened in the editor, which is registered in the same transaction
 * (`requireEntityOrItem`). Copying an entity onto itself or copying nothing is refused so the
 * editor can tell the person (and registers nothing).
 */
export async function copyWidgetsBetween(
  db: Knex,
  eshop: ContentTarget['eshop'],
  input: CopyWidgetInput,
  lang: Language,
  ifMatch?: readonly number[],
  /** Stores the Idempotency-Key's outcome in the copy's transaction (ContentTarget's). */
  recordOutcome?: ContentTarget['recordOutcome'],
): Promise<VersionedContent> {
  if (input.source_entity_id === input.target_entity_id) {
    throw new ValidationError({
      target_entity_id: ['The target_entity_id field must be different from source_entity_id.'],
    });
  }
  const source: ContentTarget = { eshop, type: input.type, entityId: input.source_entity_id };
  // If-Match names the version of the target's content (the one written).
  const target: ContentTarget = {
    eshop,
    type: input.type,
    entityId: input.target_entity_id,
    ifMatch,
    recordOutcome,
  };
  const copy = async (tree: ContentWidget[], trx: Knex.Transaction) => {
    await requireEntity(trx, eshop.id, source.type, source.entityId);
    // What the person sees of the source in the editor: its draft when it has one.
    const widgets = treeOf((await contentDraftsRepository.editorView(trx, keyOf(source))).tree);
    if (widgets.length === 0) {
      throw new ValidationError({ source_entity_id: ['The source entity has no content to copy.'] });
    }
    const copies = copyWidgets(widgets, maxWidgetId(tree), idsAfter(maxElementId(tree)));
    return [...tree, ...copies].map((widget, key) => ({ ...widget, key }));
  };
  return editContent(db, target, lang, copy, requireEntityOrItem);
}
