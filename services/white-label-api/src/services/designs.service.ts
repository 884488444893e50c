import { NotFoundError, sharedAnswer } from '@catalogue/http';
import {
  designPreviewPage,
  designThumbnailSvg,
  type DesignCategory,
  type DesignStructure,
  type WidgetTemplate,
  type v3,
} from '@catalogue/content';
import { loadDesign, structureOf } from '@catalogue/content-store';
import { designsRepository, type CountedDesign, type DesignRow, type Knex } from '@catalogue/db';

/**
 * Where a design's public preview files live: under the API's own origin, named by the design's
 * structure hash, which only the eshops that may use the design see (an `<img>` or a new tab
 * cannot send the token header).
 */
export function designPreviewUrls(apiOrigin: string, design: Pick<DesignRow, 'id' | 'hash'>) {
  const base = `${apiOrigin}/design-preview/v1/${design.id}/${design.hash}`;
  return { image: `${base}.svg`, page: `${base}.html` };
}

function designView(design: DesignRow, widgetsCount: number, apiOrigin: string): v3.DesignView {
  const urls = designPreviewUrls(apiOrigin, design);
  return {
    id: design.id,
    name: design.name,
    name_translation: design.nameTranslation,
    info: design.info,
    image_preview: design.imagePreview ?? urls.image,
    category: design.category,
    type: design.type,
    position: design.position,
    hash: design.hash,
    widgets_count: widgetsCount,
    preview_url: urls.page,
  };
}

/**
 * How long a process serves the public designs from memory before reading them again: an
 * operator's change to them (a seed, rare) is seen within this, and a burst of design lists
 * costs one read of them per process.
 */
export const PUBLIC_DESIGNS_TTL_MS = 5_000;

export type DesignLister = (
  eshopId: number,
  type: DesignCategory | undefined,
  apiOrigin: string,
) => Promise<v3.Data<v3.DesignView[]>>;

/**
 * The design list: the visible public designs, the same for every eshop, from memory
 * (PUBLIC_DESIGNS_TTL_MS, one read for concurrent misses), merged by position with the eshop's
 * own custom designs, read on every request so that a change to them shows at once.
 */
export function designLister(db: Knex): DesignLister {
  const publicDesigns = sharedAnswer(() => designsRepository.listPublic(db), PUBLIC_DESIGNS_TTL_MS);
  return async (eshopId, type, apiOrigin) => {
    const [shared, own] = await Promise.all([
      publicDesigns.get(),
      designsRepository.listCustom(db, eshopId, type),
    ]);
    const designs = mergeByPosition(type ? shared.filter((d) => d.design.category === type) : shared, own);
    return { data: designs.map((d) => designView(d.design, d.widgetsCount, apiOrigin)) };
  };
}

/** Two lists ordered by (position, id), merged into one so ordered. */
function mergeByPosition(a: readonly CountedDesign[], b: readonly CountedDesign[]): CountedDesign[] {
  const merged: CountedDesign[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    const takeA =
      x !== undefined &&
      (y === undefined ||
        x.design.position < y.design.position ||
        (x.design.position === y.design.position && x.design.id < y.design.id));
    if (takeA) {
      merged.push(x);
      i += 1;
    } else if (y !== undefined) {
      merged.push(y);
      j += 1;
    }
  }
  return merged;
}

/** A design the eshop may use with its structure and widget templates, or undefined. */
export async function loadDesignStructure(
  db: Knex | Knex.Transaction,
  eshopId: number,
  designId: number,
): Promise<{ design: DesignRow; structure: DesignStructure; templates: WidgetTemplate[] } | undefined> {
  const loaded = await loadDesign(db, eshopId, designId);
  if (!loaded) return undefined;
  return {
    design: loaded.design,
    // The ids are the stored design_widgets ids, the same the worker fills with.
    structure: structureOf(loaded),
    templates: loaded.templates,
  };
}

/** 404 for an unknown design and for another eshop's custom design alike: nothing tells them apart. */
async function requireDesign(db: Knex, eshopId: number, designId: number) {
  const found = await loadDesignStructure(db, eshopId, designId);
  if (!found) throw new NotFoundError('Design not found');
  return found;
}

export async function designPreview(
  db: Knex,
  eshopId: number,
  designId: number,
): Promise<{ data: { id: number; html: string } }> {
  const { design } = await requireDesign(db, eshopId, designId);
  return { data: { id: design.id, html: design.previewHtml } };
}

export async function designStructureOf(
  db: Knex,
  eshopId: number,
  designId: number,
): Promise<DesignStructure> {
  return (await requireDesign(db, eshopId, designId)).structure;
}

const PREVIEW_FILE = /^([0-9a-f]{64})\.(svg|html)$/;
const DESIGN_ID = /^[1-9][0-9]{0,9}$/;

/**
 * A design's public preview file (`<structure hash>.svg` thumbnail drawn from its widget layout,
 * or `.html`, the design filled with sample content): the hash in the name stands in for the
 * token, so a wrong hash, id or name is a plain 404.
 */
export async function designPreviewFile(
  db: Knex,
  designId: string,
  fileName: string,
  contentCss: string,
): Promise<{ kind: 'svg' | 'html'; body: string }> {
  const file = PREVIEW_FILE.exec(fileName);
  if (!file || !DESIGN_ID.test(designId)) throw new NotFoundError('Not found');
  const found = await designsRepository.findForPreview(db, Number(designId), file[1]!);
  if (!found) throw new NotFoundError('Not found');
  const { design, widgetTypes } = found;
  return file[2] === 'svg'
    ? { kind: 'svg', body: designThumbnailSvg(design.name, widgetTypes) }
    : { kind: 'html', body: designPreviewPage(design.name, design.previewHtml, contentCss) };
}
