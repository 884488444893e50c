/**
 * The content of one entity together with the data it is rendered from. Shared by the
 * generation worker (render-content, generate) and the white-label editor, so that every
 * writer locks in the same order, renders with the same data and touches the same rows.
 */
import type { CatalogueEntityType, ContentEntityType } from '@catalogue/config';
import {
  renderAll,
  type ComposeEntity,
  type ComposeParameter,
  type ContentWidget,
  type FallbackPolicy,
  type RenderedContent,
  type SnippetEntity,
  type Text,
} from '@catalogue/content';
import {
  catalogueRepository,
  contentDraftsRepository,
  contentRepository,
  contentRevisionsRepository,
  type EditableContent,
  type Eshop,
  eventsRepository,
  type Knex,
  type LangMap,
  type ProductRef,
  type ProductRelations,
  productRelationsRepository,
  type RevisionSource,
  type StoredEntity,
} from '@catalogue/db';

export interface EntitySources {
  compose: ComposeEntity;
  snippet: SnippetEntity;
}

/** Content entity types that have a catalogue item of the same external id. */
export const CATALOGUE_TYPE_OF: Partial<Record<ContentEntityType, CatalogueEntityType>> = {
  product: 'product',
  category: 'category',
  brand: 'brand',
  blog: 'blog',
};

/** A product's references to its relations, as its stored fields name them. */
export function productRef(item: StoredEntity): ProductRef {
  const f = item.fields;
  return {
    id: item.id,
    brandId: typeof f.brand_id === 'string' ? f.brand_id : null,
    parameterIds: Array.isArray(f.parameters_ids)
      ? f.parameters_ids.filter((id): id is number => typeof id === 'number')
      : [],
  };
}

/** A catalogue item's images: its `images`, else its `image_preview`, else none. */
export function itemImages(fields: Record<string, unknown>): string[] {
  const images = fields.images;
  if (Array.isArray(images)) return images.filter((i): i is string => typeof i === 'string');
  return typeof fields.image_preview === 'string' && fields.image_preview !== ''
    ? [fields.image_preview]
    : [];
}

/** What a catalogue item says in one language, as generation reads it (each text trimmed, never blank). */
export interface LanguageMaterial {
  name?: string;
  short_description?: string;
  /** HTML. */
  description?: string;
  /** The product's parameters, one `Name: value, value` line each, with the product's values. */
  parameter?: string;
  brand?: string;
  categories?: string[];
  /** The item's page. */
  url?: string;
}

/** What generation may use of a catalogue item: its images, and its texts language by language. */
export interface GenerationMaterial {
  /** Whether a catalogue item of the same external id and type exists (not deleted). */
  found: boolean;
  images: string[];
  url: LangMap;
  /** The item's data in `lang` only: another language's text never stands in for it. */
  in(lang: string): LanguageMaterial;
}

const NO_MATERIAL: GenerationMaterial = { found: false, images: [], url: {}, in: () => ({}) };

/** Whether a parameter has several values (Array.isArray narrows no readonly array). */
function isList(value: ComposeParameter['value']): value is readonly string[] {
  return Array.isArray(value);
}

