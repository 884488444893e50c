import { repeatedClass, type FieldSpec, type UnfillableReason } from '@catalogue/content';
import { templateOf } from '@catalogue/content-store';
import { widgetCatalogueRepository, type CatalogueWidget, type Knex } from '@catalogue/db';

/** A widget of the catalogue: what it is, where it is listed, and what it can be filled with. */
export interface WidgetView {
  id: number;
  type: string;
  name: string;
  description: string;
  category_id: number;
  category_key: string;
  category_name: string;
  fillable: boolean;
  /** Why the widget has nothing to fill (null when it is fillable). */
  reason: UnfillableReason | null;
  item_count: number;
  field: FieldSpec[];
  item_field: FieldSpec[];
  image_slot: number;
  icon_slot: number;
  /** The class of the element repeated per item or image (what element-copy duplicates), or null. */
  item_class: string | null;
}

function widgetView(widget: CatalogueWidget): WidgetView {
  const d = templateOf(widget);
  return {
    id: widget.id,
    type: widget.type,
    name: widget.name,
    description: widget.description,
    category_id: widget.categoryId,
    category_key: widget.categoryKey,
    category_name: widget.categoryName,
    fillable: d.fillable,
    reason: d.fillable ? null : (d.reason ?? 'no_content_field'),
    item_count: d.item_count,
    field: d.field,
    item_field: d.item_field,
    image_slot: d.image_slot,
    icon_slot: d.icon_slot,
    item_class: repeatedClass(d.template),
  };
}

/** The widget catalogue (shared by every eshop); an unknown category simply lists nothing. */
export async function listWidgets(db: Knex, categoryId?: number): Promise<{ data: WidgetView[] }> {
  return { data: (await widgetCatalogueRepository.list(db, categoryId)).map(widgetView) };
}
