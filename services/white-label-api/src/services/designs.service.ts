import { NotFoundError } from '@catalogue/http';
import {
  designStructure,
  type DesignCategory,
  type DesignStructure,
  type WidgetTemplate,
} from '@catalogue/content';
import { designsRepository, type DesignRow, type Knex } from '@catalogue/db';

/** A design as the specification's Design table shows it. */
export interface DesignView {
  id: number;
  name: string;
  name_translation: Record<string, string>;
  info: string | null;
  image_preview: string | null;
  category: DesignCategory;
  type: 'public' | 'custom';
  position: number;
  hash: string;
  widgets_count: number;
  /**
   * Null: previews are not served at a URL a browser could open on its own (every white-label
   * request needs the token header); the editor reads `GET /design/{id}/preview` instead.
   */
  preview_url: null;
}

function designView(design: DesignRow, widgetsCount: number): DesignView {
  return {
    id: design.id,
    name: design.name,
    name_translation: design.nameTranslation,
    info: design.info,
    image_preview: design.imagePreview,
    category: design.category,
    type: design.type,
    position: design.position,
    hash: design.hash,
    widgets_count: widgetsCount,
    preview_url: null,
  };
}

/** Visible public designs and the eshop's custom ones, by position; optionally of one entity type. */
export async function listDesigns(
  db: Knex,
  eshopId: number,
  type?: DesignCategory,
): Promise<{ data: DesignView[] }> {
  const designs = await designsRepository.list(db, eshopId, type);
  const counts = await designsRepository.widgetCounts(
    db,
    designs.map((d) => d.id),
  );
  return { data: designs.map((d) => designView(d, counts.get(d.id) ?? 0)) };
}

/** A design the eshop may use with its structure and widget templates, or undefined. */
export async function loadDesignStructure(
  db: Knex | Knex.Transaction,
  eshopId: number,
  designId: number,
): Promise<{ design: DesignRow; structure: DesignStructure; templates: WidgetTemplate[] } | undefined> {
  const loaded = await designsRepository.load(db, eshopId, designId);
  if (!loaded) return undefined;
  return {
    design: loaded.design,
    // The ids are the stored design_widgets ids, the same the worker fills with.
    structure: designStructure(loaded.definition, {
      design_id: loaded.design.id,
      design_widget_ids: loaded.designWidgetIds,
      widgets: loaded.templates,
    }),
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