const textIn = (text: unknown, lang: string): string | undefined => {
  if (typeof text === 'string') return text.trim() || undefined;
  if (typeof text !== 'object' || text === null) return undefined;
  const value: unknown = Reflect.get(text, lang);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

/**
 * A catalogue item's generation material from what it is rendered from (`sourcesOf`: for a
 * product its own parameter values, read through `productRelationsRepository.forProducts`) and
 * its categories' names. Pure: the database reads are `generationMaterial`'s.
 */
export function materialOf(
  sources: EntitySources,
  url: LangMap,
  categories: readonly LangMap[] = [],
): GenerationMaterial {
  const { compose } = sources;
  // A parameter's name and values are one text for every language, or a text per language.
  const parametersIn = (lang: string) =>
    (compose.parameters ?? []).flatMap((p) => {
      const values = (isList(p.value) ? p.value : [p.value])
        .map((v) => textIn(v, lang))
        .filter((v): v is string => v !== undefined);
      // A parameter is data, not prose: its name in `lang`, else its one (default) name.
      const name = textIn(p.name, lang) ?? textIn(p.name, 'default');
      return name !== undefined && values.length > 0 ? [`${name}: ${values.join(', ')}`] : [];
    });
  return {
    found: true,
    images: [...(compose.images ?? [])],
    url,
    in(lang) {
      const parameters = parametersIn(lang);
      const out: LanguageMaterial = {
        name: textIn(compose.name, lang),
        short_description: textIn(compose.short_description, lang),
        description: textIn(compose.description, lang),
        ...(parameters.length > 0 && { parameter: parameters.join('\n') }),
        brand: textIn(compose.brand?.name, lang),
        categories: categories.flatMap((names) => textIn(names, lang) ?? []),
        url: textIn(url, lang),
      };
      if (out.categories?.length === 0) delete out.categories;
      for (const key of Object.keys(out) as (keyof LanguageMaterial)[])
        if (out[key] === undefined) delete out[key];
      return out;
    },
  };
}

/**
 * What generation may use of the catalogue item of a white-label entity (same external id and
 * type): its images, and its name, descriptions, own parameter values, brand, category names and
 * page in each language. Nothing for entities without a catalogue item (pages, unknown ids,
 * deleted items).
 */
export async function generationMaterial(
  db: Knex,
  eshopId: number,
  entityType: ContentEntityType,
  externalId: string,
): Promise<GenerationMaterial> {
  const type = CATALOGUE_TYPE_OF[entityType];
  const item = type && (await catalogueRepository.findEntity(db, type, eshopId, externalId));
  if (!type || !item) return NO_MATERIAL;
  const fields = item.fields;
  const url = (fields.url as LangMap | undefined) ?? {};
  if (type !== 'product') return materialOf(sourcesOf(type, item), url);
  const ref = productRef(item);
  const relations = (await productRelationsRepository.forProducts(db, eshopId, [ref])).get(ref.id);
  const categoryIds = Array.isArray(fields.categories_ids)
    ? fields.categories_ids.filter((id): id is string => typeof id === 'string')
    : [];
  const names = await catalogueRepository.namesOf(db, 'category', eshopId, categoryIds);
  return materialOf(
    sourcesOf(type, item, relations),
    url,
    [...new Set(categoryIds)].flatMap((id) => {
      const name = names.get(id);
      return name === undefined ? [] : [name];
    }),
  );
}

/**
 * `generationMaterial` of many items of one type in three statements whatever their number (the
 * items, their relations, their categories' names), by external id; an id without a catalogue
 * item has none (`found` false).
 */
export async function generationMaterials(
  db: Knex,
  eshopId: number,
  entityType: ContentEntityType,
  externalIds: readonly string[],
): Promise<Map<string, GenerationMaterial>> {
  const out = new Map<string, GenerationMaterial>(externalIds.map((id) => [id, NO_MATERIAL]));
  const type = CATALOGUE_TYPE_OF[entityType];
  if (!type) return out;
  const items = await catalogueRepository.findEntities(db, type, eshopId, externalIds);
  const urlOf = (item: StoredEntity): LangMap => {
    const url: unknown = Reflect.get(item.fields, 'url');
    return typeof url === 'object' && url !== null && !Array.isArray(url) ? { ...url } : {};
  };
  if (type !== 'product') {
    for (const [id, item] of items) out.set(id, materialOf(sourcesOf(type, item), urlOf(item)));
    return out;
  }
  const refs = [...items.values()].map(productRef);
  const relations = await productRelationsRepository.forProducts(db, eshopId, refs);
  const categoryIdsOf = (item: StoredEntity): string[] => {
    const ids: unknown = Reflect.get(item.fields, 'categories_ids');
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  };
  const names = await catalogueRepository.namesOf(db, 'category', eshopId, [
    ...new Set([...items.values()].flatMap(categoryIdsOf)),
  ]);
  for (const [id, item] of items) {
    const categories = [...new Set(categoryIdsOf(item))].flatMap((categoryId) => {
      const name = names.get(categoryId);
      return name === undefined ? [] : [name];
    });
    out.set(id, materialOf(sourcesOf(type, item, relations.get(item.id)), urlOf(item), categories));
  }
  return out;
}

/**
 * What a catalogue item is rendered from: what it says, plus (for a product) its brand,
 * parameters and variants, nothing invented.
 */
export function sourcesOf(
  type: CatalogueEntityType,
  item: StoredEntity,
  relations?: ProductRelations,
): EntitySources {
  const f = item.fields as Record<string, unknown> & { name: LangMap; description: LangMap; url: LangMap };
  const images = itemImages(f);
  if (type !== 'product' || !relations) {
    return {
      compose: { type, name: f.name, description: f.description, images },
      snippet: {
        type,
        name: f.name,
        description: f.description,
        images,
        url: f.url,
        category: (f.category as string) ?? null,
      },
    };
  }
  const { brand, variants } = relations;
  // Each parameter with only the product's own values (productRelationsRepository); its name in
  // the page's language when the parameter has one, else the default name.
  const parameters = relations.parameters.map((p) => ({
    name: p.names ? { ...p.names, default: p.name } : p.name,
    values: p.values,
  }));
  return {
    compose: {
      type,
      name: f.name,
      description: f.description,
      short_description: f.short_description as LangMap,
      images,
      brand: brand ? { name: brand } : null,
      parameters: parameters.map((p) => ({ name: p.name, value: p.values })),
    },
    snippet: {
      type,
      name: f.name,
      description: Object.keys(f.description).length ? f.description : (f.short_description as LangMap),
      images,
      brand,
      variants,
      parameters,
      url: f.url,
    },
  };
}

/** What an eshop's settings say its pages do with a text their language lacks. */
export function fallbackPolicyOf(eshop: Pick<Eshop, 'contentFallback' | 'defaultLanguage'>): FallbackPolicy {
  return { mode: eshop.contentFallback, defaultLanguage: eshop.defaultLanguage };
}

/** The eshop settings every content write renders with. */
export type RenderingEshop = Pick<Eshop, 'id' | 'languages' | 'contentFallback' | 'defaultLanguage'>;

/** One entity's write of people's content (`saveEditorContents`). */
export interface EditorContentWrite {
  externalId: string;
  /** Name for the rich snippet when no catalogue item carries one (white-label title, job context). */
  fallbackName?: Text | null;
  /** Who writes, for the revision this write stores (`generation` with its job). */
  source: EditorRevisionSource;
  /** The versions the writer accepts (If-Match): another one stored means nothing is written. */
  ifMatch?: readonly number[];
}

export interface EditorContentTarget extends EditorContentWrite {
  eshop: RenderingEshop;
  entityType: ContentEntityType;
}

/** What `saveEditorContents` did with one write: saved, or refused with what `build` or a check threw (nothing written). */
export type EditorContentResult = { saved: SavedEditorContent } | { refused: unknown };

/** The writer of an editor write as its revision records it. */
export type EditorRevisionSource =
  { kind: Exclude<RevisionSource, 'generation' | 'import'> } | { kind: 'generation'; jobId: number };

export interface SavedEditorContent extends RenderedContent {
  tree: ContentWidget[];
  /** The content's version after this write (its revision's number, the content's ETag). */
  version: number;
  /** The revision this write stored. */
  revisionId: number;
}

/**
 * The content's version is not the one the writer read (If-Match): thrown under the content
 * lock, before anything is written.
 */
export class ContentVersionMismatch extends Error {
  constructor(
    readonly expected: readonly number[],
    readonly current: number,
  ) {
    super(`The content is at version ${current}, not ${expected.join(', ') || 'the one named'}`);
    this.name = 'ContentVersionMismatch';
  }
}

/** The languages whose rendered html differs between two language maps. */
export function languagesChanged(
  before: Partial<Record<string, string>>,
  after: Partial<Record<string, string>>,
): string[] {
  const langs = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...langs].filter((lang) => (before[lang] ?? '') !== (after[lang] ?? '')).sort();
}

