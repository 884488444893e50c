import { NotFoundError } from '@catalogue/http';
import {
  designPreviewPage,
  designThumbnailSvg,
  type DesignCategory,
  type DesignStructure,
  type WidgetTemplate,
  type v3,
} from '@catalogue/content';
import { loadDesign, structureOf } from '@catalogue/content-store';
import { designsRepository, type DesignRow, type Knex } from '@catalogue/db';

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

/** Visible public designs and the eshop's custom ones, by position; optionally of one entity type. */
export async function listDesigns(
  db: Knex,
  eshopId: number,
  type: DesignCategory | undefined,
  apiOrigin: string,
): Promise<v3.Data<v3.DesignView[]>> {
  const designs = await designsRepository.list(db, eshopId, type);
  const counts = await designsRepository.widgetCounts(
    db,
    designs.map((d) => d.id),
  );
  return { data: designs.map((d) => designView(d, counts.get(d.id) ?? 0, apiOrigin)) };
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