/**
 * Writes people's content (filled, edited or generated) of an entity in the caller's
 * transaction: takes the entity's content lock, then locks the catalogue item of the same id
 * and the content row (the lock order of render-content), derives the new tree from the stored one with `build` (which may throw
 * to refuse the change: nothing is written; it also gets what the item is rendered from, for a
 * catalogue item the lists serve, so an added widget can start from the item's own data), renders every language of the eshop with the
 * item's data for the data-driven parts, stores it with origin `editor` so imports never
 * recompose it, stores the new tree as the entity's next revision (with `source` and the languages
 * whose html changed; `ifMatch` naming another version than the stored one refuses the write with
 * ContentVersionMismatch), and touches the item so lists that follow `updated_at` see the new
 * content and (for an item the lists serve) writes its `item.content_ready` event, last in the
 * transaction.
 *
 * Drafts (docs/decisions/0080-drafts-and-publishing.md, "Drafts and publishing"): the tree `build` starts from is the
 * entity's draft when it has one. In an eshop whose `publish_mode` is `draft` (read here, in the
 * transaction), a write other than `publish` stores the new tree as the draft instead (with its
 * html, a revision marked draft, the content's next version) and leaves the content row, the
 * item and the events alone: the storefront keeps serving what was published. Otherwise the
 * write publishes as described above, and a draft it started from is deleted with it (`publish`
 * without a draft is refused with NoDraft).
 */
export async function saveEditorContent(
  trx: Knex.Transaction,
  target: EditorContentTarget,
  build: (
    current: ContentWidget[] | undefined,
    sources: EntitySources | undefined,
  ) => ContentWidget[] | Promise<ContentWidget[]>,
): Promise<SavedEditorContent> {
  const { eshop, entityType, ...write } = target;
  const results = await saveEditorContents(trx, { eshop, entityType }, [write], (_, current, sources) =>
    build(current, sources),
  );
  const result = results.get(write.externalId)!;
  if ('refused' in result) throw result.refused;
  return result.saved;
}

/** A write of `saveEditorContents` once its tree is built and rendered: what it stores. */
interface PlannedWrite {
  write: EditorContentWrite;
  item: StoredEntity | undefined;
  /** Whether the lists serve the item (a catalogue item, not deleted). */
  listed: boolean;
  existing: EditableContent | undefined;
  draft: { tree: unknown[]; html: Partial<Record<string, string>> } | undefined;
  /** Stored as the draft (an eshop in draft mode) instead of published. */
  toDraft: boolean;
  /** Content without a revision yet is kept as revision 1 first. */
  baseline: boolean;
  /** The version this write stores. */
  version: number;
  tree: ContentWidget[];
  snippet: SnippetEntity;
  outputs: RenderedContent;
}

/**
 * `saveEditorContent` of several entities of one eshop and type in one transaction, set-based:
 * each lock and read is one statement for all of them (in the same order as one write takes
 * them), `build` and the rendering run per entity, and each write is one statement for all of
 * them, so many items cost about as many round trips as one (a bulk generation's items). A
 * write that `build` or a check refuses (If-Match, NoDraft) is left out with what was thrown;
 * the others are stored. One write per entity.
 */
export async function saveEditorContents<W extends EditorContentWrite>(
  trx: Knex.Transaction,
  at: { eshop: RenderingEshop; entityType: ContentEntityType },
  writes: readonly W[],
  build: (
    write: W,
    current: ContentWidget[] | undefined,
    sources: EntitySources | undefined,
  ) => ContentWidget[] | Promise<ContentWidget[]>,
): Promise<Map<string, EditorContentResult>> {
  const { eshop, entityType } = at;
  const ids = writes.map((write) => write.externalId);
  if (new Set(ids).size !== ids.length) throw new Error('saveEditorContents: one write per entity');
  // FOR UPDATE locks nothing while an entity has no content row (nor catalogue item) yet:
  // without the content keys' locks, concurrent first writes would each start from an empty tree.
  await contentRepository.lockKeys(trx, eshop.id, entityType, ids);
  const catalogueType = CATALOGUE_TYPE_OF[entityType];
  const items =
    catalogueType === undefined
      ? new Map<string, StoredEntity>()
      : await catalogueRepository.findForUpdate(trx, catalogueType, eshop.id, ids);
  const listed = [...items.values()].filter((item) => !item.isDelete);
  // Read under the locks: the version an If-Match names is compared with the one replaced.
  const stored = await contentRepository.lockForEdit(trx, eshop.id, entityType, ids);
  const relations =
    catalogueType === 'product' && listed.length > 0
      ? await productRelationsRepository.forProducts(trx, eshop.id, listed.map(productRef))
      : undefined;
  const drafts = await contentDraftsRepository.lockMany(trx, eshop.id, entityType, ids);
  const mode = writes.some((write) => write.source.kind !== 'publish')
    ? await contentDraftsRepository.modeOf(trx, eshop.id)
    : undefined;
  const policy = fallbackPolicyOf(eshop);

  const results = new Map<string, EditorContentResult>();
  const planned: PlannedWrite[] = [];
  for (const write of writes) {
    const { externalId } = write;
    const item = items.get(externalId);
    const isListed = item !== undefined && catalogueType !== undefined && !item.isDelete;
    const sources = isListed ? sourcesOf(catalogueType, item, relations?.get(item.id)) : undefined;
    const existing = stored.get(externalId);
    const current = existing?.version ?? 0;
    const draft = drafts.get(externalId);
    try {
      if (write.ifMatch !== undefined && !write.ifMatch.includes(current)) {
        throw new ContentVersionMismatch(write.ifMatch, current);
      }
      const publishing = write.source.kind === 'publish';
      if (publishing && draft === undefined) throw new NoDraft();
      const tree = await build(
        write,
        (draft?.tree ?? existing?.tree) as ContentWidget[] | undefined,
        sources,
      );
      const snippet: SnippetEntity = sources?.snippet ?? {
        type: entityType,
        name: write.fallbackName ?? null,
      };
      // Content that has no revision yet (composed by an import, or stored before revisions) is
      // kept as revision 1 first, so this write can be undone.
      const baseline = existing !== undefined && current === 0 && !existing.treeEmpty;
      planned.push({
        write,
        item,
        listed: isListed,
        existing,
        draft,
        toDraft: !publishing && mode === 'draft',
        baseline,
        version: (baseline ? 1 : current) + 1,
        tree,
        snippet,
        outputs: renderAll(tree, snippet, eshop.languages, policy),
      });
    } catch (refused) {
      results.set(externalId, { refused });
    }
  }
  const published = planned.filter((p) => !p.toDraft);
  const drafted = planned.filter((p) => p.toDraft);
  const idsOf = (list: readonly PlannedWrite[]) => list.map((p) => p.write.externalId);

  await contentRevisionsRepository.recordBaselines(
    trx,
    eshop.id,
    entityType,
    planned
      .filter((p) => p.baseline)
      .map((p) => ({
        externalId: p.write.externalId,
        source: p.existing?.origin === 'composed' ? 'import' : 'editor',
      })),
  );
  await contentRepository.saveMany(trx, eshop.id, entityType, [
    ...published.map((p) => ({
      externalId: p.write.externalId,
      content: { origin: 'editor' as const, tree: p.tree, ...p.outputs },
    })),
    // A draft of an entity with nothing published yet: the published state is the empty content
    // (origin `composed`, so a catalogue item's first render still composes it from the item's
    // data), served exactly as no content is (`languages_complete` not computed).
    ...drafted
      .filter((p) => p.existing === undefined)
      .map((p) => ({
        externalId: p.write.externalId,
        content: {
          origin: 'composed' as const,
          tree: [],
          ...renderAll([], p.snippet, eshop.languages, policy),
          languages_complete: null,
        },
      })),
  ]);
  // The draft a published write started from is now what the storefront serves.
  await contentDraftsRepository.removeMany(
    trx,
    eshop.id,
    entityType,
    idsOf(published.filter((p) => p.draft !== undefined)),
  );
  await contentDraftsRepository.saveMany(
    trx,
    eshop.id,
    entityType,
    drafted.map((p) => ({ externalId: p.write.externalId, tree: p.tree, html: p.outputs.html })),
  );
  // The languages changed are those whose html differs from what was there before: the published
  // html for a published write, the draft's (else the published) for a draft.
  const revisionOf = (p: PlannedWrite, before: Partial<Record<string, string>>) => ({
    externalId: p.write.externalId,
    version: p.version,
    source: p.write.source.kind,
    generationJobId: p.write.source.kind === 'generation' ? p.write.source.jobId : null,
    languagesChanged: languagesChanged(before, p.outputs.html),
  });
  const revisions = new Map([
    ...(await contentRevisionsRepository.recordMany(
      trx,
      eshop.id,
      entityType,
      published.map((p) => revisionOf(p, p.existing?.html ?? {})),
    )),
    ...(await contentDraftsRepository.recordDrafts(
      trx,
      eshop.id,
      entityType,
      drafted.map((p) => revisionOf(p, p.draft?.html ?? p.existing?.html ?? {})),
    )),
  ]);
  // A published write touches its item so lists that follow `updated_at` see the new content,
  // and clients that follow the feed (or webhooks) learn of it as they do of renders: an item the
  // lists serve (or hold in review) has new content to read. One still waiting for its first
  // render gets its event from that render. A draft changes nothing the storefront reads.
  if (catalogueType !== undefined) {
    await catalogueRepository.touchMany(
      trx,
      catalogueType,
      eshop.id,
      idsOf(published.filter((p) => p.item !== undefined)),
    );
    await eventsRepository.append(
      trx,
      eshop.id,
      published
        .filter((p) => p.listed && (p.item?.status === 'ready' || p.item?.status === 'review'))
        .map((p) => ({
          type: 'item.content_ready' as const,
          entityType: catalogueType,
          externalId: p.write.externalId,
          data: { status: p.item!.status },
        })),
    );
  }
  for (const p of planned) {
    const revision = revisions.get(p.write.externalId)!;
    results.set(p.write.externalId, {
      saved: { tree: p.tree, ...p.outputs, version: revision.version, revisionId: revision.id },
    });
  }
  return results;
}

/** `publish` or `discard` of an entity that has no draft: nothing to do, nothing written. */
export class NoDraft extends Error {
  constructor() {
    super('The entity has no draft');
    this.name = 'NoDraft';
  }
}
